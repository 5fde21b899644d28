//go:build linux

package web

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"bomberzero/env"
	"bomberzero/frontend/xboard"
	"bomberzero/frontend/xboard/xboardtest"
)

// TestBrowserTimedGameToAFlagFallExportsPGNThatXBoardLoads plays a timed
// fbgc game against the engine in the page, the player's clock 12 seconds
// (its three moves, each a few DevTools round trips on the player's clock,
// stay well inside it on a loaded machine):
// the player makes three moves, then lets the clock run out. The flag fall
// ends the game (0-1, forfeit), and the page's PGN (mainPGN, serve's
// dialect) is loaded by Debian's XBoard 4.9, which must read every move of
// the game as written (xboardtest.LoadPGN). Skipped without chromium,
// xboard or xvfb-run, and with -short.
func TestBrowserTimedGameToAFlagFallExportsPGNThatXBoardLoads(t *testing.T) {
	xboardtest.Programs(t)
	ctx := browser(t)
	f := newFixture(t, Config{PGN: xboard.PGNDialect})
	run(t, ctx, chromedp.Navigate(f.url+"/#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
	setPlay(t, ctx, "engine", "white", "0.2", "0")
	for move := 0; move < 3; move++ {
		var s pageState
		waitFor(t, ctx, "White to move", func() bool {
			s = readState(t, ctx)
			return s.Over || !s.Busy && s.Side == "white" && len(s.Moves) == 2*move
		})
		if s.Over {
			t.Fatalf("the game ended after %d moves: %s %s %q", len(s.Moves), s.Result, s.Termination, s.Status)
		}
		for _, l := range s.Legal {
			if l.Drop == "" && l.Promotion == "" && !l.Castle {
				clickSquare(t, ctx, l.From)
				clickSquare(t, ctx, l.To)
				break
			}
		}
	}
	var s pageState
	waitFor(t, ctx, "White's flag fall", func() bool { s = readState(t, ctx); return s.Over })
	if s.Result != "0-1" || s.Termination != "forfeit" || len(s.Moves) != 6 {
		t.Fatalf("the game ended %s %s after %d moves (%q), want 0-1 by forfeit after 6", s.Result, s.Termination, len(s.Moves), s.Status)
	}
	if c := readClock(t, ctx); !strings.Contains(c.Class, "flag") || !strings.Contains(c.Record, `[Termination "forfeit"]`) {
		t.Errorf("White's clock class %q, record:\n%s", c.Class, c.Record)
	}
	var pgn string
	run(t, ctx, chromedp.Evaluate(`mainPGN()`, &pgn,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if !strings.Contains(pgn, `[Notation "XBoard"]`) || !strings.Contains(pgn, `[Result "0-1"]`) {
		t.Fatalf("the page's PGN:\n%s", pgn)
	}
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	p := v.NewPosition()
	var written []string
	for _, text := range s.Moves {
		m, err := p.ParseMove(text)
		if err != nil {
			t.Fatalf("move %s: %v", text, err)
		}
		written = append(written, xboard.PGNNotation{}.FormatMove(p, m))
		p.DoMove(m)
	}
	lines, err := xboard.Setup(v)
	if err != nil {
		t.Fatal(err)
	}
	xboardtest.LoadPGN(t, lines[0], pgn, written)
}
