package frontend

import (
	"context"
	"testing"

	"bomberzero/engine"
	"bomberzero/env"
)

func TestEngineSearchReadsTheMultiPVLinesWithTheirScores(t *testing.T) {
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition("k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEngine(v, engine.Spec{HashMB: 4, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := EngineSearch(context.Background(), p, e, engine.Limits{Depth: 4}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Best != "e1-e10" || rep.Value != 1 || !rep.Proven || rep.Score != "mate 1" || rep.Depth != 4 || rep.Nodes <= 0 {
		t.Errorf("report %+v, want the mate e1-e10 at depth 4, value 1, proven, mate 1", rep)
	}
	if len(rep.PV) == 0 || rep.PV[0] != rep.Best {
		t.Errorf("pv %v does not start with %s", rep.PV, rep.Best)
	}
	if len(rep.Top) != 3 {
		t.Fatalf("%d lines, want 3: %+v", len(rep.Top), rep.Top)
	}
	seen := map[string]bool{}
	for i, m := range rep.Top {
		if seen[m.Move] || len(m.PV) == 0 || m.PV[0] != m.Move || m.Q == nil || m.Score == "" {
			t.Errorf("line %d %+v: want a new first move starting its pv, with a value and score", i, m)
		}
		seen[m.Move] = true
		if (m.Centipawns == nil) != m.Proven {
			t.Errorf("line %d %+v: centipawns for a mate or none for a score", i, m)
		}
	}
	if rep.Top[0].Move != "e1-e10" || rep.Top[0].Score != "mate 1" || *rep.Top[1].Q > *rep.Top[0].Q {
		t.Errorf("lines %+v, want the mate first and the best first", rep.Top)
	}
	mated, err := env.PlayMoves(p, "e1-e10")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := EngineSearch(context.Background(), mated, e, engine.Limits{Depth: 1}, 1); err == nil {
		t.Error("a mated position was searched")
	}
}

func TestScoreValueInvertsCentipawnsAndReadsMates(t *testing.T) {
	for _, c := range []struct {
		score int32
		want  float64
	}{
		{0, 0}, {engine.Mate - 1, 1}, {-engine.Mate + 2, -1}, {engine.MateBound, 1},
	} {
		if got := ScoreValue(c.score); got != c.want {
			t.Errorf("ScoreValue(%d) = %v, want %v", c.score, got, c.want)
		}
	}
	for _, cp := range []int32{-2000, -300, -35, 1, 35, 300, 2000} {
		v := ScoreValue(cp)
		if v <= -1 || v >= 1 || (v > 0) != (cp > 0) {
			t.Errorf("ScoreValue(%d) = %v, want inside (-1, 1) with the score's sign", cp, v)
		}
		if back := Centipawns(v); back != int(cp) {
			t.Errorf("Centipawns(ScoreValue(%d)) = %d", cp, back)
		}
	}
}
