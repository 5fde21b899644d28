package engine

import (
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
