package train

import (
	"context"
	"testing"
)

func TestEvalEveryRatesOnlyEachNthGenerationAndScoresTheHeldOutSet(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Eval.Every = 2
	dir := t.TempDir()
	if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 4}); err != nil {
		t.Fatal(err)
	}
	recs := readMetrics(t, dir)
	if len(recs) != 4 {
		t.Fatalf("%d metrics records, want 4", len(recs))
	}
	for _, rec := range recs {
		rated := (rec.Generation+1)%2 == 0
		if got := len(rec.Matches) > 0; got != rated {
			t.Errorf("generation %d (%s): %d matches, want matches %v", rec.Generation, rec.Model, len(rec.Matches), rated)
		}
		if got := rec.Heldout != nil; got != rated {
			t.Fatalf("generation %d: held-out score %+v, want one %v", rec.Generation, rec.Heldout, rated)
		}
		if !rated {
			continue
		}
		// The previous opponent is the model rated last, two generations back.
		if want := genName(rec.Generation - 1); rec.Matches[0].B != want {
			t.Errorf("generation %d played %s first, want the last rated model %s", rec.Generation, rec.Matches[0].B, want)
		}
		h := rec.Heldout
		if h.Puzzles < 200 || h.PolicySolved < 0 || h.PolicySolved > h.Puzzles {
			t.Errorf("generation %d: held-out %+v", rec.Generation, h)
		}
		// Any search with the MCTS-solver finds every mate in one.
		if h.SearchSolved != h.Puzzles {
			t.Errorf("generation %d: the %d-playout search solved %d of %d mates in one", rec.Generation, h.SearchSims, h.SearchSolved, h.Puzzles)
		}
		if rec.SelfPlay == nil || len(rec.SelfPlay.Terminations) == 0 {
			t.Errorf("generation %d: self-play terminations not recorded", rec.Generation)
		}
	}
}
