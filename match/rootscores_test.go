package match

import (
	"math/rand/v2"
	"testing"

	"bomberzero/agent"
	"bomberzero/env"
)

// negamax is the plain minimax score of pos for the side to move, depth
// plies deep, with no pruning: the independent truth RootScores is checked
// against (same leaves: game ends by the rules, else material).
func negamax(pos *env.Position, table []int32, depth, ply int) int32 {
	moves := pos.LegalMoves(nil)
	switch res, _ := pos.StatusOf(len(moves)); res {
	case env.Ongoing:
	case env.Draw:
		return 0
	default:
		if (res == env.WhiteWins) == (pos.SideToMove() == env.White) {
			return Mate - int32(ply)
		}
		return -Mate + int32(ply)
	}
	if depth == 0 {
		return agent.Centipawns(pos, table)
	}
	best := int32(-Mate - 1)
	for _, m := range moves {
		u := pos.DoMove(m)
		best = max(best, -negamax(pos, table, depth-1, ply+1))
		pos.UndoMove(u)
	}
	return best
}

// rootTestPositions are fbgc positions after random openings of several
// lengths, the mate-in-one position and the developed midgame.
func rootTestPositions(t *testing.T) []*env.Position {
	v := mustVariant(t, "fbgc")
	out := []*env.Position{mustPosition(t, v, mateIn1), midgame(t)}
	rng := rand.New(rand.NewPCG(7, 7))
	for _, plies := range []int{0, 6, 20, 40} {
		p := v.NewPosition()
		for range plies {
			moves := p.LegalMoves(nil)
			if res, _ := p.StatusOf(len(moves)); res != env.Ongoing {
				break
			}
			p.DoMove(moves[rng.IntN(len(moves))])
		}
		out = append(out, p)
	}
	return out
}

func TestRootScoresAreExactWithinTheMarginAndBoundsBelowIt(t *testing.T) {
	table, err := agent.DefaultValues().Table(mustVariant(t, "fbgc"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pos := range rootTestPositions(t) {
		text := pos.String()
		for depth := 1; depth <= 2; depth++ {
			for _, margin := range []int32{0, 100, 350, ExactAll} {
				a, err := NewAlphaBeta(pos.Variant(), depth, agent.DefaultValues(), 3)
				if err != nil {
					t.Fatal(err)
				}
				moves, scores, err := a.RootScores(pos, margin, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				if pos.String() != text {
					t.Fatalf("RootScores changed the position: %s, was %s", pos, text)
				}
				if n := len(pos.LegalMoves(nil)); len(moves) != n || len(scores) != n {
					t.Fatalf("%s depth %d: %d moves and %d scores, want %d", text, depth, len(moves), len(scores), n)
				}
				truth := make([]int32, len(moves))
				best := int32(-Mate - 1)
				for i, m := range moves {
					u := pos.DoMove(m)
					truth[i] = -negamax(pos, table, depth-1, 1)
					pos.UndoMove(u)
					best = max(best, truth[i])
				}
				for i, m := range moves {
					exact := truth[i] > best-margin || margin == ExactAll
					switch {
					case exact && scores[i] != truth[i]:
						t.Errorf("%s depth %d margin %d: %s scored %d, minimax says %d", text, depth, margin, pos.FormatMove(m), scores[i], truth[i])
					case !exact && (scores[i] < truth[i] || scores[i] > best-margin):
						t.Errorf("%s depth %d margin %d: %s bounded at %d, want in [%d, %d]", text, depth, margin, pos.FormatMove(m), scores[i], truth[i], best-margin)
					}
				}
			}
		}
	}
}

func TestRootScoresAgreeWithAnalyzeAtDepthThree(t *testing.T) {
	pos := midgame(t)
	a, _ := NewAlphaBeta(pos.Variant(), 3, agent.DefaultValues(), 1)
	moves, scores, err := a.RootScores(pos, ExactAll, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cands, err := a.Analyze(pos, len(moves))
	if err != nil {
		t.Fatal(err)
	}
	want := map[env.Move]int32{}
	for _, c := range cands {
		want[c.Move] = int32(c.Score * 100)
	}
	for i, m := range moves {
		if w, ok := want[m]; !ok || w != scores[i] {
			t.Errorf("%s: RootScores %d, Analyze %d (listed %v)", pos.FormatMove(m), scores[i], w, ok)
		}
	}
}

func TestRootScoresFirstBestIsAStrongestMoveAndAllocatesNothing(t *testing.T) {
	pos := midgame(t)
	a, _ := NewAlphaBeta(pos.Variant(), 2, agent.DefaultValues(), 1)
	b, _ := NewAlphaBeta(pos.Variant(), 2, agent.DefaultValues(), 1)
	var moves []env.Move
	var scores []int32
	for range 3 {
		var err error
		moves, scores, err = a.RootScores(pos, 200, moves, scores)
		if err != nil {
			t.Fatal(err)
		}
		_, want, err := b.Best(pos)
		if err != nil {
			t.Fatal(err)
		}
		top := scores[0]
		for _, s := range scores {
			top = max(top, s)
		}
		if top != want {
			t.Errorf("best root score %d, Best says %d", top, want)
		}
	}
	if n := testing.AllocsPerRun(5, func() { moves, scores, _ = a.RootScores(pos, 200, moves, scores) }); n != 0 {
		t.Errorf("%.1f allocations per call with reused buffers, want 0", n)
	}
}
