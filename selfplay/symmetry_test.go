package selfplay

import (
	"bomberzero/mcts"
	"context"
	"math"
	"testing"
)

func TestSelfPlayIsColourSymmetricWithASymmetricEvaluator(t *testing.T) {
	// The material evaluator treats both colours alike, so in chess, where
	// weak play leaves little of the first move's advantage, neither colour
	// may win far more of the decisive games than the other. A search that
	// broke ties by move-generation order (which scans the board from
	// White's side) let Black win 86 of 100 such games with playout-cap
	// randomization, 32 playouts full, 8 cheap; 94 of 100 with 8 playouts
	// throughout.
	//
	// Under the hypothesis of a fair coin between the colours, White's
	// decisive wins W out of D are Binomial(D, 1/2); the test fails when
	// |W - D/2| exceeds 3.5 standard deviations (two-sided chance about
	// 5e-4 for a symmetric setting). The run is deterministic for its seed
	// (one worker), so the outcome does not vary between runs; the bound is
	// what makes it an honest statement about the setting.
	games := 100
	if testing.Short() {
		games = 60
	}
	cfg := mustDefault(t, "chess")
	cfg.Games = games
	cfg.Out = t.TempDir()
	cfg.Workers = 1
	cfg.Slots = games
	cfg.MaxPlies = 200
	cfg.ResignThreshold, cfg.ResignMoves, cfg.ResignOffShare = -0.9, 4, 0.1
	cfg.Search = mcts.DefaultConfig()
	cfg.FlushGames = games
	cfg.Search.Sims = 32
	cfg.Search.CheapSims = 8
	cfg.Search.CheapShare = 0.75
	cfg.Search.CacheEntries = 1 << 12
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	decisive := sum.WhiteWins + sum.BlackWins
	if decisive < games/2 {
		t.Fatalf("only %d of %d games decisive (+%d =%d -%d): too few to compare the colours", decisive, games, sum.WhiteWins, sum.Draws, sum.BlackWins)
	}
	half := float64(decisive) / 2
	bound := 3.5 * math.Sqrt(float64(decisive)) / 2
	if math.Abs(float64(sum.WhiteWins)-half) > bound {
		t.Errorf("%d games: +%d =%d -%d; of %d decisive games White won %d, want %.1f ± %.1f (3.5 sd of a fair coin)",
			games, sum.WhiteWins, sum.Draws, sum.BlackWins, decisive, sum.WhiteWins, half, bound)
	}
	t.Logf("%d games: +%d =%d -%d", games, sum.WhiteWins, sum.Draws, sum.BlackWins)
}
