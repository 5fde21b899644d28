package agent

import (
	"math/rand/v2"
	"testing"
)

func TestStatusAfterAgreesWithPlayAndStatus(t *testing.T) {
	// Random games (short cap, so that cap draws occur too) of two
	// variants: for every legal move of every position, StatusAfter
	// equals Status of a copy after Play (except that it may miss a
	// stalemate), and leaves the game unchanged.
	// Over all games some children must be over (mates, caps), or the
	// test would prove nothing.
	over, missed := 0, 0
	for _, name := range []string{"fbgc", "fbgc-superpower"} {
		r := mustRules(t, name, 120)
		rng := rand.New(rand.NewPCG(3, 4))
		for game := 0; game < 6; game++ {
			g := r.NewGame(nil)
			for {
				if done, _ := g.Status(); done {
					break
				}
				moves := g.LegalMoves(nil)
				h := g.Position().Hash()
				for _, m := range moves {
					gotOver, gotV := g.StatusAfter(m)
					c := g.Clone()
					c.Play(m)
					wantOver, wantV := c.Status()
					if !gotOver && wantOver {
						// Allowed for a stalemate only (no check: no mate).
						if wantV != 0 {
							t.Fatalf("%s %s, move %d: StatusAfter missed a decisive end (%g)", name, g.Position(), m, wantV)
						}
						missed++
						continue
					}
					if gotOver != wantOver || gotV != wantV {
						t.Fatalf("%s %s, move %d: StatusAfter %v %g, Play+Status %v %g", name, g.Position(), m, gotOver, gotV, wantOver, wantV)
					}
					if gotOver {
						over++
					}
				}
				if g.Position().Hash() != h {
					t.Fatalf("%s: StatusAfter changed the position", name)
				}
				g.Play(moves[rng.IntN(len(moves))])
			}
		}
	}
	if over == 0 {
		t.Error("no child position was over in any game")
	}
	t.Logf("%d children over, %d stalemates left to the search", over, missed)
}
