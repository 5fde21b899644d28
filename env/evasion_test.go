package env

import (
	"math/rand/v2"
	"testing"
)

// TestEvasionsEqualReferenceGenerator compares LegalMoves with the slow
// reference generator on positions in check, which LegalMoves filters
// through checkZone before playing a move: random games of every variant
// that give check whenever they can, half the time, so that checks by
// every kind of piece (bombers' fly-overs, helicopters, leapers through
// holes) and double checks come up.
func TestEvasionsEqualReferenceGenerator(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	for _, name := range append(VariantNames(), "birds-ninjas+scepter+insane-knight", "fbgc+superknights+superpower", "testdata/designer.toml") {
		v := mustLoad(t, name)
		rng := rand.New(rand.NewPCG(31, uint64(len(name))))
		buf := make([]Move, 0, MaxMoves)
		checks := 0
		for g := 0; g < games; g++ {
			p := v.NewPosition()
			for ply := 0; ply < 150; ply++ {
				moves := p.LegalMoves(buf[:0])
				if res, _ := p.Status(); res != Ongoing {
					break
				}
				if p.InCheck() {
					checks++
					ref := refMoves(p)
					if len(ref) != len(moves) {
						t.Fatalf("%s: %s: %d evasions, the reference has %d", name, p, len(moves), len(ref))
					}
					for _, m := range moves {
						if !ref[m] {
							t.Fatalf("%s: %s: %s (%x) generated, not in the reference", name, p, p.FormatGC(m), uint32(m))
						}
					}
				}
				var checking []Move
				for _, m := range moves {
					u := p.DoMove(m)
					if p.InCheck() {
						checking = append(checking, m)
					}
					p.UndoMove(u)
				}
				if len(checking) > 0 && rng.IntN(2) == 0 {
					p.DoMove(checking[rng.IntN(len(checking))])
				} else {
					p.DoMove(moves[rng.IntN(len(moves))])
				}
			}
		}
		if checks < games {
			t.Errorf("%s: only %d positions in check in %d games: the test saw too few", name, checks, games)
		}
	}
}
