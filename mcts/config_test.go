package mcts

import (
	"math"
	"slices"
	"testing"
)

func TestDefaultConfigIsValid(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidateRejectsOutOfRangeParameters(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Config)
	}{
		{"no playouts", func(c *Config) { c.Sims = 0 }},
		{"share above 1", func(c *Config) { c.CheapShare = 1.5 }},
		{"cheap without playouts", func(c *Config) { c.CheapSims = 0 }},
		{"negative cpuct", func(c *Config) { c.CPUCTInit = -1 }},
		{"zero cpuct base", func(c *Config) { c.CPUCTBase = 0 }},
		{"negative fpu", func(c *Config) { c.FPUReduction = -0.1 }},
		{"noise above 1", func(c *Config) { c.NoiseFraction = 2 }},
		{"negative forced playouts", func(c *Config) { c.ForcedPlayouts = -1 }},
		{"noise without concentration", func(c *Config) { c.DirichletTotal = 0 }},
		{"negative temperature", func(c *Config) { c.Temp = -1 }},
		{"negative policy temperature", func(c *Config) { c.PolicyTemp = -1 }},
		{"policy temperature NaN", func(c *Config) { c.PolicyTemp = math.NaN() }},
		{"gumbel without moves", func(c *Config) { c.Gumbel, c.GumbelM = true, 0 }},
		{"no leaves", func(c *Config) { c.LeavesPerGame = 0 }},
		{"negative cache", func(c *Config) { c.CacheEntries = -1 }},
		{"cache without moves", func(c *Config) { c.CacheMoves = 0 }},
	} {
		cfg := DefaultConfig()
		c.edit(&cfg)
		if err := cfg.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", c.name, cfg)
		}
		if _, err := NewSearcher(cfg, &tableEval{shape: tttShape, max: 1}, 1); err == nil {
			t.Errorf("%s: NewSearcher accepted the config", c.name)
		}
	}
}

func TestNewSearcherRejectsNoSlotsAndEmptyBatches(t *testing.T) {
	if _, err := NewSearcher(DefaultConfig(), &tableEval{shape: tttShape, max: 4}, 0); err == nil {
		t.Error("a searcher of 0 games was created")
	}
	if _, err := NewSearcher(DefaultConfig(), &tableEval{shape: tttShape, max: 0}, 4); err == nil {
		t.Error("a searcher over an evaluator of max batch 0 was created")
	}
	if _, err := NewSearcher(DefaultConfig(), &tableEval{max: 4}, 4); err == nil {
		t.Error("a searcher over an evaluator of empty shape was created")
	}
}

func TestSampleMoveFollowsTemperature(t *testing.T) {
	policy := []float32{0.1, 0.6, 0.3}
	if k := sampleMove(policy, nil, 0, 0.99); k != 1 {
		t.Errorf("temperature 0 chose %d, want the most visited 1", k)
	}
	// At temperature 1 the cumulative bounds are 0.1, 0.7, 1.0.
	for _, c := range []struct {
		u    float64
		want int
	}{{0.05, 0}, {0.11, 1}, {0.69, 1}, {0.71, 2}, {0.999, 2}} {
		if k := sampleMove(policy, nil, 1, c.u); k != c.want {
			t.Errorf("temperature 1, u %g: chose %d, want %d", c.u, k, c.want)
		}
	}
	// At temperature 0.5 weights square: 0.01 0.36 0.09 of 0.46.
	if k := sampleMove(policy, nil, 0.5, 0.01/0.46+0.001); k != 1 {
		t.Errorf("temperature 0.5 chose %d just past the first bound, want 1", k)
	}
	if k := sampleMove(policy, nil, 0.5, 0.37/0.46+0.001); k != 2 {
		t.Errorf("temperature 0.5 chose %d past the second bound, want 2", k)
	}
}

func TestTemperatureScheduleSwitchesToGreedyAfterTempPlies(t *testing.T) {
	// The same deterministic search (no noise) of the empty board spreads
	// its 30 visits over the 9 moves: at temperature 1 (ply < TempPlies)
	// the move is drawn from them, at temperature 0 it is always a most
	// visited one.
	cfg := testConfig(30)
	cfg.TempPlies = 2
	cfg.CacheEntries = 0
	ev, err := NewUniform(tttShape, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSearcher(cfg, ev, 1)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int]map[int]int{1: {}, 2: {}}
	notTop := 0
	for i := 0; i < 300; i++ {
		for _, ply := range []int{1, 2} {
			if err := s.ResetAt(0, newTicTacToe(), ply); err != nil {
				t.Fatal(err)
			}
			if err := s.SearchAll(); err != nil {
				t.Fatal(err)
			}
			r := s.Result(0)
			counts[ply][r.Move]++
			top := slices.Max(r.Policy)
			for k, m := range r.Moves {
				if m == r.Move && r.Policy[k] < top {
					if ply == 2 {
						t.Fatalf("at ply 2 (temperature 0) move %d with %g of the visits was played, the most is %g", m, r.Policy[k], top)
					}
					notTop++
				}
			}
		}
	}
	if len(counts[1]) < 5 || notTop == 0 {
		t.Errorf("at ply 1 (temperature 1) only moves %v were played, %d of them not most visited; want most of the 9 and some less visited", counts[1], notTop)
	}
}
