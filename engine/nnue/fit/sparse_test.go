package fit

import (
	"math"
	"testing"

	G "gorgonia.org/gorgonia"

	"bomberzero/engine/nnue"
)

// testData returns n random positions of variant name as training data
// for a fresh net (h hidden, l2 second layer) with a noisy PSQT.
func testData(t testing.TB, name string, n, h, l2 int) (*nnue.Net, *data, []Sample) {
	t.Helper()
	v := mustVariant(t, name)
	fs := nnue.NewFeatureSet(v)
	net := nnue.NewNet(fs, h, l2, 9)
	withPSQT(net, fs)
	positions := randomPositions(v, n, 5)
	samples := make([]Sample, len(positions))
	for i, p := range positions {
		samples[i] = Sample{FEN: p.String(), Score: int32(37*i%900 - 450), Result: float32(i%3) / 2}
	}
	d, err := prepare(v, fs, samples, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return net, d, samples
}

func seq(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// gorgoniaGrads runs the reference graph on batch idx of d from net and
// returns its loss and gradients by weight name.
func gorgoniaGrads(t *testing.T, net *nnue.Net, d *data, idx []int) (float64, map[string][]float32) {
	t.Helper()
	gr, err := newGraph(net, len(idx), true)
	if err != nil {
		t.Fatal(err)
	}
	defer gr.vm.Close()
	gr.load(d, idx)
	loss, err := gr.run()
	if err != nil {
		t.Fatal(err)
	}
	grads := map[string][]float32{}
	for _, n := range gr.learnables {
		g, err := n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		grads[n.Name()] = append([]float32(nil), g.Data().([]float32)...)
	}
	return loss, grads
}

// sparseGrads returns the sparse trainer's loss and gradients (threads
// shares) by weight name.
func sparseGrads(net *nnue.Net, d *data, idx []int, threads int) (float64, map[string][]float32) {
	sp := newSparse(net, d, 1e-3, threads)
	defer sp.close()
	loss := sp.gradients(idx)
	g := sp.g[0]
	return loss, map[string][]float32{"W1": g.w1, "B1": g.b1, "W2": g.w2, "B2": g.b2, "W3": g.w3, "B3": {g.b3}, "PSQT": g.psqt}
}

func TestSparseGradientsMatchFiniteDifferences(t *testing.T) {
	net, d, _ := testData(t, "chess", 6, 8, 4)
	// Base scores (a residual net's) shift the outputs the loss sees.
	for i := range d.base {
		d.base[i] = float32(i%3-1) * 0.7
	}
	idx := seq(6)
	for _, threads := range []int{1, 3} {
		_, grads := sparseGrads(net, d, idx, threads)
		f0 := d.feats[d.us[0]]
		checks := []struct {
			name string
			w    []float32
			i    int
		}{
			{"W1", net.W1, int(f0)*net.H + 1}, {"W1", net.W1, int(f0)*net.H + 5}, {"B1", net.B1, 2},
			{"W2", net.W2, 3}, {"W2", net.W2, 17}, {"B2", net.B2, 1}, {"W3", net.W3, 2},
			{"PSQT", net.PSQT, int(f0)}, {"PSQT", net.PSQT, int(d.feats[d.them[0]])},
		}
		for _, c := range checks {
			const eps = 1e-3
			old := c.w[c.i]
			c.w[c.i] = old + eps
			up := loss64(net, d, idx)
			c.w[c.i] = old - eps
			down := loss64(net, d, idx)
			c.w[c.i] = old
			num := (up - down) / (2 * eps)
			got := float64(grads[c.name][c.i])
			if math.Abs(num-got) > 1e-6+1e-3*math.Abs(num) {
				t.Errorf("threads %d: d loss / d %s[%d]: sparse %.6g, finite difference %.6g", threads, c.name, c.i, got, num)
			}
		}
		// B3 by finite difference too.
		old := net.B3
		net.B3 = old + 1e-3
		up := loss64(net, d, idx)
		net.B3 = old - 1e-3
		down := loss64(net, d, idx)
		net.B3 = old
		if num, got := (up-down)/2e-3, float64(grads["B3"][0]); math.Abs(num-got) > 1e-6+1e-3*math.Abs(num) {
			t.Errorf("threads %d: d loss / d B3: sparse %.6g, finite difference %.6g", threads, got, num)
		}
	}
}

// TestSparseEqualsGorgonia checks the sparse trainer against the Gorgonia
// graph on the same batch and start net: the loss, every gradient, and
// the weights after three Adam steps.
func TestSparseEqualsGorgonia(t *testing.T) {
	net, d, _ := testData(t, "fbgc", 48, 32, 8)
	idx := seq(48)
	gl, gg := gorgoniaGrads(t, net, d, idx)
	sl, sg := sparseGrads(net, d, idx, 4)
	if math.Abs(gl-sl) > 1e-6*math.Max(1, gl) {
		t.Errorf("loss: sparse %.9g, gorgonia %.9g", sl, gl)
	}
	for name, want := range gg {
		got := sg[name]
		if len(got) != len(want) {
			t.Fatalf("%s: %d gradients, gorgonia %d", name, len(got), len(want))
		}
		scale := 0.0
		for _, w := range want {
			scale = math.Max(scale, math.Abs(float64(w)))
		}
		for i := range want {
			if diff := math.Abs(float64(got[i] - want[i])); diff > 1e-5*scale+1e-9 {
				t.Errorf("%s[%d]: gradient sparse %.7g, gorgonia %.7g (largest %.3g)", name, i, got[i], want[i], scale)
				break
			}
		}
	}

	// Three steps of each trainer from the same net.
	ref, sp := net.Clone(), net.Clone()
	gr, err := newGraph(ref, len(idx), true)
	if err != nil {
		t.Fatal(err)
	}
	defer gr.vm.Close()
	solver := G.NewAdamSolver(G.WithLearnRate(1e-3))
	tr := newSparse(sp, d, 1e-3, 3)
	defer tr.close()
	for range 3 {
		gr.load(d, idx)
		if _, err := gr.run(); err != nil {
			t.Fatal(err)
		}
		if err := solver.Step(G.NodesToValueGrads(gr.learnables)); err != nil {
			t.Fatal(err)
		}
		ref.B3 = gr.b3[0]
		tr.step(idx)
	}
	// Adam moves a weight by at most about the learning rate a step; a
	// weight whose gradient is near zero may move either way in both, so
	// the tolerance is a small share of a step.
	start, got, want := byName(net), byName(sp), byName(ref)
	for name := range start {
		bad, moved := 0, 0
		for i := range start[name] {
			if math.Abs(float64(got[name][i]-want[name][i])) > 3e-5 {
				bad++
				if bad == 1 {
					t.Errorf("%s[%d] after 3 steps: sparse %.8g, gorgonia %.8g", name, i, got[name][i], want[name][i])
				}
			}
			if got[name][i] != start[name][i] {
				moved++
			}
		}
		if moved == 0 {
			t.Errorf("%s: no weight moved in 3 steps", name)
		}
	}
}

// byName returns n's weights by their Gorgonia node names.
func byName(n *nnue.Net) map[string][]float32 {
	return map[string][]float32{"W1": n.W1, "B1": n.B1, "W2": n.W2, "B2": n.B2, "W3": n.W3, "B3": {n.B3}, "PSQT": n.PSQT}
}

func TestSparseStepAllocatesNothing(t *testing.T) {
	net, d, _ := testData(t, "fbgc", 64, 32, 8)
	tr := newSparse(net, d, 1e-3, 2)
	defer tr.close()
	idx := seq(64)
	tr.step(idx) // first touches
	if n := testing.AllocsPerRun(20, func() { tr.step(idx) }); n != 0 {
		t.Errorf("a step allocates %v times; want 0", n)
	}
}

// TestLearningRateSchedule checks the half-cosine schedule: the rate
// starts at eta, ends at etaFinal on the last step, falls monotonically and
// is halfway at the middle step; without etaFinal it stays eta.
func TestLearningRateSchedule(t *testing.T) {
	cases := []struct {
		name             string
		eta, final       float64
		steps            int
		first, mid, last float64
	}{
		{"constant", 1e-3, 0, 101, 1e-3, 1e-3, 1e-3},
		{"cosine", 1e-3, 1e-5, 101, 1e-3, (1e-3 + 1e-5) / 2, 1e-5},
		{"one step", 1e-3, 1e-5, 1, 1e-3, 1e-3, 1e-3},
	}
	for _, c := range cases {
		s := &sparse{eta: c.eta, etaFinal: c.final, steps: c.steps}
		mid := (c.steps - 1) / 2
		for _, p := range []struct {
			step int
			want float64
		}{{0, c.first}, {mid, c.mid}, {c.steps - 1, c.last}} {
			if got := s.rate(p.step); math.Abs(got-p.want) > 1e-12 {
				t.Errorf("%s: rate(%d) = %g, want %g", c.name, p.step, got, p.want)
			}
		}
		for i := 1; i < c.steps; i++ {
			if s.rate(i) > s.rate(i-1) {
				t.Errorf("%s: rate rises at step %d: %g after %g", c.name, i, s.rate(i), s.rate(i-1))
			}
		}
	}
}
