package selfplay

import (
	"testing"
	"time"
)

func TestBenchReportsConsistentRates(t *testing.T) {
	cfg := BenchConfig{Config: DefaultConfig("claustrophobia"), Net: "test", Warmup: 100 * time.Millisecond, Measure: 400 * time.Millisecond}
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
