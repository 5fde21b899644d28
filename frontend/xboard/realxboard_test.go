//go:build linux

package xboard

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"bomberzero/env"
	"bomberzero/frontend/web"
)

// engineEnv makes the test binary the engine: XBoard starts it with this
// variable set (TestMain).
const engineEnv = "BOMBERZERO_XBOARD_TEST_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(engineEnv) == "1" {
		if err := Run(context.Background(), os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestAgainstDebiansXBoard runs Debian's XBoard 4.9 on a virtual display
// (xvfb-run) for one engine-against-engine game per variant, bomberzero on
// both sides: XBoard must take the engine-defined variant, pass every move
// from one engine to the other without a refusal, and end on the board the
// moves make by bomberzero's rules (its saved final position is the one
// after the last move, or before it when XBoard adjudicated the game). It
// is skipped without xboard and xvfb-run (apt-get install xboard xvfb
// xauth) and with -short.
func TestAgainstDebiansXBoard(t *testing.T) {
	xb, err := exec.LookPath("xboard")
	if err != nil {
		if xb, err = exec.LookPath("/usr/games/xboard"); err != nil {
			t.Skip("no xboard (apt-get install xboard xvfb xauth)")
		}
	}
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		t.Skip("no xvfb-run (apt-get install xvfb xauth)")
	}
	if testing.Short() {
		t.Skip("-short")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ variant, options string }{
		{"fbgc", ""}, {"birds-ninjas", ""},
		// The alpha-beta engine on both sides, with XBoard's memory and cores.
		{"fbgc", "Model=engine"},
	} {
		variant := c.variant
		name := variant
		if c.options != "" {
			name += "," + c.options
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			debug := filepath.Join(dir, "debug.txt")
			final := filepath.Join(dir, "final.fen")
			cmd := exec.Command(xvfb, "-a", xb, "-fcp", self, "-scp", self, "-fd", dir, "-sd", dir,
				"-variant", variant, "-matchGames", "1", "-testLegality", "false", "-animateMoving", "false",
				"-mps", "40", "-tc", "0:10", "-adjudicateDrawMoves", "40", "-saveSettingsOnExit", "false",
				"-savePositionFile", final, "-debug", "-nameOfDebugFile", debug)
			if c.options != "" {
				cmd.Args = append(cmd.Args, "-firstOptions", c.options, "-secondOptions", c.options)
			}
			cmd.Env = append(os.Environ(), engineEnv+"=1", "HOME="+dir)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// XBoard stays up after the match: stop it (and its display and
			// engines, its process group) once the position is saved.
			defer func() {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
				cmd.Wait()
				// Wait returns when xvfb-run does; the engines of the group
				// may still be writing into dir, which t.TempDir's cleanup
				// then cannot remove. Wait (boundedly) for the whole group.
				for end := time.Now().Add(10 * time.Second); syscall.Kill(-cmd.Process.Pid, 0) == nil && time.Now().Before(end); {
					time.Sleep(50 * time.Millisecond)
				}
			}()
			deadline := time.Now().Add(3 * time.Minute)
			for {
				if b, err := os.ReadFile(final); err == nil && strings.Contains(string(b), "\n") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no game saved in 3 minutes")
				}
				time.Sleep(500 * time.Millisecond)
			}
			saved, _ := os.ReadFile(final)
			moves, complaints := readDebug(t, debug)
			if c.options != "" {
				// XBoard set the option and, for the features memory and smp,
				// the engine's table and threads, and nothing was refused
				// (complaints).
				log, _ := os.ReadFile(debug)
				for _, sent := range []string{">first : option " + c.options, ">first : memory ", ">first : cores "} {
					if !strings.Contains(string(log), sent) {
						t.Errorf("XBoard did not send %q", sent)
					}
				}
			}
			for _, c := range complaints {
				t.Errorf("%s", c)
			}
			v := load(t, variant)
			p := v.NewPosition()
			var before *env.Position
			for i, text := range moves {
				m, err := ParseMove(p, text)
				if err != nil {
					t.Fatalf("move %d %s: %v", i+1, text, err)
				}
				before = p.Clone()
				p.DoMove(m)
			}
			if len(moves) < 10 || before == nil {
				t.Fatalf("%d moves played, want a game", len(moves))
			}
			got, err := parsePosition(v, strings.TrimSpace(string(saved)))
			if err != nil {
				t.Fatalf("XBoard's final position %q: %v", saved, err)
			}
			board := func(p *env.Position) string {
				return strings.Fields(p.String())[0] + " " + strings.Fields(p.String())[1]
			}
			if board(got) != board(p) && board(got) != board(before) {
				t.Errorf("after %d moves XBoard shows %s; bomberzero's rules give %s (or %s before the last move)",
					len(moves), board(got), board(p), board(before))
			}
			t.Logf("%s: %d moves, XBoard's final position %s", variant, len(moves), strings.TrimSpace(string(saved)))
		})
	}
}

// readDebug reads XBoard's debug log: the engines' moves in order, and
// every line that shows a move or command refused.
func readDebug(t *testing.T, path string) (moves, complaints []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	move := regexp.MustCompile(`<(first |second): move (\S+)$`)
	bad := regexp.MustCompile(`Illegal move|Error \(|telluser|Forfeit|NON-COMPLIANT|Bad FEN`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if m := move.FindStringSubmatch(l); m != nil {
			moves = append(moves, m[2])
		}
		if bad.MatchString(l) {
			complaints = append(complaints, l)
		}
	}
	return moves, complaints
}

// TestDebiansXBoardLoadsAnExportedPGN has Debian's XBoard 4.9 load (-lgf)
// the PGN of a random fbgc game with a variation, as PGN writes it and as
// the web app exports it (POST /api/pgn, with serve's dialect, PGNDialect):
// XBoard must read the [FEN] (on the board the engine's "setup" line
// describes, given on its command line, as no engine runs to send it),
// take the [VariantMen] tag, and parse every main-line move as the move
// written, its debug log says ("Parsed TEXT into MOVE"). XBoard's own
// move generator does not know every move of the family (docs/xboard.md),
// so a move it calls illegal is played, with legality testing off, and
// logged. The canonical PGN (record.Game.PGN) fails here: XBoard numbers
// a 10-rank board's ranks from 0. Skipped without xboard and xvfb-run, and
// with -short.
func TestDebiansXBoardLoadsAnExportedPGN(t *testing.T) {
	xb, err := exec.LookPath("xboard")
	if err != nil {
		if xb, err = exec.LookPath("/usr/games/xboard"); err != nil {
			t.Skip("no xboard (apt-get install xboard xvfb xauth)")
		}
	}
	xvfb, err := exec.LookPath("xvfb-run")
	if err != nil {
		t.Skip("no xvfb-run (apt-get install xvfb xauth)")
	}
	if testing.Short() {
		t.Skip("-short")
	}
	// birds-ninjas is left out: XBoard 4.9 parses a drop of its game
	// ("J@j3", move 20 of seed 7) as an impossible move when it loads the
	// file, though it follows the same drop from an engine.
	v := load(t, "fbgc")
	g, written := randomRecord(t, v, 60, 7)
	t.Run("record", func(t *testing.T) {
		text, err := PGN(&g, "fbgc")
		if err != nil {
			t.Fatal(err)
		}
		xboardLoads(t, xvfb, xb, v, text, written)
	})
	t.Run("web app", func(t *testing.T) {
		srv := httptest.NewServer(web.New(context.Background(), web.Config{PGN: PGNDialect}))
		defer srv.Close()
		body, err := json.Marshal(map[string]any{"variant": "fbgc", "moves": g.Moves, "variations": g.Variations})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Post(srv.URL+"/api/pgn", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct{ PGN, Error string }
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("POST /api/pgn: %d %v %q", resp.StatusCode, err, out.Error)
		}
		xboardLoads(t, xvfb, xb, v, out.PGN, written)
	})
}

// xboardLoads has XBoard load the PGN text of a game of v and checks its
// debug log parsed every move of written, in order.
func xboardLoads(t *testing.T, xvfb, xb string, v *env.Variant, text string, written []string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "game.pgn")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, err := Setup(v)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^setup \((\S+)\) (\d+)x(\d+)\+(\d+)_(\w+) `).FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("setup line %q", lines[0])
	}
	debug := filepath.Join(dir, "debug.txt")
	cmd := exec.Command(xvfb, "-a", xb, "-ncp", "-variant", m[5], "-boardWidth", m[2], "-boardHeight", m[3],
		"-holdingsSize", m[4], "-pieceToCharTable", m[1], "-testLegality", "false", "-saveSettingsOnExit", "false",
		"-lgf", file, "-lgi", "1", "-debug", "-nameOfDebugFile", debug)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// XBoard stays up with the game loaded: stop its process group, and
	// wait (boundedly) for all of it before the folder goes.
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
		for end := time.Now().Add(10 * time.Second); syscall.Kill(-cmd.Process.Pid, 0) == nil && time.Now().Before(end); {
			time.Sleep(50 * time.Millisecond)
		}
	}()
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
