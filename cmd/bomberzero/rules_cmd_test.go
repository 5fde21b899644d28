package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/datasets/record"
)

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestPerftCommandPrintsOneLinePerDepth(t *testing.T) {
	code, out, errs := runCmd(t, "perft", "--variant", "fbgc", "--depth", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "depth=1 nodes=36 nps=") || !strings.HasPrefix(lines[1], "depth=2 nodes=1296 nps=") {
		t.Fatalf("output %q", out)
	}
	code, out, _ = runCmd(t, "perft", "--variant", "claustrophobia", "--moves", "e2-e4", "--depth", "1", "--divide")
	if code != 0 || !strings.Contains(out, "total ") || !strings.Contains(out, "depth=1 nodes=") {
		t.Fatalf("divide: exit %d, %q", code, out)
	}
	if code, _, errs = runCmd(t, "perft", "--variant", "nosuch", "--depth", "1"); code != 2 || !strings.Contains(errs, "unknown variant") {
		t.Fatalf("unknown variant: exit %d, %q", code, errs)
	}
	if code, _, _ = runCmd(t, "perft", "--depth", "0"); code != 2 {
		t.Fatalf("depth 0: exit %d, want 2", code)
	}
}

func TestReplayCommandNamesTheIllegalMove(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("1. f2-f5 f9-f6 2. e2-e4 e9-e7 *\n"), 0o644)
	code, out, errs := runCmd(t, "replay", "--variant", "fbgc", good)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || lines[len(lines)-1] != "frnbqkbnrf/pppp2pppp/10/4p5/5p4/5P4/4P5/10/PPPP2PPPP/FRNBQKBNRF w KQkq e8 0 3" {
		t.Fatalf("exit %d, out %q, err %q", code, out, errs)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("1. f2-f5 f9-f6\n2. e2-e4 e9-e7\n3. f5-f6\n"), 0o644)
	code, _, errs = runCmd(t, "replay", "--variant", "fbgc", bad)
	if code != 1 || !strings.Contains(errs, "3. f5-f6") || !strings.Contains(errs, "cannot move to f6") {
		t.Fatalf("exit %d, err %q", code, errs)
	}
}

func TestShowDrawsHolesAndHands(t *testing.T) {
	code, out, errs := runCmd(t, "show", "--variant", "birds-ninjas")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "  0          G G        ") || !strings.Contains(out, "in hand: white 4 J, black 4 j") {
		t.Fatalf("show birds-ninjas:\n%s", out)
	}
	code, out, _ = runCmd(t, "variants")
	if code != 0 || !strings.Contains(out, "claustrophobia") || !strings.Contains(out, "insane-knight") {
		t.Fatalf("variants: %q", out)
	}
}

// TestReplayWritesXBoardsPGNAndReadsBothDialectsBack has replay --pgn
// write a record as the PGN XBoard loads (fbgc's ranks numbered from 0,
// declared [Notation "XBoard"]), then replay read that and the project's
// own dialect back to the record's final position, and turn the latter
// into XBoard's.
func TestReplayWritesXBoardsPGNAndReadsBothDialectsBack(t *testing.T) {
	for _, c := range []struct{ variant, moves, want string }{
		{"fbgc", "1. f2-f5 f9-f6 2. e2-e4 e9-e7 *", "1. f1f4 f8f5 2. e1e3 e8e6 *"},
		{"birds-ninjas", "1. e2-e4 e9-e7 2. ~P-e2 *", "1. e3e5 e10e8 2. J@e3 *"}, // ranks from 0 here, from 1 in XBoard,
	} {
		dir := t.TempDir()
		txt := filepath.Join(dir, "g.txt")
		text := "[Event \"x\"]\n[Variant \"" + c.variant + "\"]\n" + c.moves + "\n"
		if err := os.WriteFile(txt, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, pgn, errs := runCmd(t, "replay", "--pgn", txt)
		if code != 0 {
			t.Fatalf("%s: replay --pgn: exit %d: %s", c.variant, code, errs)
		}
		for _, want := range []string{`[Variant "` + c.variant + `"]`, `[SetUp "1"]`, `[FEN "`, `[VariantMen "`, `[Notation "XBoard"]`, c.want} {
			if !strings.Contains(pgn, want) {
				t.Errorf("%s: PGN lacks %q:\n%s", c.variant, want, pgn)
			}
		}
		rec, err := record.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		own, err := rec.PGN(c.variant, "")
		if err != nil {
			t.Fatal(err)
		}
		_, fromTxt, _ := runCmd(t, "replay", txt)
		for name, in := range map[string]string{"XBoard's": pgn, "bomberzero's": own} {
			file := filepath.Join(dir, "g.pgn")
			if err := os.WriteFile(file, []byte(in+"\n"+in), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs := runCmd(t, "replay", file)
			if code != 0 || strings.Count(out, strings.TrimSpace(fromTxt)) != 2 || !strings.Contains(out, fmt.Sprintf("game 2: %d moves", len(rec.Moves))) {
				t.Errorf("%s: replay of two PGN games in %s dialect: exit %d, %q (stderr %q); want the record's final position %q twice", c.variant, name, code, out, errs, fromTxt)
			}
			code, again, errs := runCmd(t, "replay", "--pgn", file)
			if code != 0 || strings.Count(again, c.want) != 2 || strings.Count(again, `[Notation "XBoard"]`) != 2 {
				t.Errorf("%s: replay --pgn of %s dialect: exit %d, %q (stderr %q); want XBoard's moves %q twice", c.variant, name, code, again, errs, c.want)
			}
		}
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "g.pgn")
	for _, c := range []struct{ text, flag, want string }{
		{"[Variant \"fbgc\"]\n1. e2e9 *\n", "", `move 1 "e2e9"`},
		// Legal in both notations, one rank apart: declared or refused.
		{"[Variant \"fbgc\"]\n1. a1a3 *\n", "", `declare which`},
		{"[Variant \"fbgc\"]\n1. a1a3 *\n", "--notation=XBoard", ""},
		{"[Variant \"fbgc\"]\n1. a1a3 *\n", "--notation=bomberzero", ""},
	} {
		if err := os.WriteFile(file, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"replay", file}
		if c.flag != "" {
			args = []string{"replay", c.flag, file}
		}
		code, out, errs := runCmd(t, args...)
		if c.want != "" && (code != 1 || !strings.Contains(errs, c.want)) {
			t.Errorf("replay %s %q: exit %d, %q; want 1 saying %q", c.flag, c.text, code, errs, c.want)
		}
		if c.want == "" && code != 0 {
			t.Errorf("replay %s %q: exit %d, %q", c.flag, c.text, code, errs)
		}
		if c.flag == "--notation=XBoard" && !strings.Contains(out, "/P9/10/1PPPPPPPPP/") {
			t.Errorf("replay %s %q read the move as %q: want the pawn's a2-a4", c.flag, c.text, out)
		}
	}
}
