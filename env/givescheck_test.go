package env

import (
	"math/rand/v2"
	"testing"
)

// TestGivesCheckAndAttackedAfterMatchPlayingTheMove asks GivesCheck and
// AttackedAfter of every legal move of random games of every variant and
// compares them with the position after DoMove: InCheck, and Attacked of
// the move's target, its origin and each king's square by either side.
func TestGivesCheckAndAttackedAfterMatchPlayingTheMove(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 3
	}
	for _, name := range append(VariantNames(), "birds-ninjas+scepter+insane-knight", "fbgc+superknights+superpower", "testdata/designer.toml") {
		v := mustLoad(t, name)
		rng := rand.New(rand.NewPCG(41, uint64(len(name))))
		checks := 0
		for g := 0; g < games; g++ {
			randomGame(v, rng, 120, func(p *Position, moves []Move) {
				before := p.String()
				for _, m := range moves {
					us, them := p.SideToMove(), p.SideToMove().Other()
					squares := []Square{m.To(), m.From(), p.KingSquare(us), p.KingSquare(them)}
					gives := p.GivesCheck(m)
					var after [4][2]bool
					for i, s := range squares {
						after[i] = [2]bool{p.AttackedAfter(m, s, them), p.AttackedAfter(m, s, us)}
					}
					if s := p.String(); s != before {
						t.Fatalf("%s: %s: asking about %s changed the position to %s", name, before, p.FormatGC(m), s)
					}
					u := p.DoMove(m)
					if want := p.InCheck(); gives != want {
						t.Fatalf("%s: %s: GivesCheck(%s) = %v, InCheck after it %v", name, before, p.FormatGC(m), gives, want)
					}
					if gives {
						checks++
					}
					for i, s := range squares {
						if want := [2]bool{p.Attacked(s, them), p.Attacked(s, us)}; after[i] != want {
							t.Fatalf("%s: %s: AttackedAfter(%s, square %d) by them, us = %v, Attacked after it %v", name, before, p.FormatGC(m), s, after[i], want)
						}
					}
					p.UndoMove(u)
				}
			})
		}
		if checks == 0 {
			t.Errorf("%s: no move gave check in %d games: the test saw too little", name, games)
		}
	}
}
