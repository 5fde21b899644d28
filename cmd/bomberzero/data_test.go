package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/datasets"
	"bomberzero/env"
)

// writeDataDir writes two short games (a White mate and a length-cap draw)
// as one chunk and returns the directory and the chunk's path.
func writeDataDir(t *testing.T) (dir, chunk string) {
	t.Helper()
	dir = t.TempDir()
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "test"})
	if err != nil {
		t.Fatal(err)
	}
	pos := func(ply int) datasets.PositionRecord {
		return datasets.PositionRecord{Ply: ply, Position: "8/8/8/8/8/8/8/K6k w - - 0 1", WhiteToMove: ply%2 == 0,
			PolicyIndex: []int32{3}, MoveText: []string{"a1-a2"}, Visits: []float32{1}, FullSearch: true}
	}
	games := []datasets.GameRecord{
		{ID: "a", Variant: "chess", Model: "none", Result: 1, Termination: env.Checkmate, Length: 3,
			Positions: []datasets.PositionRecord{pos(0), pos(1), pos(2)}},
		{ID: "b", Variant: "chess", Model: "none", Result: 0, Termination: env.LengthCap, Length: 2,
			Positions: []datasets.PositionRecord{pos(0), pos(1)}},
	}
	for i := range games {
		if err := w.AddGame(&games[i]); err != nil {
			t.Fatal(err)
		}
	}
	chunk, err = w.Flush()
	if err != nil {
		t.Fatal(err)
	}
	return dir, chunk
}

func TestDataStatsPrintsTheDirectorysFigures(t *testing.T) {
	dir, _ := writeDataDir(t)
	var out, errOut bytes.Buffer
	if code := run([]string{"data", "stats", dir, "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var s datasets.Stats
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if s.Positions != 5 || s.Games != 2 || s.WhiteWins != 1 || s.Draws != 1 || s.LengthCapDraws != 1 || s.AverageLength != 2.5 {
		t.Errorf("stats %+v; want 5 positions, 2 games, 1 White win, 1 draw by length cap, average 2.5", s)
	}
	out.Reset()
	if code := run([]string{"data", "stats", dir}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "white/draw/black   1 / 1 / 0") {
		t.Errorf("text stats (exit %d):\n%s", code, out.String())
	}
}

func TestDataVerifyExitsOneOnACorruptChunk(t *testing.T) {
	dir, chunk := writeDataDir(t)
	var out, errOut bytes.Buffer
	if code := run([]string{"data", "verify", dir}, &out, &errOut); code != 0 {
		t.Fatalf("verify of a good directory: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	data, _ := os.ReadFile(chunk)
	os.WriteFile(chunk, data[:len(data)-20], 0o644)
	out.Reset()
	if code := run([]string{"data", "verify", dir}, &out, &errOut); code != 1 || !strings.Contains(out.String(), chunk) {
		t.Errorf("verify of a truncated chunk: exit %d, output %q; want 1 and the chunk named", code, out.String())
	}
	if code := run([]string{"data", "stats"}, &out, &errOut); code != 2 {
		t.Errorf("data stats without DIR: exit %d, want 2", code)
	}
}

func TestDataChunksListsChunksOldestFirst(t *testing.T) {
	dir, chunk := writeDataDir(t)
	var out, errOut bytes.Buffer
	if code := run([]string{"data", "chunks", "--json", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var infos []datasets.ChunkInfo
	if err := json.Unmarshal(out.Bytes(), &infos); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if len(infos) != 1 || infos[0].Path != chunk || infos[0].Positions != 5 || infos[0].Games != 2 {
		t.Errorf("chunks %+v; want the one chunk with 5 positions and 2 games", infos)
	}
}

// TestDataStatsDrawsNoProgressBarOffATerminal writes 25 chunks, enough for
// a bar: stats must count them all, and with stdout and stderr not
// terminals (buffers here, log files in a batch job) draw no bar on either.
func TestDataStatsDrawsNoProgressBarOffATerminal(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 25; i++ {
		w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "bar"})
		if err != nil {
			t.Fatal(err)
		}
		g := datasets.GameRecord{ID: datasets.NewGameID(), Variant: "chess", Result: 0, Termination: env.Stalemate, Length: 1,
			Positions: []datasets.PositionRecord{{Position: "x", WhiteToMove: true, PolicyIndex: []int32{0}, MoveText: []string{"a"}, Visits: []float32{1}, FullSearch: true}}}
		if err := w.AddGame(&g); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"data", "stats", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "games              25") || strings.Contains(out.String(), "reading chunks") {
		t.Errorf("stdout:\n%s\nwant 25 games and no progress bar", out.String())
	}
	if strings.Contains(errOut.String(), "reading chunks") {
		t.Errorf("stderr %q: want no progress bar off a terminal", errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"data", "stats", dir, "--quiet"}, &out, &errOut); code != 0 || errOut.Len() != 0 ||
		!strings.Contains(out.String(), "games              25") {
		t.Errorf("--quiet: exit %d, stderr %q, stdout %q; want the figures and an empty stderr", code, errOut.String(), out.String())
	}
}

func TestDataCommandsReadARunDirectorysDataAndRefuseADirectoryWithoutChunks(t *testing.T) {
	data, _ := writeDataDir(t)
	runDir := filepath.Dir(data)
	if err := os.Rename(data, filepath.Join(runDir, "data")); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"stats", "verify", "chunks"} {
		code, out, errs := runCmd(t, "data", sub, runDir)
		if code != 0 || !strings.Contains(errs, filepath.Join(runDir, "data")) || !strings.Contains(out, "2") {
			t.Errorf("data %s RUN: exit %d, stdout %q, stderr %q; want RUN/data read and said", sub, code, out, errs)
		}
		empty := t.TempDir()
		code, out, errs = runCmd(t, "data", sub, empty)
		if code != 1 || out != "" || !strings.Contains(errs, "no training-data chunks in "+empty) || !strings.Contains(errs, "RUN/data") {
			t.Errorf("data %s EMPTY: exit %d, stdout %q, stderr %q; want exit 1 naming the directory and RUN/data", sub, code, out, errs)
		}
		os.Mkdir(filepath.Join(empty, "data"), 0o755)
		code, _, errs = runCmd(t, "data", sub, empty)
		if code != 1 || !strings.Contains(errs, filepath.Join(empty, "data")+" yet") {
			t.Errorf("data %s on a run without chunks yet: exit %d, stderr %q", sub, code, errs)
		}
	}
}

func TestDataAdjudicationAppliesTheRuleAtAPly(t *testing.T) {
	// One game, a White queen up at ply 2 with White to move, that White
	// went on to win: adjudication at ply 2 is confirmed.
	dir := t.TempDir()
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "test"})
	if err != nil {
		t.Fatal(err)
	}
	pos := func(ply int) datasets.PositionRecord {
		return datasets.PositionRecord{Ply: ply, Position: "8/8/8/8/8/8/8/KQ5k w - - 0 1", WhiteToMove: ply%2 == 0,
			PolicyIndex: []int32{3}, MoveText: []string{"a1-a2"}, Visits: []float32{1}, FullSearch: true,
			Pieces: []datasets.PieceCount{{Piece: "Q", White: 1}}}
	}
	g := datasets.GameRecord{ID: "a", Variant: "chess", Model: "none", Result: 1, Termination: env.Checkmate, Length: 4,
		Positions: []datasets.PositionRecord{pos(0), pos(1), pos(2), pos(3)}}
	if err := w.AddGame(&g); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"data", "adjudication", dir, "--at", "2", "--json"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var c struct{ Reached, Adjudicated, Confirmed int }
	if err := json.Unmarshal(out.Bytes(), &c); err != nil || c.Reached != 1 || c.Adjudicated != 1 || c.Confirmed != 1 {
		t.Fatalf("adjudication at ply 2: %+v (%v), want the one game reached, adjudicated and confirmed:\n%s", c, err, out.String())
	}
	// --at is required and a margin must be positive, named in the error.
	for _, args := range [][]string{{"data", "adjudication", dir}, {"data", "adjudication", dir, "--at", "2", "--margin", "0"}} {
		errOut.Reset()
		if code := run(args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "--") {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming the flag", args, code, errOut.String())
		}
	}
}
