package env

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestTacticalMovesAreTheTacticalLegalMoves checks, over random games of
// every built-in variant and some option sets, that TacticalMoves gives
// exactly the legal moves (in LegalMoves' order) that remove a piece or
// promote, as TacticalMovesChecked and LegalMovesChecked give theirs when
// told whether the side is in check, that IsTactical agrees with the pieces a move removes, and that
// HasLegalMove says whether LegalMoves is empty, and that IsLegal holds
// exactly for the moves LegalMoves lists.
func TestTacticalMovesAreTheTacticalLegalMoves(t *testing.T) {
	games, plies := 200, 120
	if testing.Short() {
		games = 50
	}
	names := append(VariantNames(), "birds-ninjas+scepter+insane-knight", "fbgc+superknights+superpower", "testdata/designer.toml")
	for _, name := range names {
		t.Run(strings.TrimPrefix(name, "testdata/"), func(t *testing.T) {
			v := mustLoad(t, name)
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			tacBuf := make([]Move, 0, MaxMoves)
			positions, tactical := 0, 0
			var recent, older []Move
			for g := 0; g < games && !t.Failed(); g++ {
				randomGame(v, rng, plies, func(p *Position, moves []Move) {
					positions++
					var want []Move
					for _, m := range moves {
						_, n := p.removals(m)
						tac := n > 0 || m.Kind() != Drop && m.Kind() != Castle && m.Promotion() != 0
						if p.IsTactical(m) != tac {
							t.Fatalf("%s: IsTactical(%s) = %v, want %v", p, p.FormatGC(m), !tac, tac)
						}
						if tac {
							want = append(want, m)
						}
					}
					tactical += len(want)
					got := p.TacticalMoves(tacBuf[:0])
					if !slices.Equal(got, want) {
						t.Fatalf("%s: TacticalMoves %v, want %v", p, gcList(p, got), gcList(p, want))
					}
					// The variants told whether the side is in check
					// give the same lists.
					if got := p.TacticalMovesChecked(tacBuf[:0], p.InCheck()); !slices.Equal(got, want) {
						t.Fatalf("%s: TacticalMovesChecked %v, want %v", p, gcList(p, got), gcList(p, want))
					}
					if got := p.LegalMovesChecked(tacBuf[:0], p.InCheck()); !slices.Equal(got, moves) {
						t.Fatalf("%s: LegalMovesChecked %v, want LegalMoves' %v", p, gcList(p, got), gcList(p, moves))
					}
					// The pseudo-legal lists filtered by Legal are the
					// legal ones.
					l := p.Legality(p.InCheck())
					if got := legalOnly(p, p.PseudoMoves(tacBuf[:0], p.InCheck()), &l); !slices.Equal(got, moves) {
						t.Fatalf("%s: PseudoMoves filtered by Legal %v, want LegalMoves' %v", p, gcList(p, got), gcList(p, moves))
					}
					l = p.Legality(p.InCheck())
					if got := legalOnly(p, p.PseudoTacticalMoves(tacBuf[:0], p.InCheck()), &l); !slices.Equal(got, want) {
						t.Fatalf("%s: PseudoTacticalMoves filtered by Legal %v, want %v", p, gcList(p, got), gcList(p, want))
					}
					if has := p.HasLegalMove(); has != (len(moves) > 0) {
						t.Fatalf("%s: HasLegalMove %v with %d legal moves", p, has, len(moves))
					}
					// IsLegal: every legal move, and the legal moves of
					// the last two positions (mostly illegal here).
					cands := append(append(slices.Clone(moves), recent...), older...)
					for _, m := range cands {
						if got, want := p.IsLegal(m, tacBuf[:0]), slices.Contains(moves, m); got != want {
							t.Fatalf("%s: IsLegal(%s) = %v, want %v", p, p.FormatGC(m), got, want)
						}
					}
					older = append(older[:0], recent...)
					recent = append(recent[:0], moves...)
				})
			}
			t.Logf("%d positions, %d tactical moves", positions, tactical)
		})
	}
}

func gcList(p *Position, moves []Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = p.FormatGC(m)
	}
	return out
}

func TestTacticalMovesAllocatesNothing(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p := v.NewPosition()
	buf := make([]Move, 0, MaxMoves)
	m := p.LegalMoves(buf[:0])[0]
	if n := testing.AllocsPerRun(100, func() {
		buf = p.TacticalMoves(buf[:0])
		_ = p.HasLegalMove()
		_ = p.IsLegal(m, buf[:0])
	}); n != 0 {
		t.Errorf("TacticalMoves, HasLegalMove and IsLegal: %v allocations a call, want 0", n)
	}
}

// legalOnly keeps the moves of pseudo for which Legal holds, in order.
func legalOnly(p *Position, pseudo []Move, l *Legality) []Move {
	out := pseudo[:0]
	for _, m := range pseudo {
		if p.Legal(m, l) {
			out = append(out, m)
		}
	}
	return out
}
