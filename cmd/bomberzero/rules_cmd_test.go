package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

func TestReplayWritesPGNAndReadsItBack(t *testing.T) {
	dir := t.TempDir()
	txt := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(txt, []byte("[Event \"x\"]\n[Variant \"birds-ninjas\"]\n1. e2-e4 e9-e7 2. ~P-e2 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, pgn, errs := runCmd(t, "replay", "--pgn", txt)
	if code != 0 {
		t.Fatalf("replay --pgn: exit %d: %s", code, errs)
	}
	for _, want := range []string{`[Variant "birds-ninjas"]`, `[SetUp "1"]`, `[FEN "`, `[VariantMen "`, "1. e2e4 e9e7 2. J@e2 *"} {
		if !strings.Contains(pgn, want) {
			t.Errorf("PGN lacks %q:\n%s", want, pgn)
		}
	}
	file := filepath.Join(dir, "g.pgn")
	if err := os.WriteFile(file, []byte(pgn+"\n"+pgn), 0o644); err != nil {
		t.Fatal(err)
	}
	_, fromTxt, _ := runCmd(t, "replay", txt)
	code, out, errs := runCmd(t, "replay", file)
	if code != 0 || strings.Count(out, strings.TrimSpace(fromTxt)) != 2 || !strings.Contains(out, "game 2: 3 moves") {
		t.Errorf("replay of two PGN games: exit %d, %q (stderr %q); want the record's final position %q twice", code, out, errs, fromTxt)
	}
	if err := os.WriteFile(file, []byte("[Variant \"fbgc\"]\n1. e2e9 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCmd(t, "replay", file); code != 1 || !strings.Contains(errs, `move 1 "e2e9"`) {
		t.Errorf("an illegal PGN move: exit %d, %q; want 1 naming it", code, errs)
	}
}
