package selfplay

import (
	"testing"
	"time"

	"bomberzero/agent"
	"bomberzero/mcts"
)

func TestBenchReportsConsistentRates(t *testing.T) {
	cfg := BenchConfig{Config: mustDefault(t, "claustrophobia"), Net: "test", Warmup: 100 * time.Millisecond, Measure: 400 * time.Millisecond}
	cfg.Slots = 4
	cfg.Search.Sims = 8
	cfg.Search.CheapSims = 2
	cfg.MaxPlies = 30
	res, err := Bench(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.NetPositionsPerS <= 0 || res.SimsPerS <= 0 || res.EvalsPerS <= 0 || res.GamesPerHour <= 0 {
		t.Fatalf("rates not positive: %+v", res)
	}
	if res.SimsPerS < res.EvalsPerS {
		t.Fatalf("fewer playouts (%v/s) than network evaluations (%v/s)", res.SimsPerS, res.EvalsPerS)
	}
	if d := res.Ratio - res.SimsPerS/res.NetPositionsPerS; d > 1e-9 || d < -1e-9 {
		t.Fatalf("ratio %v is not sims/net %v", res.Ratio, res.SimsPerS/res.NetPositionsPerS)
	}
	if res.Batch != 4 || res.Network != "2x16" {
		t.Fatalf("batch %d network %s", res.Batch, res.Network)
	}
	cfg.Net = "huge"
	if _, err := Bench(cfg); err == nil {
		t.Fatal("unknown network size accepted")
	}
}

// BenchmarkWorkerPlayout measures the self-play worker's own cost per
// playout (search, rules, encoding, bookkeeping, data and records) with the
// Uniform evaluator, which costs almost nothing:
//
//	go test -run XXX -bench WorkerPlayout -benchtime 20000x ./selfplay
func BenchmarkWorkerPlayout(b *testing.B) {
	cfg := mustDefault(b, "fbgc")
	// The search and game sizes the benchmark has always measured, pinned
	// so that a change of the training defaults does not move it.
	cfg.Search, cfg.Slots, cfg.MaxPlies = mcts.DefaultConfig(), 32, 400
	cfg.Out = b.TempDir()
	cfg.Model = agent.Uniform
	r := mustRules(b, "fbgc", cfg.MaxPlies)
	m, err := agent.LoadModel(cfg.Model, r)
	if err != nil {
		b.Fatal(err)
	}
	ev, err := m.NewEvaluator(cfg.Slots, 1)
	if err != nil {
		b.Fatal(err)
	}
	w, err := newBenchPlayer(&cfg, r, m.Name, ev)
	if err != nil {
		b.Fatal(err)
	}
	if err := w.fill(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	// One step is one playout in each of the Slots games.
	for i := 0; i < b.N; i += cfg.Slots {
		if err := w.step(); err != nil {
			b.Fatal(err)
		}
	}
}
