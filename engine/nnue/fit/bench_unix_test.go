//go:build unix

package fit

import (
	"runtime"
	"syscall"
	"testing"

	G "gorgonia.org/gorgonia"

	"bomberzero/engine/nnue"
)

// cpuSeconds returns the process's CPU time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// BenchmarkTrainers trains the default net (fbgc, H=128) on batches of 256
// random positions with each trainer, in one run. samples/s is by the wall
// clock; samples/cpu-s by the process's CPU time (user and system, all
// threads), which the machine's load does not change.
func BenchmarkTrainers(b *testing.B) {
	net, d, _ := testData(b, "fbgc", 1024, nnue.DefaultHidden, nnue.DefaultL2)
	idx := seq(len(d.target))
	const batch = 256
	b.Run("sparse", func(b *testing.B) {
		tr := newSparse(net.Clone(), d, 1e-3, runtime.GOMAXPROCS(0))
		defer tr.close()
		n, cpu := 0, cpuSeconds()
		for b.Loop() {
			s := n % (len(idx) / batch) * batch
			tr.step(idx[s : s+batch])
			n++
		}
		b.ReportMetric(float64(n*batch)/b.Elapsed().Seconds(), "samples/s")
		b.ReportMetric(float64(n*batch)/(cpuSeconds()-cpu), "samples/cpu-s")
	})
	b.Run("gorgonia", func(b *testing.B) {
		ref := net.Clone()
		gr, err := newGraph(ref, batch, true)
		if err != nil {
			b.Fatal(err)
		}
		defer gr.vm.Close()
		st := &gorgoniaStepper{gr: gr, solver: G.NewAdamSolver(G.WithLearnRate(1e-3)), d: d}
		n, cpu := 0, cpuSeconds()
		for b.Loop() {
			s := n % (len(idx) / batch) * batch
			if _, err := st.step(idx[s : s+batch]); err != nil {
				b.Fatal(err)
			}
			n++
		}
		b.ReportMetric(float64(n*batch)/b.Elapsed().Seconds(), "samples/s")
		b.ReportMetric(float64(n*batch)/(cpuSeconds()-cpu), "samples/cpu-s")
	})
}
