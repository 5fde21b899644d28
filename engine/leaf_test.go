package engine

import (
	"math/rand/v2"
	"testing"

	"bomberzero/env"
)

func newTestLeaf(t testing.TB, v *env.Variant, depth int) *Leaf {
	t.Helper()
	l, err := NewLeaf(v, testTable(v), nil, depth)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// randomPositions plays n random games of the variant for up to plies
// plies and returns every position on the way that is not over.
func randomPositions(t testing.TB, v *env.Variant, seed uint64, games, plies int) []*env.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	var out []*env.Position
	var buf [env.MaxMoves]env.Move
	for g := 0; g < games; g++ {
		pos := v.NewPosition()
		for ply := 0; ply < plies; ply++ {
			legal := pos.LegalMoves(buf[:0])
			if r, _ := pos.StatusOf(len(legal)); r != env.Ongoing {
				break
			}
			out = append(out, pos.Clone())
			pos.DoMove(legal[rng.IntN(len(legal))])
		}
	}
	return out
}

func TestLeafScoreTakesTheHangingQueen(t *testing.T) {
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	l := newTestLeaf(t, v, 0)
	tests := []struct {
		fen      string
		min, max int32 // the score's bounds for the side to move
	}{
		// Black's queen stands where White's pawn takes it: White, a queen
		// for a pawn down on the board, is a pawn up once the capture is
		// seen.
		{"4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", 50, 300},
		// The same with Black to move: Black's queen takes the pawn or steps
		// away, so Black stays a queen up.
		{"4k3/8/8/3q4/4P3/8/8/4K3 b - - 0 1", 700, 1400},
		// Mate on the board: the side to move is mated.
		{"R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", -Mate, -MateBound},
	}
	for _, tc := range tests {
		pos, err := v.ParsePosition(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if s := l.Score(pos); s < tc.min || s > tc.max {
			t.Errorf("%s: leaf score %s, want %d to %d", tc.fen, ScoreText(s), tc.min, tc.max)
		}
	}
}

// A depth-1 Leaf sees a mate by a quiet move that the quiescence search
// alone does not.
func TestLeafDepthSeesTheQuietMate(t *testing.T) {
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := v.ParsePosition("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if s := newTestLeaf(t, v, 0).Score(pos); IsMate(s) {
		t.Errorf("depth 0 scored the back-rank position %s: the quiescence search plays no quiet move", ScoreText(s))
	}
	if s := newTestLeaf(t, v, 1).Score(pos); MateMoves(s) != 1 {
		t.Errorf("depth 1 scored the back-rank position %s, want mate 1", ScoreText(s))
	}
	if _, err := NewLeaf(v, testTable(v), nil, MaxLeafDepth+1); err == nil {
		t.Errorf("a leaf of depth %d was accepted", MaxLeafDepth+1)
	}
}

// A Leaf keeps no table and no move order statistics, so a position
// scores the same on any Leaf and in any order, and at depth 0 never below
// its static evaluation when the side to move may stand pat.
func TestLeafScoreIsAFunctionOfThePositionAlone(t *testing.T) {
	for _, name := range []string{"fbgc", "fbgc-superpower", "chess"} {
		v, err := env.LoadVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		for depth := 0; depth <= 2; depth++ {
			positions := randomPositions(t, v, 3, 4-depth, 50)
			a, b := newTestLeaf(t, v, depth), newTestLeaf(t, v, depth)
			forward := make([]int32, len(positions))
			for i, p := range positions {
				forward[i] = a.Score(p)
			}
			fork := a.Fork()
			for i := len(positions) - 1; i >= 0; i-- {
				p := positions[i]
				if s := b.Score(p); s != forward[i] {
					t.Fatalf("%s depth %d: %s scored %d, then %d in reverse order on another leaf", name, depth, p, forward[i], s)
				}
				if s := fork.Score(p); s != forward[i] {
					t.Fatalf("%s depth %d: %s scored %d, then %d on a fork", name, depth, p, forward[i], s)
				}
				if depth == 0 && !p.InCheck() && !IsMate(forward[i]) {
					if static := b.e.eval.Evaluate(p); forward[i] < static {
						t.Errorf("%s: %s: leaf score %d below its static evaluation %d (it may stand pat)", name, p, forward[i], static)
					}
				}
			}
			mid := positions[len(positions)/2]
			before := mid.String()
			a.Score(mid)
			if after := mid.String(); after != before {
				t.Fatalf("%s: Score changed its position from %s to %s", name, before, after)
			}
		}
	}
}

func TestLeafScoreAllocatesNothing(t *testing.T) {
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	positions := randomPositions(t, v, 5, 2, 40)
	for depth := 0; depth <= 1; depth++ {
		l := newTestLeaf(t, v, depth)
		for _, p := range positions {
			l.Score(p)
		}
		i := 0
		if n := testing.AllocsPerRun(50, func() {
			l.Score(positions[i%len(positions)])
			i++
		}); n != 0 {
			t.Errorf("a leaf score of depth %d allocates %.1f times", depth, n)
		}
	}
}
