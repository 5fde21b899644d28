//go:build linux

// Package xboardtest has Debian's XBoard 4.9 load a PGN file in tests, on a
// virtual display (xvfb-run), and checks from its debug log that it read
// every move as written: the one real-XBoard check of the PGN files the
// xboard package, the web app and "bomberzero replay" write.
package xboardtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Programs returns the paths of xboard and xvfb-run, skipping t without
// either (apt-get install xboard xvfb xauth) and under -short.
func Programs(t testing.TB) (xboard, xvfb string) {
	t.Helper()
	xb, err := exec.LookPath("xboard")
	if err != nil {
		if xb, err = exec.LookPath("/usr/games/xboard"); err != nil {
			t.Skip("no xboard (apt-get install xboard xvfb xauth)")
		}
	}
	xvfb, err = exec.LookPath("xvfb-run")
	if err != nil {
		t.Skip("no xvfb-run (apt-get install xvfb xauth)")
	}
	if testing.Short() {
		t.Skip("-short")
	}
	return xb, xvfb
}

// StartGroup starts cmd (XBoard under xvfb-run) in a process group of its
// own, failing t if it cannot start, and returns the function that stops
// it: SIGTERM to the whole group (XBoard stays up after a game or match,
// and its display and engines are in the group), then a bounded wait of
// 10 s for every process of it, so that none is still writing into a test's
// temporary folder when its cleanup removes it.
func StartGroup(t testing.TB, cmd *exec.Cmd) (stop func()) {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
		for end := time.Now().Add(10 * time.Second); syscall.Kill(-cmd.Process.Pid, 0) == nil && time.Now().Before(end); {
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// LoadPGN has XBoard load (-lgf) the PGN text of one game of an
// engine-defined variant, on the board setup, the "setup (...) WxH+N_PARENT
// FEN" line the engine sends (given on XBoard's command line, as no engine
// runs to send it), with legality testing off: XBoard's own move generator
// does not know every move of the family, so a move it calls illegal is
// played and counted. The debug log must show the [VariantMen] tag read,
// no bad FEN, no impossible, ambiguous or ignored move, and every move of
// written parsed in order ("Parsed TEXT into MOVE"). Skipped as Programs
// says.
func LoadPGN(t testing.TB, setup, text string, written []string) {
	t.Helper()
	xb, xvfb := Programs(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "game.pgn")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^setup \((\S+)\) (\d+)x(\d+)\+(\d+)_(\w+) `).FindStringSubmatch(setup)
	if m == nil {
		t.Fatalf("setup line %q: want setup (PIECES) WxH+N_PARENT FEN", setup)
	}
	debug := filepath.Join(dir, "debug.txt")
	cmd := exec.Command(xvfb, "-a", xb, "-ncp", "-variant", m[5], "-boardWidth", m[2], "-boardHeight", m[3],
		"-holdingsSize", m[4], "-pieceToCharTable", m[1], "-testLegality", "false", "-saveSettingsOnExit", "false",
		"-lgf", file, "-lgi", "1", "-debug", "-nameOfDebugFile", debug)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	// XBoard stays up with the game loaded: StartGroup stops it.
	stop := StartGroup(t, cmd)
	defer stop()
	var log string
	for deadline := time.Now().Add(time.Minute); ; {
		b, _ := os.ReadFile(debug)
		if log = string(b); strings.Contains(log, "LoadGame(): on exit") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("XBoard did not finish loading the game in a minute; its log:\n%s", log)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, bad := range []string{"Bad FEN", "Parsed IllegalMove:", "ImpossibleMove", "AmbiguousMove", "Parser ignoring"} {
		if i := strings.Index(log, bad); i >= 0 {
			t.Errorf("XBoard's log says %q: %s", bad, log[i:min(i+200, len(log))])
		}
	}
	if !strings.Contains(log, "Parsed PGNTag: [VariantMen ") {
		t.Errorf("XBoard did not read the [VariantMen] tag")
	}
	parsed := regexp.MustCompile(`(?m)^Parsed (\S+) into (IllegalMove )?(\S+)`).FindAllStringSubmatch(log, -1)
	if len(parsed) != len(written) {
		t.Fatalf("XBoard parsed %d moves, the PGN has %d:\n%s", len(parsed), len(written), text)
	}
	illegal := 0
	for i, p := range parsed {
		if p[1] != written[i] {
			t.Errorf("move %d: XBoard parsed %q, the PGN says %q", i+1, p[1], written[i])
		}
		if p[2] != "" {
			illegal++
		}
	}
	t.Logf("XBoard parsed all %d moves (%d of them illegal by its own move generator, played with legality testing off)", len(parsed), illegal)
}
