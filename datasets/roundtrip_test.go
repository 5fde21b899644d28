package datasets

import (
	"bomberzero/env"
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestWrittenGamesReadBackEqual(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := synthGames(rng, "g", 40)
	dir := t.TempDir()
	path := writeChunk(t, dir, "worker-1", games)
	c, err := ReadChunk(path)
	if err != nil {
		t.Fatal(err)
	}
	got := Games(c.Rows)
	if len(got) != len(games) {
		t.Fatalf("read %d games, wrote %d", len(got), len(games))
	}
	positions, full := 0, 0
	for i := range games {
		g, w := got[i], *games[i]
		g.Positions, w.Positions = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("game %d differs after the round trip:\nwrote %+v\nread  %+v", i, w, g)
		}
		if len(got[i].Positions) != len(games[i].Positions) {
			t.Fatalf("game %d: read %d positions, wrote %d", i, len(got[i].Positions), len(games[i].Positions))
		}
		for j := range games[i].Positions {
			if !reflect.DeepEqual(got[i].Positions[j], games[i].Positions[j]) {
				t.Fatalf("game %d position %d differs after the round trip:\nwrote %+v\nread  %+v", i, j, games[i].Positions[j], got[i].Positions[j])
			}
		}
		for _, p := range games[i].Positions {
			positions++
			if p.FullSearch {
				full++
			}
		}
	}
	if c.Info.Positions != positions || c.Info.FullPositions != full || c.Info.Games != len(games) {
		t.Errorf("info counts %d/%d/%d, want %d/%d/%d", c.Info.Positions, c.Info.FullPositions, c.Info.Games, positions, full, len(games))
	}
	if c.Info.Version != FormatVersion || c.Info.Writer != "worker-1" || c.Info.Sequence != 0 {
		t.Errorf("info %+v: want version %d, writer worker-1, sequence 0", c.Info, FormatVersion)
	}
}

func TestDerivedColumnsFollowTheRecord(t *testing.T) {
	g := synthGame(rand.New(rand.NewPCG(3, 4)), "x")
	g.Termination, g.Result, g.ResignDisabled, g.WouldResign = env.Checkmate, -1, true, White
	rows := appendRows(nil, g)
	for _, r := range rows {
		want := int8(-1)
		if !r.WhiteToMove {
			want = 1
		}
		if r.ResultSTM != want {
			t.Errorf("ply %d: result_stm %d, want %d", r.Ply, r.ResultSTM, want)
		}
		if r.FalseResign {
			t.Errorf("ply %d: White would have resigned and lost: false_resign must be false", r.Ply)
		}
	}
	g.Result = 1
	if fr, ok := g.FalseResignation(); !fr || !ok {
		t.Errorf("White would have resigned and won: FalseResignation = %v, %v; want true, true", fr, ok)
	}
	g.Termination, g.Result = env.Repetition, 0
	if fr, ok := g.FalseResignation(); !fr || !ok {
		t.Errorf("White would have resigned and drew: FalseResignation = %v, %v; want true, true", fr, ok)
	}
	g.ResignDisabled, g.WouldResign = false, ""
	if _, ok := g.FalseResignation(); ok {
		t.Errorf("resignation enabled: FalseResignation must say not measured")
	}
}
