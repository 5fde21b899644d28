package agent

import (
	"math/rand/v2"
	"testing"

	"bomberzero/env"
)

// plainQuiescence is Quiescence without alpha-beta or move ordering: the
// best of standing pat and every capture, to QuiescencePlies plies, in
// centipawns. It counts the positions it visits in *nodes and gives up
// (ok false) past limit.
func plainQuiescence(p *env.Position, table []int32, ply int, nodes *int, limit int) (int32, bool) {
	*nodes++
	if *nodes > limit {
		return 0, false
	}
	moves := p.LegalMoves(nil)
	switch res, _ := p.StatusOf(len(moves)); {
	case res == env.Ongoing:
	case res == env.Draw:
		return 0, true
	case (res == env.WhiteWins) == (p.SideToMove() == env.White):
		return quiescenceMate, true
	default:
		return -quiescenceMate, true
	}
	best := Centipawns(p, table)
	if ply == QuiescencePlies {
		return best, true
	}
	for _, m := range moves {
		if _, n := p.Removed(m); n == 0 {
			continue
		}
		u := p.DoMove(m)
		s, ok := plainQuiescence(p, table, ply+1, nodes, limit)
		p.UndoMove(u)
		if !ok {
			return 0, false
		}
		best = max(best, -s)
	}
	return best, true
}

func TestQuiescenceAgreesWithPlainMinimax(t *testing.T) {
	if raceDetector {
		t.Skip("one goroutine's exhaustive search: nothing for the race detector, minutes under it")
	}
	// Positions of random games in variants with bombers (double
	// captures), drops and en passant: wherever the exhaustive capture
	// minimax finishes, the pruned, ordered search gives its value, and
	// leaves the position as it was. Some positions must have captures
	// that change the balance, or the test would prove nothing.
	compared, changed, skipped := 0, 0, 0
	for _, name := range []string{"fbgc", "fbgc-superpower", "hangars", "chess"} {
		r := mustRules(t, name, 0)
		rng := rand.New(rand.NewPCG(5, 6))
		for game := 0; game < 3; game++ {
			g := r.NewGame(nil)
			for ply := 0; ply < 160; ply++ {
				if done, _ := g.Status(); done {
					break
				}
				if ply%4 == 0 {
					h := g.Position().Hash()
					got := g.Quiescence()
					if g.Position().Hash() != h {
						t.Fatalf("%s %s: Quiescence changed the position", name, g.Position())
					}
					nodes := 0
					want, ok := plainQuiescence(g.Position(), r.table, 0, &nodes, 20_000)
					switch {
					case !ok || g.q.nodes >= QuiescenceNodes:
						skipped++
					case got != float64(want)/100:
						t.Fatalf("%s %s: Quiescence %g, plain minimax %g", name, g.Position(), got, float64(want)/100)
					default:
						compared++
						if got != g.Material() {
							changed++
						}
					}
				}
				moves := g.LegalMoves(nil)
				g.Play(moves[rng.IntN(len(moves))])
			}
		}
	}
	if compared < 150 || changed < 20 {
		t.Errorf("compared %d positions, %d where captures change the balance: too few to prove anything", compared, changed)
	}
	t.Logf("compared %d positions (%d changed by captures), skipped %d too large for the plain search", compared, changed, skipped)
}

func TestQuiescenceWorkedExamples(t *testing.T) {
	// Orthodox chess with the default table's pawn (1) and queen (q).
	q := DefaultValues()['Q']
	tests := []struct {
		name, fen string
		want      float64
	}{
		{"no capture: the balance as it stands", "4k3/8/8/3q4/8/8/4P3/4K3 w - - 0 1", 1 - q},
		{"a hanging queen is taken", "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", 1},
		{"a defended queen is taken and the pawn recaptures", "4k3/8/2p5/3q4/4P3/8/8/4K3 w - - 0 1", -1},
		{"the side to move may stand pat instead of losing the exchange", "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", q - 2},
		{"black to move takes the undefended pawn", "4k3/8/8/3q4/4P3/8/8/4K3 b - - 0 1", q},
	}
	r := mustRules(t, "chess", 0)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := r.Variant.ParsePosition(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.NewGame(p).Quiescence(); got != tc.want {
				t.Errorf("Quiescence = %g, want %g", got, tc.want)
			}
		})
	}
}

// midgamePositions returns n positions of a random fbgc game, every few
// plies from the 20th on: middlegames with pieces en prise.
func midgamePositions(tb testing.TB, n int) []*Game {
	r := mustRules(tb, "fbgc", 0)
	rng := rand.New(rand.NewPCG(7, 8))
	var out []*Game
	for len(out) < n {
		g := r.NewGame(nil)
		for ply := 0; ply < 120 && len(out) < n; ply++ {
			if done, _ := g.Status(); done {
				break
			}
			if ply >= 20 && ply%5 == 0 {
				out = append(out, g.Clone().(*Game))
			}
			moves := g.LegalMoves(nil)
			g.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

func TestQuiescenceDoesNotAllocate(t *testing.T) {
	games := midgamePositions(t, 20)
	for _, g := range games {
		g.Quiescence() // the scratch space is made on first use
	}
	allocs := testing.AllocsPerRun(10, func() {
		for _, g := range games {
			g.Quiescence()
		}
	})
	if allocs != 0 {
		t.Errorf("Quiescence allocates %g times per 20 calls, want 0", allocs)
	}
}

// BenchmarkQuiescence measures one capture search of an fbgc middlegame
// position, the cost leaf_material_mix adds to every leaf, and reports the
// positions it visits (each one legal-move generation).
func BenchmarkQuiescence(b *testing.B) {
	games := midgamePositions(b, 64)
	for _, g := range games {
		g.Quiescence() // the scratch space is made on first use
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		games[i%len(games)].Quiescence()
	}
	b.StopTimer()
	nodes := 0
	for _, g := range games {
		g.Quiescence()
		nodes += g.q.nodes
	}
	b.ReportMetric(float64(nodes)/float64(len(games)), "positions/op")
}
