package match

import (
	"context"
	"errors"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/env"
)

func mustVariant(t testing.TB, name string) *env.Variant {
	t.Helper()
	v, err := env.LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustPosition(t testing.TB, v *env.Variant, fen string) *env.Position {
	t.Helper()
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

func mustMove(t testing.TB, p *env.Position, text string) env.Move {
	t.Helper()
	m, err := p.ParseMove(text)
	if err != nil {
		t.Fatalf("%s in %s: %v", text, p, err)
	}
	return m
}

// On fbgc: the black king a10 is walled in by its pawns a9 b9; the white rook
// e1 mates on e10.
const mateIn1 = "k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1"

func TestAlphaBetaFindsMateInOne(t *testing.T) {
	v := mustVariant(t, "fbgc")
	for depth := 1; depth <= 3; depth++ {
		pos := mustPosition(t, v, mateIn1)
		want := mustMove(t, pos, "e1e10")
		for seed := uint64(0); seed < 3; seed++ {
			a, err := NewAlphaBeta(v, depth, agent.DefaultValues(), seed)
			if err != nil {
				t.Fatal(err)
			}
			m, score, err := a.Best(pos)
			if err != nil {
				t.Fatal(err)
			}
			if m != want || score != Mate-1 {
				t.Errorf("depth %d seed %d: %s scored %d, want e1e10 scored %d", depth, seed, pos.FormatMove(m), score, Mate-1)
			}
			if pos.String() != mateIn1 {
				t.Fatalf("search changed the position to %s", pos)
			}
		}
		after := pos.Clone()
		after.DoMove(want)
		if res, why := after.Status(); res != env.WhiteWins || why != env.Checkmate {
			t.Fatalf("e1e10 gives %s %s, want a white checkmate", res, why)
		}
	}
}

// The white bomber d4 faces the black rook d7 with d8 empty behind it: the
// bombing d4-d8 removes the rook (and saves the bomber the rook attacks).
const bomberWinsRook = "9k/10/10/3r6/10/10/3F6/10/10/K9 w - - 0 1"

// The white bomber f4 leaps to h4 over the black pawn g4, removing it and the
// rook h4 (7 pawns); the white knight c3 can only take a knight on b5 (3).
const bomberDoubleCapture = "9k/10/10/10/10/1n8/5Fpr2/2N7/10/K9 w - - 0 1"

func TestAlphaBetaWinsMaterialWithBomberCaptures(t *testing.T) {
	v := mustVariant(t, "fbgc")
	cases := []struct {
		name, fen, move string
		gain            int32
	}{
		{"bombing over a rook", bomberWinsRook, "d4d8", 600},
		{"double capture by the helicopter leap", bomberDoubleCapture, "f4h4", 700},
	}
	for _, c := range cases {
		for depth := 1; depth <= 3; depth++ {
			pos := mustPosition(t, v, c.fen)
			want := mustMove(t, pos, c.move)
			if g := gain(pos, want, mustTable(t, v)); g != c.gain {
				t.Fatalf("%s: the move gains %d centipawns, want %d", c.name, g, c.gain)
			}
			a, err := NewAlphaBeta(v, depth, agent.DefaultValues(), 1)
			if err != nil {
				t.Fatal(err)
			}
			m, err := a.Choose(pos)
			if err != nil {
				t.Fatal(err)
			}
			if m != want {
				t.Errorf("%s, depth %d: chose %s, want %s", c.name, depth, pos.FormatMove(m), c.move)
			}
		}
	}
}

func mustTable(t testing.TB, v *env.Variant) []int32 {
	t.Helper()
	tab, err := agent.DefaultValues().Table(v)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestAlphaBetaAnalyzeListsMateFirstWithItsLine(t *testing.T) {
	v := mustVariant(t, "fbgc")
	pos := mustPosition(t, v, mateIn1)
	a, err := NewAlphaBeta(v, 2, agent.DefaultValues(), 0)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a.Analyze(pos, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(c) != 3 || pos.FormatMove(c[0].Move) != "e1e10" || c[0].Note != "mate in 1" || len(c[0].PV) != 1 {
		t.Fatalf("analysis %+v, want e1e10 first as mate in 1 with a one-move line", c)
	}
	if c[1].Score >= c[0].Score {
		t.Errorf("second move scores %g, not below the mate", c[1].Score)
	}
}

func TestGreedyTakesTheMostValuableCapture(t *testing.T) {
	v := mustVariant(t, "fbgc")
	// The white knight c3 can take the queen b5 or the pawn d5; the white
	// queen j1 can take the rook j9; the bomber c10... none else captures.
	fen := "9k/9r/10/10/10/1q1p6/10/2N7/10/K8Q w - - 0 1"
	pos := mustPosition(t, v, fen)
	want := mustMove(t, pos, "c3b5")
	for seed := uint64(0); seed < 20; seed++ {
		g, err := NewGreedy(v, agent.DefaultValues(), seed)
		if err != nil {
			t.Fatal(err)
		}
		m, err := g.Choose(pos)
		if err != nil {
			t.Fatal(err)
		}
		if m != want {
			t.Fatalf("seed %d: greedy chose %s, want c3b5 (the queen)", seed, pos.FormatMove(m))
		}
	}
	// With the queen valued below the rook, it takes the rook instead.
	g, err := NewGreedy(v, agent.DefaultValues().With(agent.Values{'Q': 2}), 0)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := g.Choose(pos); pos.FormatMove(m) != "j1j9" {
		t.Fatalf("with Q=2 greedy chose %s, want j1j9 (the rook)", pos.FormatMove(m))
	}
}

func TestGreedyBreaksTiesAtRandom(t *testing.T) {
	v := mustVariant(t, "fbgc")
	pos := v.NewPosition() // no capture: every move ties at 0
	seen := map[env.Move]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		g, err := NewGreedy(v, agent.DefaultValues(), seed)
		if err != nil {
			t.Fatal(err)
		}
		m, err := g.Choose(pos)
		if err != nil {
			t.Fatal(err)
		}
		seen[m] = true
	}
	if len(seen) < 10 {
		t.Fatalf("40 seeds chose only %d distinct opening moves; ties are not broken at random", len(seen))
	}
}

func TestRandomPlaysEveryLegalMoveAndFollowsItsSeed(t *testing.T) {
	v := mustVariant(t, "fbgc")
	pos := v.NewPosition()
	legal := pos.LegalMoves(nil)
	counts := map[env.Move]int{}
	r := NewRandom(7)
	const n = 4000
	for i := 0; i < n; i++ {
		m, err := r.Choose(pos)
		if err != nil {
			t.Fatal(err)
		}
		counts[m]++
	}
	if len(counts) != len(legal) {
		t.Fatalf("random played %d distinct moves of %d legal", len(counts), len(legal))
	}
	exp := float64(n) / float64(len(legal))
	for m, c := range counts {
		if float64(c) < exp/3 || float64(c) > exp*3 {
			t.Errorf("move %s played %d times, expected about %.0f", pos.FormatMove(m), c, exp)
		}
	}
	a, b := NewRandom(3), NewRandom(3)
	for i := 0; i < 50; i++ {
		x, _ := a.Choose(pos)
		y, _ := b.Choose(pos)
		if x != y {
			t.Fatal("two random players with one seed disagree")
		}
	}
}

func TestParseAcceptsEverySpecAndRejectsBadOnesClearly(t *testing.T) {
	v := mustVariant(t, "fbgc")
	good := []struct{ spec, name string }{
		{"random", "random"},
		{"greedy", "greedy"},
		{"greedy:F=4.5", "greedy"},
		{"alphabeta:1", "alphabeta:1"},
		{"alphabeta:3:F=4,Q=10", "alphabeta:3"},
	}
	for _, g := range good {
		mk, err := Parse(g.spec, v, Options{})
		if err != nil {
			t.Errorf("%s: %v", g.spec, err)
			continue
		}
		p, err := mk.New(1)
		if err != nil || p.Name() != g.name || mk.Spec != g.spec {
			t.Errorf("%s: player %v (%v), spec %q", g.spec, p, err, mk.Spec)
		}
	}
	bad := []struct{ spec, want string }{
		{"", "unknown player"},
		{"alphabta:2", "unknown player"},
		{"alphabeta", "needs a depth"},
		{"alphabeta:0", "depth \"0\""},
		{"alphabeta:99", "from 1 to 8"},
		{"alphabeta:x", "depth \"x\""},
		{"random:3", "no parameters"},
		{"greedy:F", "LETTER=PAWNS"},
		{"greedy:f=3", "upper-case"},
		{"greedy:F=-1", "from 0 to 1000"},
		{"greedy:F=1,F=2", "twice"},
		{"run/ckpt.safetensors:abc", "playouts \"abc\""},
		{"run/ckpt.safetensors:0", "positive"},
	}
	for _, b := range bad {
		_, err := Parse(b.spec, v, Options{})
		if err == nil || !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%q: error %v, want ErrBadSpec mentioning %q", b.spec, err, b.want)
		}
	}
	if _, err := Parse("run/ckpt.safetensors:200", v, Options{}); err == nil || !strings.Contains(err.Error(), "checkpoint") {
		t.Errorf("a checkpoint without a loader: error %v, want one about checkpoints", err)
	}
	var gotPath string
	var gotSims int
	loader := func(_ *env.Variant, spec agent.Spec) (Maker, error) {
		gotPath, gotSims = spec.Path, spec.Sims
		return Maker{New: func(seed uint64) (Player, error) { return NewRandom(seed), nil }}, nil
	}
	mk, err := Parse("run/ckpt.safetensors:200", v, Options{Models: loader})
	if err != nil || gotPath != "run/ckpt.safetensors" || gotSims != 200 || mk.Spec != "run/ckpt.safetensors:200" {
		t.Errorf("loader got %q %d, spec %q, err %v", gotPath, gotSims, mk.Spec, err)
	}
}

func TestParseNeedsAValueForEveryPieceOfTheVariant(t *testing.T) {
	v := mustVariant(t, "birds-ninjas")
	if _, err := Parse("alphabeta:1", v, Options{}); err != nil {
		t.Fatalf("default values should cover birds-ninjas: %v", err)
	}
	short := agent.DefaultValues()
	delete(short, 'G')
	if _, err := short.Table(v); err == nil || !strings.Contains(err.Error(), "no value for piece G") {
		t.Fatalf("missing G: error %v", err)
	}
}

func TestPlayGameRefusesAnIllegalMove(t *testing.T) {
	v := mustVariant(t, "fbgc")
	_, err := PlayGame(context.Background(), illegal{}, NewRandom(1), v.NewPosition(), 10)
	if err == nil || !strings.Contains(err.Error(), "illegal move") {
		t.Fatalf("error %v, want an illegal-move error", err)
	}
}

type illegal struct{}

func (illegal) Name() string                           { return "illegal" }
func (illegal) Choose(*env.Position) (env.Move, error) { return env.NoMove, nil }
