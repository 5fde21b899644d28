package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/datasets/record"
)

func TestMatchAndPlaySaveGamesThatReplayReads(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	start := "k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1"
	if code := run([]string{"match", "--a", "alphabeta:1", "--b", "random", "--games", "3", "--max-plies", "40", "--fen", start, "--games-dir", dir}, &out, &errb); code != 0 {
		t.Fatalf("match: exit %d: %s", code, errb.String())
	}
	if err := playWith(strings.NewReader("e1-e10\n"), []string{"--fen", playMateIn1, "--model", "random", "--games-dir", dir}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) != 4 {
		t.Fatalf("saved %d games (%v), want 3 match games and 1 played", len(files), files)
	}
	plays := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := record.Parse(string(text))
		if err != nil {
			t.Fatal(err)
		}
		for _, tag := range []string{"Variant", "White", "Black", "Result", "Termination", "FEN"} {
			if g.Get(tag) == "" {
				t.Errorf("%s: no %s tag:\n%s", f, tag, text)
			}
		}
		if g.Get("White") == "human" {
			plays++
			if g.Get("Result") != "1-0" || g.Get("Termination") != "checkmate" {
				t.Errorf("%s: the played mate is recorded as %s %s", f, g.Get("Result"), g.Get("Termination"))
			}
		}
		// replay, with no flags, starts from the record's own tags and
		// reaches the result it records.
		var rout, rerr bytes.Buffer
		if code := run([]string{"replay", f}, &rout, &rerr); code != 0 {
			t.Fatalf("replay %s: exit %d: %s\n%s", f, code, rerr.String(), text)
		}
		if res := g.Get("Result"); res != "1/2-1/2" && !strings.Contains(rout.String(), "result "+res) {
			t.Errorf("replay %s says %q, the record %s", f, rout.String(), res)
		}
	}
	if plays != 1 {
		t.Errorf("%d played games saved, want 1", plays)
	}
}
