package values

import "testing"

// BenchmarkRefit measures one bootstrap refit of the tanh fit on 1500
// synthetic games (6000 positions, 7 coefficients), warm-started at the
// plain fit as the bootstrap does.
func BenchmarkRefit(b *testing.B) {
	m := chessModel("tanh")
	ds := m.games(1500, 1)
	cfg, err := synthConfig(1, Tanh).withDefaults()
	if err != nil {
		b.Fatal(err)
	}
	rows := cfg.Sample.sample(ds)
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
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		resample(gw, 1, i)
		copy(beta, point)
		if err := p.d.fit(beta, gw, work); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(p.d.y)), "rows")
}
