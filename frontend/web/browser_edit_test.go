package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// editText reads the editor's position text and the message beside it.
func editText(t *testing.T, ctx context.Context) (text, msg string) {
	t.Helper()
	var out []string
	run(t, ctx, chromedp.Evaluate(`[document.getElementById('edit-fen').value, document.getElementById('edit-error').textContent]`, &out))
	return out[0], out[1]
}

// pick chooses a piece (a letter, "" for the eraser) from the editor's palette.
func pick(t *testing.T, ctx context.Context, piece string) {
	t.Helper()
	run(t, ctx, chromedp.Click(fmt.Sprintf(`#palette button[data-piece=%q]`, piece), chromedp.ByQuery))
}

// centreOf is the centre of the element sel on the screen.
func centreOf(t *testing.T, ctx context.Context, sel string) [2]float64 {
	t.Helper()
	var xy []float64
	run(t, ctx, chromedp.Evaluate(fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, sel), &xy))
	return [2]float64{xy[0], xy[1]}
}

// drag presses the mouse at a, moves it to b in steps and lets go there.
func drag(t *testing.T, ctx context.Context, a, b [2]float64) {
	t.Helper()
	acts := []chromedp.Action{chromedp.MouseEvent(input.MouseMoved, a[0], a[1]), chromedp.MouseEvent(input.MousePressed, a[0], a[1], chromedp.ButtonLeft)}
	for i := 1; i <= 5; i++ {
		x, y := a[0]+(b[0]-a[0])*float64(i)/5, a[1]+(b[1]-a[1])*float64(i)/5
		acts = append(acts, chromedp.MouseEvent(input.MouseMoved, x, y, chromedp.ButtonLeft))
	}
	acts = append(acts, chromedp.MouseEvent(input.MouseReleased, b[0], b[1], chromedp.ButtonLeft))
	run(t, ctx, acts...)
}

// waitMsg waits until the message beside the position text contains want.
func waitMsg(t *testing.T, ctx context.Context, want string) string {
	t.Helper()
	var text string
	waitFor(t, ctx, "the editor to say "+want, func() bool {
		var msg string
		text, msg = editText(t, ctx)
		return strings.Contains(msg, want)
	})
	return text
}

func TestBrowserBoardEditorBuildsAPositionAndStartsAGameFromIt(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	run(t, ctx, chromedp.Navigate(f.url+"/#edit"), chromedp.WaitVisible(`body[data-ready="1"]`), chromedp.WaitVisible(`#palette button[data-piece="K"]`))
	if text := waitMsg(t, ctx, "Legal"); text != "frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1" {
		t.Errorf("the editor opens on %q, want fbgc's start", text)
	}
	run(t, ctx, chromedp.Click(`#edit-clear`, chromedp.ByQuery))
	waitMsg(t, ctx, "no white king")

	// A small position by clicks: kings, a bomber, a pawn.
	pick(t, ctx, "K")
	clickSquare(t, ctx, "f1")
	pick(t, ctx, "k")
	clickSquare(t, ctx, "f10")
	pick(t, ctx, "F")
	clickSquare(t, ctx, "a1")
	pick(t, ctx, "p")
	clickSquare(t, ctx, "c7")
	const want = "5k4/10/10/2p7/10/10/10/10/10/F4K4 w - - 0 1"
	if text := waitMsg(t, ctx, "Legal"); text != want {
		t.Errorf("position text %q, want %q", text, want)
	}

	// Dragged from the palette onto d4, then on the board to e4, then off it.
	sq := func(n string) [2]float64 { return centreOf(t, ctx, fmt.Sprintf(`rect[data-sq=%q]`, n)) }
	drag(t, ctx, centreOf(t, ctx, `#palette button[data-piece="N"]`), sq("d4"))
	waitFor(t, ctx, "a knight dragged to d4", func() bool { text, _ := editText(t, ctx); return strings.HasPrefix(text, "5k4/10/10/2p7/10/10/3N6/") })
	drag(t, ctx, sq("d4"), sq("e4"))
	waitFor(t, ctx, "the knight dragged to e4", func() bool { text, _ := editText(t, ctx); return strings.HasPrefix(text, "5k4/10/10/2p7/10/10/4N5/") })
	off := centreOf(t, ctx, `#edit-panel h2`)
	drag(t, ctx, sq("e4"), off)
	waitFor(t, ctx, "the knight dragged off the board", func() bool { text, _ := editText(t, ctx); return text == want })

	// Illegal positions are refused with the server's reason.
	pick(t, ctx, "K")
	clickSquare(t, ctx, "b2")
	waitMsg(t, ctx, "a second white king")
	pick(t, ctx, "")
	clickSquare(t, ctx, "b2")
	waitMsg(t, ctx, "Legal")
	pick(t, ctx, "R")
	clickSquare(t, ctx, "f5") // checks Black's king with White to move
	waitMsg(t, ctx, "the side not to move is in check")
	var ok bool
	run(t, ctx, chromedp.Evaluate(`(() => { const s = document.getElementById('edit-side'); s.value = 'b'; s.dispatchEvent(new Event('change')); return true; })()`, &ok))
	waitMsg(t, ctx, "in check")
	shot(t, ctx, "editor")
	// A typed text is read back, and its error shown.
	run(t, ctx, chromedp.SetValue(`#edit-fen`, "P4k4/10/10/10/10/10/10/10/10/5K4 w - - 0 1", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('edit-fen').dispatchEvent(new Event('input')), true`, &ok))
	waitMsg(t, ctx, "promotion rank")
	legal := "5k4/10/10/2p7/5R4/10/10/10/10/F4K4 b - - 3 41"
	run(t, ctx, chromedp.SetValue(`#edit-fen`, legal, chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('edit-fen').dispatchEvent(new Event('input')), true`, &ok))
	waitMsg(t, ctx, "Legal: black to move, in check")
	var pieces int
	run(t, ctx, chromedp.Evaluate(`document.querySelectorAll('#board g.piece').length`, &pieces))
	if pieces != 5 {
		t.Errorf("the board shows %d pieces of the typed text, want 5", pieces)
	}
	// Edits keep the typed move number.
	pick(t, ctx, "")
	clickSquare(t, ctx, "c7")
	waitFor(t, ctx, "the pawn taken off", func() bool {
		text, _ := editText(t, ctx)
		return text == "5k4/10/10/10/5R4/10/10/10/10/F4K4 b - - 3 41"
	})
	// The pawn put back, and Analyse clicked while the server (slowed to
	// 1.5 s an answer here) still checks the position: the click waits for
	// the check and starts a game there (it was once dropped as "not
	// checked yet", which a loaded machine showed).
	run(t, ctx, chromedp.Evaluate(`window.fetch0 = window.fetch; window.fetch = (u, o) => new Promise((r) => setTimeout(r, 1500)).then(() => window.fetch0(u, o)); 1`, nil))
	pick(t, ctx, "p")
	clickSquare(t, ctx, "c7")
	run(t, ctx, chromedp.Click(`#edit-analyse`, chromedp.ByQuery))
	waitFor(t, ctx, "the game from the editor", func() bool {
		var s string
		run(t, ctx, chromedp.Evaluate(`G.mode + ' ' + (G.state ? G.state.start : '')`, &s))
		return s == "analyse "+legal
	})
	run(t, ctx, chromedp.Evaluate(`window.fetch = window.fetch0; 1`, nil))
	s := readState(t, ctx)
	if s.Side != "black" || len(s.Moves) != 0 || len(s.Legal) == 0 {
		t.Errorf("the game from the editor: side %s, moves %v, %d legal moves", s.Side, s.Moves, len(s.Legal))
	}
	for _, m := range s.Legal {
		if m.From != "f10" { // in check from the rook: only the king moves
			t.Errorf("legal move %s in check", m.Text)
		}
	}

	// Play from here, from the editor opened on the analysed position.
	run(t, ctx, chromedp.Evaluate(`document.getElementById('opponent').value = 'human', document.getElementById('opponent').dispatchEvent(new Event('change')), location.hash = '#edit', true`, &ok))
	waitMsg(t, ctx, "Legal: black to move")
	run(t, ctx, chromedp.Click(`#edit-play`, chromedp.ByQuery))
	waitFor(t, ctx, "the game to play from the editor", func() bool {
		var s string
		run(t, ctx, chromedp.Evaluate(`G.mode + ' ' + (G.state ? G.state.position : '')`, &s))
		return s == "play "+legal
	})

	// Holes take no piece; a drop variant's hands go into the text.
	run(t, ctx, chromedp.Navigate(f.url+"/?variant=birds-ninjas#edit"), chromedp.WaitVisible(`body[data-ready="1"]`), chromedp.WaitVisible(`#palette button[data-piece="J"]`))
	waitMsg(t, ctx, "Legal")
	pick(t, ctx, "Q")
	hole := centreOf(t, ctx, `rect[data-hole="a11"]`)
	run(t, ctx, chromedp.MouseClickXY(hole[0], hole[1]))
	waitMsg(t, ctx, "a11 is a hole")
	run(t, ctx, chromedp.Evaluate(`(() => { const s = document.getElementById('edit-hand-w'); s.value = '3'; s.dispatchEvent(new Event('change')); return true; })()`, &ok))
	if text := waitMsg(t, ctx, "Legal"); text != "****gg****/frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF/****GG****[JJJjjjj] w KQkq - 0 1" {
		t.Errorf("birds-ninjas with 3 white pieces in hand: %q", text)
	}
	shot(t, ctx, "editor-hands")
}
