package selfplay_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"bomberzero/datasets"
	"bomberzero/selfplay"
)

// gameTexts maps each game of a run directory by its ID to its record and
// its training rows, byte for byte as written.
func gameTexts(t *testing.T, dir string) map[string]string {
	t.Helper()
	chunks, problems, err := datasets.List(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("listing %s: %v %v", dir, err, problems)
	}
	out := map[string]string{}
	for _, info := range chunks {
		ch, err := datasets.ReadChunk(info.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range ch.Rows {
			line, err := json.Marshal(row)
			if err != nil {
				t.Fatal(err)
			}
			out[row.GameID] += string(line) + "\n"
		}
	}
	for id := range out {
		rec, err := os.ReadFile(filepath.Join(dir, "records", id+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		out[id] += string(rec)
	}
	return out
}

// TestGamesDependOnTheirNumberAlone is issue 34's "a resumed run's games
// are bit-identical to an uninterrupted run's" for self-play: the games of
// one seed are the same, record and rows byte for byte, on one worker of
// three slots, on two workers of two slots, and split into two runs the
// way a resume splits them (the second run leaving out the game numbers
// the first one finished, which need not be the lowest).
func TestGamesDependOnTheirNumberAlone(t *testing.T) {
	ctx := context.Background()
	const games = 6
	run := func(workers, slots, first int, skip map[int]bool, n int, out string) {
		t.Helper()
		cfg := selfPlayRun(t, "", n)
		cfg.Workers, cfg.Slots, cfg.FlushGames, cfg.Out = workers, slots, 1, out
		cfg.FirstGame, cfg.SkipGames = first, skip
		if _, err := selfplay.Run(ctx, cfg, nil); err != nil {
			t.Fatal(err)
		}
	}
	one := t.TempDir()
	run(1, 3, 0, nil, games, one)
	want := gameTexts(t, one)
	if len(want) != games {
		t.Fatalf("%d games written, want %d", len(want), games)
	}
	for id := range want {
		found := false
		for k := range games {
			found = found || selfplay.GameID(7, k) == id
		}
		if !found {
			t.Errorf("game %s is none of GameID(7, 0..%d)", id, games-1)
		}
	}

	two := t.TempDir()
	run(2, 2, 0, nil, games, two)
	split := t.TempDir()
	run(1, 2, 0, map[int]bool{1: true}, 3, split)                   // games 0, 2, 3, as a killed run may leave them
	run(2, 1, 0, map[int]bool{0: true, 2: true, 3: true}, 3, split) // the resume: 1, 4, 5
	for name, dir := range map[string]string{"two workers": two, "split in two runs": split} {
		got := gameTexts(t, dir)
		if len(got) != len(want) {
			t.Errorf("%s: %d games, want %d", name, len(got), len(want))
		}
		for id, text := range want {
			if got[id] != text {
				t.Errorf("%s: game %s differs from the one-worker run's (%d bytes, want %d)", name, id, len(got[id]), len(text))
			}
		}
	}
}
