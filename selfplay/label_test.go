package selfplay

import (
	"context"
	"math"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/engine"
	"bomberzero/env"
)

// TestLabelsAreTheEnginesScoresOfFullSearches replays every game of a
// labelled run and scores each position again with a fresh engine at the
// same nodes: a full search's value column must be that score's value
// exactly, and a cheap search's the search's own value (not a label: with
// a random-playout model it differs from the engine's in nearly every
// position, which the test counts).
func TestLabelsAreTheEnginesScoresOfFullSearches(t *testing.T) {
	const nodes = 300
	cfg := smallConfig(t, "fbgc", 6)
	cfg.ResignMoves = 0
	cfg.LabelNodes, cfg.LabelScale = nodes, 0.1
	r := mustRules(t, "fbgc", cfg.MaxPlies)
	sum, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	games := checkRun(t, r, cfg, sum)
	v := r.Variant
	table, err := agent.DefaultValues().Table(v)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(v, engine.Options{HashMB: LabelHashMB, Threads: 1, Table: table})
	if err != nil {
		t.Fatal(err)
	}
	full, cheap, cheapDiffer := 0, 0, 0
	for _, g := range games {
		pos := v.NewPosition()
		for _, pr := range g.Positions {
			if pos.String() != pr.Position {
				t.Fatalf("game %s ply %d: replayed %s, recorded %s", g.ID, pr.Ply, pos, pr.Position)
			}
			eng.Clear()
			res, err := EngineSearch(context.Background(), eng, pos, nodes)
			if err != nil {
				t.Fatal(err)
			}
			label := ScoreValue(res.Score, 0.1, engine.MateBound)
			if pr.FullSearch {
				full++
				if pr.Value != label {
					t.Fatalf("game %s ply %d: full search's value %v, the engine's label %v (score %d)", g.ID, pr.Ply, pr.Value, label, res.Score)
				}
			} else {
				cheap++
				if pr.Value != label {
					cheapDiffer++
				}
			}
			m, err := pos.ParseMove(pr.Played)
			if err != nil {
				t.Fatalf("game %s ply %d: %v", g.ID, pr.Ply, err)
			}
			pos.DoMove(m)
		}
	}
	t.Logf("%d full searches labelled, %d cheap (%d differ from a label)", full, cheap, cheapDiffer)
	if full < 20 || cheap < 20 || cheapDiffer < cheap/2 {
		t.Fatalf("%d full searches, %d cheap of which %d differ from a label: want 20 or more of each, most cheap ones not labelled", full, cheap, cheapDiffer)
	}
}

func TestScoreValueIsTanhOfPawnsAndOneForAMate(t *testing.T) {
	for _, c := range []struct {
		score int32
		want  float64
	}{
		{0, 0},
		{100, math.Tanh(0.1)},
		{-250, math.Tanh(-0.25)},
		{engine.MateBound, 1},
		{-engine.MateBound - 3, -1},
	} {
		if got := ScoreValue(c.score, 0.1, engine.MateBound); math.Abs(float64(got)-c.want) > 1e-6 {
			t.Errorf("ScoreValue(%d) = %v, want %v", c.score, got, c.want)
		}
	}
}

func TestLabelSettingsOutOfRangeAreRefusedByKey(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Settings)
		want string
	}{
		{"negative nodes", func(s *Settings) { s.LabelNodes = -1 }, "label_nodes = -1"},
		{"too many nodes", func(s *Settings) { s.LabelNodes = MaxLabelNodes + 1 }, "label_nodes = 10000001"},
		{"no scale", func(s *Settings) { s.LabelNodes, s.LabelScale = 100, 0 }, "label_scale = 0"},
		{"mix above 1", func(s *Settings) { s.LabelMix = 1.5 }, "label_mix = 1.5"},
		{"NaN scale", func(s *Settings) { s.LabelScale = math.NaN() }, "label_scale = NaN"},
	} {
		s, err := DefaultSettings()
		if err != nil {
			t.Fatal(err)
		}
		c.edit(&s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
}

// A forced mate the label search finds is labelled ±1 for the side to
// move.
func TestALabelOfAMateIsOne(t *testing.T) {
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	s, err := DefaultSettings()
	if err != nil {
		t.Fatal(err)
	}
	s.LabelNodes = 2000
	l, err := newLabeller(&s, v)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fen  string
		want float32
	}{
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1},  // Ra8 mates
		{"4r3/8/8/8/8/7p/P4k1P/7K b - - 0 1", 1},  // Re1 mates
		{"4r3/8/8/8/8/7p/P4k1P/7K w - - 0 1", -1}, // a3 or a4, then Re1 mates
	} {
		p, err := v.ParsePosition(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		got, err := l.value(p)
		if err != nil || got != c.want {
			t.Errorf("%s: label %v (%v), want %v", c.fen, got, err, c.want)
		}
	}
}
