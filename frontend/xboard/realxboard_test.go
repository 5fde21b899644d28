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
	"testing"
	"time"

	"bomberzero/env"
	"bomberzero/frontend/web"
	"bomberzero/frontend/xboard/xboardtest"
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
	xb, xvfb := xboardtest.Programs(t)
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
			// XBoard stays up after the match: stop it (and its display and
			// engines, its process group) once the position is saved.
			stop := xboardtest.StartGroup(t, cmd)
			defer stop()
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
// the PGN of a random game with a variation, of fbgc and of birds-ninjas
// (drops, fly-overs and a castling among its moves), as PGN writes it and
// as the web app exports it (POST /api/pgn, with serve's dialect,
// PGNDialect), and checks it read every move as written
// (xboardtest.LoadPGN). The canonical PGN (record.Game.PGN) fails here:
// XBoard numbers a 10-rank board's ranks from 0; so did the two-leg moves
// of Notation ("f2i2,i2i2"), which XBoard's PGN reader took for two
// moves, putting the wrong side on move for the drop after it. Skipped
// without xboard and xvfb-run, and with -short.
func TestDebiansXBoardLoadsAnExportedPGN(t *testing.T) {
	xboardtest.Programs(t)
	for _, c := range []struct {
		variant string
		seed    uint64
	}{{"fbgc", 7}, {"birds-ninjas", 7}} {
		v := load(t, c.variant)
		g, written := randomRecord(t, v, 60, c.seed)
		lines, err := Setup(v)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(c.variant+"/record", func(t *testing.T) {
			text, err := PGN(&g, c.variant)
			if err != nil {
				t.Fatal(err)
			}
			xboardtest.LoadPGN(t, lines[0], text, written)
		})
		t.Run(c.variant+"/web app", func(t *testing.T) {
			srv := httptest.NewServer(web.New(context.Background(), web.Config{PGN: PGNDialect}))
			defer srv.Close()
			body, err := json.Marshal(map[string]any{"variant": c.variant, "moves": g.Moves, "variations": g.Variations})
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
			xboardtest.LoadPGN(t, lines[0], out.PGN, written)
		})
	}
}
