package match

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/env"
)

func TestParseReadsEngineSpecsAndNamesTheBadPart(t *testing.T) {
	v := mustVariant(t, "fbgc")
	for _, spec := range []string{"engine", "engine:nodes=20000", "engine:depth=6", "engine:movetime=100ms", "engine:nodes=5000:hash=16:threads=1"} {
		mk, err := Parse(spec, v, Options{})
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		p, err := mk.New(1)
		if err != nil || p.Name() != spec || mk.Spec != spec {
			t.Errorf("%s: player %v (%v), spec %q", spec, p, err, mk.Spec)
		}
	}
	bad := []struct{ spec, want string }{
		{"engine:nodes=0", "nodes \"0\""},
		{"engine:depth=x", "depth \"x\""},
		{"engine:movetime=soon", "movetime \"soon\""},
		{"engine:hash=0", "hash \"0\""},
		{"engine:threads=1000", "threads \"1000\""},
		{"engine:speed=9", "unknown key \"speed\""},
		{"engine:nodes", "KEY=VALUE"},
	}
	for _, b := range bad {
		_, err := Parse(b.spec, v, Options{})
		if err == nil || !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), b.want) || !strings.Contains(err.Error(), b.spec) {
			t.Errorf("%q: error %v, want ErrBadSpec naming the spec and %q", b.spec, err, b.want)
		}
	}
}

func TestEnginePlayerIsDeterministicAtANodeLimit(t *testing.T) {
	v := mustVariant(t, "fbgc-superpower")
	mk, err := Parse("engine:nodes=3000", v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var moves [2][]env.Move
	for run := range moves {
		p, _ := mk.New(7)
		pos := v.NewPosition()
		for ply := 0; ply < 6; ply++ {
			m, err := p.Choose(pos)
			if err != nil {
				t.Fatal(err)
			}
			moves[run] = append(moves[run], m)
			pos.DoMove(m)
		}
	}
	if !slices.Equal(moves[0], moves[1]) {
		t.Errorf("same seed and node limit, two games: %v and %v", moves[0], moves[1])
	}
}

// TestEngineBeatsAlphaBetaTwo is a small node-limited match (so its result
// does not depend on the machine's load): 6 games, colours alternating.
// The engine at 1,000 nodes a move (about as much CPU as alphabeta:2's
// full-width depth-2 search with no quiescence) wins them all when this
// was written; the bar is a clear margin, not a sweep.
func TestEngineBeatsAlphaBetaTwo(t *testing.T) {
	v := mustVariant(t, "fbgc")
	eng, err := Parse("engine:nodes=1000:hash=2", v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ab, _ := Parse("alphabeta:2", v, Options{})
	games := 6
	if testing.Short() {
		games = 2
	}
	res, err := Run(context.Background(), Config{A: eng, B: ab, Games: games, Variant: v, MaxPlies: 300, Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("engine:nodes=1000 vs alphabeta:2: %+v, mean %.0f plies, %v", res.Total, res.MeanPlies, res.Reasons)
	if res.Est.Score < 0.75 {
		t.Errorf("engine against alphabeta:2: %+v, want at least 75%% of the points", res.Total)
	}
}

func TestEnginePlayerAnalyzesItsBestMovesBestFirst(t *testing.T) {
	v := mustVariant(t, "chess")
	mk, _ := Parse("engine:depth=4", v, Options{})
	p, _ := mk.New(1)
	a := p.(Analyzer)
	pos, err := v.ParsePosition("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	c, err := a.Analyze(pos, 3)
	if err != nil || len(c) != 3 {
		t.Fatalf("%d candidates, %v; want 3", len(c), err)
	}
	if pos.FormatMove(c[0].Move) != "d1d8" || c[0].Note != "mate in 1" || c[1].Score > c[0].Score || c[2].Score > c[1].Score || c[1].Move == c[0].Move {
		t.Errorf("candidates %v %q, %v, %v: want the mate d1d8 first, then two other moves, best first", pos.FormatMove(c[0].Move), c[0].Note, c[1], c[2])
	}
	// Choose is back to one line.
	if _, err := p.Choose(pos); err != nil || len(p.(*EnginePlayer).Last().Lines) != 1 {
		t.Errorf("after Analyze, Choose searched %d lines", len(p.(*EnginePlayer).Last().Lines))
	}
}

// The echo test (compare.Echo) changes the engine player's piece table and
// nothing else: the table match.Parse builds must reach the engine's
// evaluation, in its trades and in its scores.
func TestEnginePlayersTableReachesItsEvaluation(t *testing.T) {
	v := mustVariant(t, "chess")
	// The rook on d8 attacks the queen on d2; Qxd8+ Kxd8 gives the queen
	// for the rook. At the default table (Q 11, R 6) that loses 5 pawns
	// against moving the queen away; with Q 4 it wins 2.
	trade, err := v.ParsePosition("3rk3/5ppp/8/8/8/7P/3Q1PP1/6K1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	best := func(vals agent.Values) string {
		mk, err := Parse("engine:nodes=3000", v, Options{Values: vals})
		if err != nil {
			t.Fatal(err)
		}
		p, err := mk.New(1)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.Choose(trade)
		if err != nil {
			t.Fatal(err)
		}
		return env.UCI{}.FormatMove(trade, m)
	}
	if m := best(nil); m == "d2d8" {
		t.Errorf("default table (Q 11): engine plays %s, giving the queen for the rook", m)
	}
	if m := best(agent.Values{'Q': 4}); m != "d2d8" {
		t.Errorf("Q 4: engine plays %s, want d2d8, the queen for the rook", m)
	}
	// A quiet position a queen up: the score moves by the table's change
	// (11 - 6 = 5 pawns), give or take the king terms, which the material
	// left blends.
	up, err := v.ParsePosition("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	score := func(vals agent.Values) float64 {
		mk, err := Parse("engine:depth=1", v, Options{Values: vals})
		if err != nil {
			t.Fatal(err)
		}
		p, err := mk.New(1)
		if err != nil {
			t.Fatal(err)
		}
		c, err := p.(*EnginePlayer).Analyze(up, 1)
		if err != nil || len(c) != 1 {
			t.Fatalf("analysis %v (%v)", c, err)
		}
		return c[0].Score
	}
	hi, lo := score(nil), score(agent.Values{'Q': 6})
	t.Logf("trade: %s at the default table, %s with Q 4; queen-up score %.2f with Q 11, %.2f with Q 6", best(nil), best(agent.Values{'Q': 4}), hi, lo)
	if d := hi - lo; d < 4.5 || d > 5.5 {
		t.Errorf("queen-up score %.2f with Q 11, %.2f with Q 6: moved %.2f pawns, want about 5", hi, lo, d)
	}
}
