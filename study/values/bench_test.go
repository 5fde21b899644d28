package values

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkRefit measures one bootstrap refit of the tanh fit on 1500
// synthetic games (6000 positions, 7 coefficients), warm-started at the
// plain fit as the bootstrap does.
func BenchmarkRefit(b *testing.B) {
	m := ChessModel(false)
	ds := m.Games(1500, 1)
	cfg, err := synthConfig(1, Tanh).withDefaults()
	if err != nil {
		b.Fatal(err)
	}
	rows := cfg.Sample.sample(ds, false)
	p, err := buildProblem(ds, rows, Tanh, cfg, 0)
	if err != nil {
		b.Fatal(err)
	}
	ones := make([]float64, len(ds.Games))
	for i := range ones {
		ones[i] = 1
	}
	point := make([]float64, p.d.k)
	work := newGLMWork(p.d.k)
	if err := p.d.fit(point, ones, work); err != nil {
		b.Fatal(err)
	}
	gw := make([]float64, len(ds.Games))
	beta := make([]float64, p.d.k)
	src := rand.NewPCG(0, 0)
	rng := rand.New(src)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		resample(gw, src, rng, 1, i)
		copy(beta, point)
		if err := p.d.fit(beta, gw, work); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(p.d.y)), "rows")
}

func TestBootstrapRefitAllocatesNothing(t *testing.T) {
	m := ChessModel(false)
	ds := m.Games(200, 1)
	cfg, err := synthConfig(1, Tanh).withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	p, err := buildProblem(ds, cfg.Sample.sample(ds, false), Tanh, cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	gw := make([]float64, len(ds.Games))
	beta := make([]float64, p.d.k)
	work := newGLMWork(p.d.k)
	src := rand.NewPCG(0, 0)
	rng := rand.New(src)
	r := 0
	allocs := testing.AllocsPerRun(20, func() {
		resample(gw, src, rng, 1, r)
		r++
		clear(beta)
		if err := p.d.fit(beta, gw, work); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a refit allocates %v times, want 0", allocs)
	}
}

func TestBenchRefitReportsACeilingRatio(t *testing.T) {
	res, err := BenchRefit(100, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	// A warm-started Newton refit takes a few sweeps, never fewer than
	// one. Counted, not timed: the timed ratio (PassesPerRefit) is the
	// benchmark's figure and moves with the machine's load.
	if res.Rows == 0 || res.SweepsPerRefit < 1 || res.SweepsPerRefit > 50 || !(res.PassesPerRefit > 0) {
		t.Errorf("bench %+v: want rows, 1-50 sweeps per refit and a positive timed ratio", res)
	}
}
