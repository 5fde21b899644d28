package values

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// BenchResult is what "bomberzero bench values" reports: the speed of one
// bootstrap refit against its ceiling, one sweep over the rows.
type BenchResult struct {
	Games int `json:"games"`
	Rows  int `json:"rows"` // distinct (game, features, target) rows fitted
	// PassNs is one gradient-and-Hessian sweep over the rows, the least
	// work any refit does; RefitNs is a whole warm-started Newton refit of
	// a bootstrap replicate; PassesPerRefit is their ratio.
	PassNs         float64 `json:"pass_ns"`
	RefitNs        float64 `json:"refit_ns"`
	PassesPerRefit float64 `json:"passes_per_refit"`
	// SweepsPerRefit is the sweeps a refit made, counted (not timed): the
	// Newton steps and step halvings of a warm start, whatever the load.
	SweepsPerRefit float64 `json:"sweeps_per_refit"`
	// BootstrapS estimates a default B = 200 bootstrap of the two default
	// fits at this size on one core.
	BootstrapS float64 `json:"bootstrap_s"`
}

// BenchRefit times the tanh fit's bootstrap refits on games synthetic chess
// games (ChessModel, all positions kept after ply 4) for about d each of
// the pass and the refit.
func BenchRefit(games int, d time.Duration) (BenchResult, error) {
	m := ChessModel(false)
	ds := m.Games(games, 1)
	cfg, err := Config{Sample: SampleConfig{SkipPlies: 4, QuietPlies: 2}, Methods: []Method{Tanh}}.withDefaults()
	if err != nil {
		return BenchResult{}, err
	}
	rows := cfg.Sample.sample(ds, false)
	p, err := buildProblem(ds, rows, Tanh, cfg, 0)
	if err != nil {
		return BenchResult{}, fmt.Errorf("values: bench: %w", err)
	}
	gw := make([]float64, len(ds.Games))
	for i := range gw {
		gw[i] = 1
	}
	point := make([]float64, p.d.k)
	work := newGLMWork(p.d.k)
	if err := p.d.fit(point, gw, work); err != nil {
		return BenchResult{}, fmt.Errorf("values: bench: %w", err)
	}
	res := BenchResult{Games: games, Rows: len(p.d.y)}
	n, start := 0, time.Now()
	for n == 0 || time.Since(start) < d { // one at least: a stalled clock gives no rate of nothing
		p.d.pass(point, gw, work)
		n++
	}
	res.PassNs = float64(time.Since(start).Nanoseconds()) / float64(n)
	beta := make([]float64, p.d.k)
	src := rand.NewPCG(0, 0)
	rng := rand.New(src)
	work.passes = 0
	n, start = 0, time.Now()
	for n == 0 || time.Since(start) < d {
		resample(gw, src, rng, 1, n)
		copy(beta, point)
		if err := p.d.fit(beta, gw, work); err != nil {
			return res, fmt.Errorf("values: bench: %w", err)
		}
		n++
	}
	res.RefitNs = float64(time.Since(start).Nanoseconds()) / float64(n)
	res.SweepsPerRefit = float64(work.passes) / float64(n)
	res.PassesPerRefit = res.RefitNs / res.PassNs
	res.BootstrapS = 2 * DefaultBootstrap * res.RefitNs / 1e9
	return res, nil
}
