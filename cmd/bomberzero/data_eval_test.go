package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/nn"
)

// writeChessCheckpoint saves a small untrained chess network seeded by seed.
func writeChessCheckpoint(t *testing.T, dir string, seed uint64) string {
	t.Helper()
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	s := agent.NewRules(v, 0).Shape()
	net, err := nn.New(nn.TestConfig(s.Channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width)), seed)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := nn.NewTrainer(net, nn.DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "net.safetensors")
	if err := tr.Save(path, "chess"); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeLegalChessData writes two chess games of 3 and 2 plies from the
// start, whose policy targets are legal moves, as one chunk.
func writeLegalChessData(t *testing.T) string {
	t.Helper()
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	rules := agent.NewRules(v, 0)
	dir := t.TempDir()
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for gi, n := range []int{3, 2} {
		g := rules.NewGame(nil)
		rec := datasets.GameRecord{ID: fmt.Sprint("g", gi), Variant: "chess", Model: "none", Result: 1 - 2*gi, Termination: env.Checkmate, Length: n}
		for ply := range n {
			moves := g.LegalMoves(nil)
			k := (ply + gi) % len(moves)
			rec.Positions = append(rec.Positions, datasets.PositionRecord{Ply: ply, Position: g.Position().String(), WhiteToMove: ply%2 == 0,
				PolicyIndex: []int32{int32(moves[k]), int32(moves[k+1])}, MoveText: []string{"x", "y"}, Visits: []float32{0.75, 0.25}, FullSearch: true})
			g.Play(moves[k])
		}
		if err := w.AddGame(&rec); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDataEvalMeasuresModelsOnTheSamePositions(t *testing.T) {
	dir := writeLegalChessData(t) // two chess games, 5 full-search positions
	a := writeChessCheckpoint(t, t.TempDir(), 1)
	b := writeChessCheckpoint(t, t.TempDir(), 2)
	evalJSON := func(args ...string) HeldOutReport {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := run(append([]string{"data", "eval", "--json", "--quiet"}, args...), &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		var rep HeldOutReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out.String())
		}
		return rep
	}
	rep := evalJSON("--model", a+","+a+","+b, dir)
	if rep.Games != 2 || rep.Positions != 5 || rep.Variant != "chess" || len(rep.Models) != 3 || len(rep.Differences) != 2 {
		t.Fatalf("report %+v; want 2 games, 5 positions, 3 models, 2 differences", rep)
	}
	// A model against itself differs by exactly nothing; another network
	// by something.
	same, other := rep.Differences[0], rep.Differences[1]
	for i, e := range []struct{ same, other float64 }{
		{same.Accuracy.Width() + abs(same.Accuracy.Point), 0},
		{same.PolicyLoss.Width() + abs(same.PolicyLoss.Point), abs(other.PolicyLoss.Point)},
		{same.ValueLoss.Width() + abs(same.ValueLoss.Point), abs(other.ValueLoss.Point)},
	} {
		if e.same != 0 {
			t.Errorf("figure %d: a model against itself differs: %+v", i, same)
		}
		if i > 0 && e.other == 0 {
			t.Errorf("figure %d: two different networks measure the same: %+v", i, other)
		}
	}
	if m := rep.Models[0]; m.Accuracy.Point < 0 || m.Accuracy.Point > 1 || m.PolicyLoss.Point <= 0 || m.ValueError.Point < 0 || m.ValueError.Point > 4 {
		t.Errorf("figures out of range: %+v", m)
	}
	if got := evalJSON("--model", a, "--per-game", "1", dir); got.Positions != 2 || got.Games != 2 {
		t.Errorf("--per-game 1: %d positions of %d games, want 2 of 2", got.Positions, got.Games)
	}
	if got := evalJSON("--model", a, "--games", "1", dir); got.Games != 1 || got.Positions != 3 {
		t.Errorf("--games 1: %d positions of %d games, want the first game's 3", got.Positions, got.Games)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"data", "eval", "--quiet", "--model", a + "," + b, dir}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "policy loss") || !strings.Contains(out.String(), " − ") {
		t.Errorf("text report (exit %d):\n%s%s", code, out.String(), errOut.String())
	}
}

func TestDataEvalRefusesBadInputWithClearMessages(t *testing.T) {
	dir, _ := writeDataDir(t)
	a := writeChessCheckpoint(t, t.TempDir(), 1)
	broken := filepath.Join(t.TempDir(), "broken.safetensors")
	if err := os.WriteFile(broken, []byte("not a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no model", []string{dir}, "--model"},
		{"no directory", []string{"--model", a}, "usage"},
		{"bad per-game", []string{"--model", a, "--per-game", "0", dir}, "--per-game 0"},
		{"empty path in the list", []string{"--model", a + ",", dir}, "empty checkpoint path"},
		{"broken checkpoint", []string{"--model", broken, dir}, "broken.safetensors"},
		{"models of two variants", []string{"--model", a + ",../../models/fbgc.safetensors", dir}, "one variant"},
		{"data of another variant", []string{"--model", "../../models/fbgc.safetensors", dir}, "no full-search position of variant fbgc"},
		{"no chunks", []string{"--model", a, t.TempDir()}, "no training-data chunks"},
	} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"data", "eval", "--quiet"}, c.args...), &out, &errOut)
		if code == 0 || !strings.Contains(errOut.String(), c.want) || strings.Contains(errOut.String(), "goroutine") {
			t.Errorf("%s: exit %d, stderr %q; want a failure naming %q", c.name, code, errOut.String(), c.want)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
