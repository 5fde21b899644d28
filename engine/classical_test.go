package engine

import (
	"math/rand/v2"
	"testing"

	"bomberzero/env"
)

// variantsUnderTest is every built-in variant and every option each one
// accepts.
func variantsUnderTest(t testing.TB) []*env.Variant {
	t.Helper()
	var out []*env.Variant
	for _, name := range env.VariantNames() {
		v, err := env.LoadVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
		for _, o := range env.OptionNames() {
			if v, err := env.LoadVariant(name + "+" + o); err == nil {
				out = append(out, v)
			}
		}
	}
	return out
}

func TestSymmetricStartIsWorthTheTempoInEveryVariant(t *testing.T) {
	for _, v := range variantsUnderTest(t) {
		e, err := NewClassical(v, testTable(v), DefaultWeights())
		if err != nil {
			t.Fatal(err)
		}
		pos := v.NewPosition()
		if got, want := e.Evaluate(pos), DefaultWeights().Tempo; got != want {
			t.Errorf("%s start: %d, want the tempo %d (the start is symmetric)", v.Name, got, want)
		}
		// The same position with the other side to move scores the opposite, tempo aside.
		u := pos.DoNull()
		if got := e.Evaluate(pos); got != DefaultWeights().Tempo {
			t.Errorf("%s start, black to move: %d, want the tempo", v.Name, got)
		}
		pos.UndoNull(u)
	}
}

func TestExtraMaterialScoresForItsOwner(t *testing.T) {
	v, _ := env.LoadVariant("chess")
	e, _ := NewClassical(v, testTable(v), DefaultWeights())
	cases := []struct{ fen, who string }{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "even"},
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "white"},
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", "white"},
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "white"},
		{"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", "white"},
	}
	for _, c := range cases {
		pos, err := v.ParsePosition(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		s := e.Evaluate(pos)
		if pos.SideToMove() == env.Black {
			s = -s
		}
		switch {
		case c.who == "white" && s <= 50:
			t.Errorf("%s: %d for White, want White clearly ahead", c.fen, s)
		case c.who == "even" && (s < -50 || s > 50):
			t.Errorf("%s: %d for White, want about even", c.fen, s)
		}
	}
}

func TestPassedPawnNearPromotionIsWorthMore(t *testing.T) {
	v, _ := env.LoadVariant("chess")
	e, _ := NewClassical(v, testTable(v), DefaultWeights())
	score := func(fen string) int32 {
		pos, err := v.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		return e.Evaluate(pos)
	}
	back, far := score("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), score("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
	if far <= back+50 {
		t.Errorf("a7 pawn %d, a2 pawn %d: want the advanced passed pawn worth clearly more", far, back)
	}
}

func TestEvaluateAllocatesNothing(t *testing.T) {
	v, _ := env.LoadVariant("birds-ninjas")
	e, _ := NewClassical(v, testTable(v), DefaultWeights())
	pos := v.NewPosition()
	if n := testing.AllocsPerRun(100, func() { e.Evaluate(pos) }); n != 0 {
		t.Errorf("Evaluate allocates %.1f times a call", n)
	}
}

func TestClassicalRefusesATableOfAnotherVariant(t *testing.T) {
	v, _ := env.LoadVariant("chess")
	if _, err := NewClassical(v, []int32{0, 100}, DefaultWeights()); err == nil {
		t.Errorf("a table of one piece type accepted for chess")
	}
}

// TestIncrementalTermsEqualScratchInEveryVariant plays random games of
// every variant and option and, at every ply, makes and unmakes every legal
// move: the material and piece-square terms the search keeps on make
// (applyMove) must equal those summed from scratch after each move, the
// terms restored on unmake those of the position before it, and the score
// from the kept terms the from-scratch evaluation's.
func TestIncrementalTermsEqualScratchInEveryVariant(t *testing.T) {
	const games, plies = 3, 80
	promotions, doubles := 0, 0
	for _, v := range variantsUnderTest(t) {
		e, err := NewClassical(v, testTable(v), DefaultWeights())
		if err != nil {
			t.Fatal(err)
		}
		// Two evaluators, so that neither answers from the other's cache.
		inc, scratch := e.Fork().(*Classical), e.Fork().(*Classical)
		kinds := map[env.MoveKind]int{}
		captures := 0
		for g := 0; g < games; g++ {
			rng := rand.New(rand.NewPCG(uint64(g), 31))
			pos := v.NewPosition()
			st := e.stateOf(pos)
			var buf [env.MaxMoves]env.Move
			for ply := 0; ply < plies; ply++ {
				moves := pos.LegalMoves(buf[:0])
				if r, _ := pos.StatusOf(len(moves)); r != env.Ongoing {
					break
				}
				for _, m := range moves {
					before := st
					u := pos.DoMove(m)
					e.applyMove(&st, pos, m, &u)
					kinds[m.Kind()]++
					captures += u.Captures()
					if m.Kind() != env.Drop && m.Promotion() != 0 {
						promotions++
					}
					if u.Captures() == 2 {
						doubles++
					}
					if want := e.stateOf(pos); st != want {
						t.Fatalf("%s game %d ply %d, after the move %d-%d (kind %d): incremental terms %+v, from scratch %+v", v.Name, g, ply, m.From(), m.To(), m.Kind(), st, want)
					}
					if !pos.InCheck() {
						if got, want := inc.evaluateFrom(pos, &st, -Infinite, Infinite), scratch.Evaluate(pos); got != want {
							t.Fatalf("%s game %d ply %d: score from the kept terms %d, from scratch %d", v.Name, g, ply, got, want)
						}
					}
					pos.UndoMove(u)
					st = before
					if want := e.stateOf(pos); st != want {
						t.Fatalf("%s game %d ply %d: terms after unmake %+v, from scratch %+v", v.Name, g, ply, st, want)
					}
				}
				m := moves[rng.IntN(len(moves))]
				u := pos.DoMove(m)
				e.applyMove(&st, pos, m, &u)
			}
		}
		if kinds[env.Normal] == 0 {
			t.Errorf("%s: no move checked", v.Name)
		}
		t.Logf("%s: moves checked by kind %v, pieces captured %d", v.Name, kinds, captures)
	}
	if promotions == 0 || doubles == 0 {
		t.Errorf("%d promotions and %d double captures checked: want some of each", promotions, doubles)
	}
	t.Logf("%d promotions and %d double captures checked", promotions, doubles)
}
