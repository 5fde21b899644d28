package compare

import (
	"context"
	"math"
	"testing"

	"bomberzero/match"
	"bomberzero/mcts"
	"bomberzero/stats"
)

func TestAnchorLadderPlaysEveryModelAgainstEveryAnchorWithTheSameSeeds(t *testing.T) {
	dir := t.TempDir()
	srcs := []Source{{Variant: "fbgc", Kind: "run", Model: saveNet(t, dir, "fbgc", 1)},
		{Variant: "fbgc-superpower", Kind: "run", Model: saveNet(t, dir, "fbgc-superpower", 2)}}
	cfg := Config{Games: 4, Sims: 2, MaxPlies: 16, Search: mcts.DefaultConfig(), Seed: 3, Workers: 1, Anchors: []string{"random", "greedy"}}
	ms, matched, err := anchorLadder(context.Background(), srcs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4 || len(matched) != 2 {
		t.Fatalf("%d anchor matches and %d comparisons, want 4 and 2", len(ms), len(matched))
	}
	for i, m := range ms {
		if m.Variant != srcs[i/2].Variant || m.Anchor != cfg.Anchors[i%2] || m.Result.Total.Games() != 4 {
			t.Errorf("match %d: %+v", i, m)
		}
		if m.Seed != ms[i%2].Seed {
			t.Errorf("match %d seed %d, the first variant's against %s had %d", i, m.Seed, m.Anchor, ms[i%2].Seed)
		}
	}
	if matched[0].A != "fbgc" || matched[0].B != "fbgc-superpower" || matched[0].Anchor != "random" {
		t.Errorf("comparison %+v", matched[0])
	}
	// No model, no anchors.
	if ms, _, err := anchorLadder(context.Background(), []Source{{Variant: "fbgc", Kind: "baseline"}}, cfg); err != nil || ms != nil {
		t.Errorf("baseline sources: %v, %v", ms, err)
	}
}

func TestMatchedAtComparesTwoScoresWithTheirInterval(t *testing.T) {
	res := func(w, d, l int) *match.Result { return &match.Result{Total: stats.WDL{Wins: w, Draws: d, Losses: l}} }
	a := AnchorMatch{Variant: "x", Anchor: "random", Result: res(90, 10, 0)}
	same := matchedAt(a, AnchorMatch{Variant: "y", Anchor: "random", Result: res(88, 12, 0)})
	if !same.Matched || math.Abs(same.Delta-(-0.01)) > 1e-12 || !(same.Low < same.Delta && same.Delta < same.High) {
		t.Errorf("0.95 against 0.94: %+v, want matched", same)
	}
	weaker := matchedAt(a, AnchorMatch{Variant: "y", Anchor: "random", Result: res(40, 20, 40)})
	if weaker.Matched || weaker.High >= 0 || weaker.Elo >= 0 {
		t.Errorf("0.95 against 0.50: %+v, want not matched, B weaker", weaker)
	}
}

func TestLevelsCompareTheModelsOwnGamesAtEachPlayoutCount(t *testing.T) {
	dir := t.TempDir()
	srcs := []Source{{Variant: "fbgc", Kind: "run", Model: saveNet(t, dir, "fbgc", 1)},
		{Variant: "fbgc-superpower", Kind: "run", Model: saveNet(t, dir, "fbgc-superpower", 2)}}
	cfg := Config{Variants: []string{"fbgc", "fbgc-superpower"}, Games: 4, MaxPlies: 12, Search: mcts.DefaultConfig(), Seed: 3,
		Workers: 1, Bootstrap: 20, Levels: []int{1, 3}}
	ls, err := levels(context.Background(), srcs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 2 || ls[0].Sims != 1 || ls[1].Sims != 3 {
		t.Fatalf("levels %+v, want playouts 1 and 3", ls)
	}
	for _, l := range ls {
		c := l.Comparison
		if len(c.Variants) != 2 || c.Variants[0].Games != 4 || c.Variants[1].Games != 4 {
			t.Errorf("level %d: %d variants, games %d and %d", l.Sims, len(c.Variants), c.Variants[0].Games, c.Variants[1].Games)
		}
		primary := 0
		for _, d := range c.Differences {
			if d.Primary {
				primary++
			}
		}
		if primary != 3 {
			t.Errorf("level %d: %d primary endpoints, want 3", l.Sims, primary)
		}
	}
	if ls, err := levels(context.Background(), []Source{{Variant: "fbgc", Kind: "baseline"}}, cfg); err != nil || ls != nil {
		t.Errorf("baseline sources: %v, %v", ls, err)
	}
}

func TestPolicyDiversityReadsEachModelsOpeningPolicy(t *testing.T) {
	dir := t.TempDir()
	srcs := []Source{{Variant: "fbgc", Kind: "run", Model: saveNet(t, dir, "fbgc", 1)},
		{Variant: "fbgc-superpower", Kind: "run", Model: saveNet(t, dir, "fbgc-superpower", 2)}}
	cfg := Config{Variants: []string{"fbgc", "fbgc-superpower"}, Seed: 3, Book: 4}
	if err := cfg.makeBook(); err != nil {
		t.Fatal(err)
	}
	ds, err := policyDiversity(srcs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 {
		t.Fatalf("%d rows, want one per model", len(ds))
	}
	start := load(t, "fbgc").NewPosition()
	n := len(start.LegalMoves(nil))
	for _, d := range ds {
		// An entropy lies between 0 and log2 of the legal moves; the
		// effective number of moves is 2^entropy.
		if d.StartEntropy <= 0 || d.StartEntropy > math.Log2(float64(n))+1e-9 || math.Abs(d.StartMoves-math.Exp2(d.StartEntropy)) > 1e-9 {
			t.Errorf("%s: start entropy %v bits (%v moves) of %d legal moves", d.Variant, d.StartEntropy, d.StartMoves, n)
		}
		if d.BookPositions != 4 || d.BookEntropy <= 0 || d.StartTop == "" || d.StartTopProb <= 0 || d.StartTopProb > 1 {
			t.Errorf("%s: %+v", d.Variant, d)
		}
	}
	if math.Abs(entropyBits([]float32{0.5, 0.5})-1) > 1e-12 || entropyBits([]float32{1, 0}) != 0 {
		t.Error("entropyBits of a coin or a certainty")
	}
}
