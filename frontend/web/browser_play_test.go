package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// drawnPiece is one piece picture on the page's board.
type drawnPiece struct {
	Square string  `json:"sq"`
	Piece  string  `json:"piece"`
	Art    string  `json:"art"`
	Title  string  `json:"title"`
	DX, DY float64 // the picture's centre less its square's centre, in pixels
	W      float64 // the square's width in pixels
}

// TestBrowserDrawsEveryVariantsStartWithPictures opens the start position
// of every built-in variant and checks that each piece the API places is
// drawn once, as its own picture (not a lettered disc), centred on its
// square, and that every hole is drawn.
func TestBrowserDrawsEveryVariantsStartWithPictures(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	var vs struct {
		Variants []struct{ Name string }
	}
	if code, msg := call(t, "GET", f.url+"/api/variants", "", &vs); code != 200 {
		t.Fatal(code, msg)
	}
	if len(vs.Variants) < 5 {
		t.Fatalf("%d variants listed", len(vs.Variants))
	}
	// The insane ninja knight stands only in a variant with its option.
	vs.Variants = append(vs.Variants, struct{ Name string }{"birds-ninjas+insane-knight"})
	for _, v := range vs.Variants {
		var info VariantInfo
		if code, msg := call(t, "GET", f.url+"/api/variants/"+v.Name, "", &info); code != 200 {
			t.Fatal(code, msg)
		}
		var st State
		if code, msg := call(t, "POST", f.url+"/api/game", fmt.Sprintf(`{"variant":%q}`, v.Name), &st); code != 200 {
			t.Fatal(code, msg)
		}
		run(t, ctx, chromedp.Navigate(f.url+"/?variant="+url.QueryEscape(v.Name)+"#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
		var js string
		run(t, ctx, chromedp.Evaluate(`JSON.stringify({
			pieces: [...document.querySelectorAll('#board g.piece')].map((g) => {
				const sq = document.querySelector('rect[data-sq="' + g.dataset.sq + '"]').getBoundingClientRect();
				const art = g.querySelector('.piece-art'), b = art.getBoundingClientRect();
				return {w: sq.width, sq: g.dataset.sq, piece: g.dataset.piece, art: art.dataset.art, title: art.querySelector('title').textContent,
					DX: b.x + b.width / 2 - sq.x - sq.width / 2, DY: b.y + b.height / 2 - sq.y - sq.height / 2};
			}),
			holes: [...document.querySelectorAll('#board [data-hole]')].map((h) => h.dataset.hole),
			symbols: document.querySelectorAll('#piece-defs symbol').length,
			legend: [...document.querySelectorAll('#legend li')].map((li) => li.dataset.letter + ':' + li.querySelector('.piece-art').dataset.art),
			below: document.getElementById('board').getBoundingClientRect().bottom,
			hand: document.getElementById('hand-bottom').childElementCount ? document.getElementById('hand-bottom').getBoundingClientRect().bottom : 0,
			height: window.innerHeight})`, &js))
		var got struct {
			Pieces        []drawnPiece
			Holes         []string
			Symbols       int
			Legend        []string
			Below, Height float64
			Hand          float64 // the bottom of White's hand (0: none)
		}
		if err := json.Unmarshal([]byte(js), &got); err != nil {
			t.Fatal(err)
		}
		if got.Symbols < 12 {
			t.Fatalf("%s: %d piece symbols defined", v.Name, got.Symbols)
		}
		if len(got.Legend) != len(info.Pieces) {
			t.Errorf("%s: the legend lists %v, the variant has %d pieces", v.Name, got.Legend, len(info.Pieces))
		}
		for _, l := range got.Legend {
			if strings.HasSuffix(l, ":letter") {
				t.Errorf("%s: the legend draws %s as a letter", v.Name, l)
			}
		}
		want := map[string]string{}
		for _, p := range st.Board {
			want[p.Square] = p.Piece
		}
		if len(got.Pieces) != len(want) {
			t.Errorf("%s: %d pieces drawn, the API places %d", v.Name, len(got.Pieces), len(want))
		}
		for _, p := range got.Pieces {
			if want[p.Square] != p.Piece {
				t.Errorf("%s: %s drawn on %s, the API has %q there", v.Name, p.Piece, p.Square, want[p.Square])
			}
			if p.Art == "letter" || p.Art == "" {
				t.Errorf("%s: %s on %s (%s) drawn as a letter", v.Name, p.Piece, p.Square, p.Title)
			}
			if math.Abs(p.DX) > p.W/6 || math.Abs(p.DY) > p.W/6 {
				t.Errorf("%s: %s on %s drawn %.0f,%.0f px off its square's centre", v.Name, p.Piece, p.Square, p.DX, p.DY)
			}
		}
		sort.Strings(got.Holes)
		holes := append([]string(nil), info.Holes...)
		sort.Strings(holes)
		if fmt.Sprint(got.Holes) != fmt.Sprint(holes) {
			t.Errorf("%s: holes drawn %v, the variant has %v", v.Name, got.Holes, holes)
		}
		if got.Below > got.Height {
			t.Errorf("%s: the board ends at %.0f px, below the window's %.0f", v.Name, got.Below, got.Height)
		}
		if got.Hand > got.Height {
			t.Errorf("%s: White's hand ends at %.0f px, below the window's %.0f", v.Name, got.Hand, got.Height)
		}
		inHand := 0
		for _, n := range st.Hands[0] {
			inHand += n
		}
		if inHand > 0 && got.Hand == 0 {
			t.Errorf("%s: a drop variant with no hand drawn under the board", v.Name)
		}
		if v.Name == "birds-ninjas" {
			shot(t, ctx, "birds-ninjas")
		}
		if v.Name == "fbgc" {
			shot(t, ctx, "fbgc-start")
		}
	}
}

// setPlay sets the play panel's fields (firing their change events) and
// starts a new game.
func setPlay(t *testing.T, ctx context.Context, opponent, color, base, inc string) {
	t.Helper()
	var before int
	run(t, ctx, chromedp.Evaluate(`G.game`, &before))
	js := fmt.Sprintf(`(() => {
		for (const [id, v] of [['opponent', %q], ['color', %q], ['base', %q], ['inc', %q]]) {
			const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change'));
		}
		document.getElementById('new').click(); return 1; })()`, opponent, color, base, inc)
	var x int
	run(t, ctx, chromedp.Evaluate(js, &x))
	waitFor(t, ctx, "the new game", func() bool {
		var on string
		run(t, ctx, chromedp.Evaluate(`document.body.dataset.game || ''`, &on))
		return on != "" && on != fmt.Sprint(before)
	})
}

// pageClock reads the page's clock, game end and record.
type pageClock struct {
	Timed  bool
	Top    string
	Bottom string
	TopMS  float64
	BotMS  float64
	Class  string
	Record string
	Evals  int
	Graph  bool
	Resign bool // the resign button is enabled
}

func readClock(t *testing.T, ctx context.Context) pageClock {
	t.Helper()
	var js string
	run(t, ctx, chromedp.Evaluate(`JSON.stringify({timed: !!G.clock, top: document.getElementById('clock-top').textContent,
		bottom: document.getElementById('clock-bottom').textContent, topMS: +document.getElementById('clock-top').dataset.ms,
		botMS: +document.getElementById('clock-bottom').dataset.ms, class: document.getElementById('clock-bottom').className,
		record: G.state.record, evals: G.evals.filter(Boolean).length, graph: !document.getElementById('graph-card').hidden,
		resign: !document.getElementById('resign').disabled})`, &js))
	var c pageClock
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBrowserTimedGameAgainstTheEngineEndsByResignation plays a timed
// game against the engine: both clocks shown and running, the engine's
// scores kept for the graph, a draw offered before move 30 declined, and a
// resignation that ends the game with the clock in its record.
func TestBrowserTimedGameAgainstTheEngineEndsByResignation(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	run(t, ctx, chromedp.Navigate(f.url+"/#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
	setPlay(t, ctx, "engine", "white", "1", "1")
	// The first move typed, the second clicked.
	waitFor(t, ctx, "White to move", func() bool { s := readState(t, ctx); return !s.Busy && s.Side == "white" })
	run(t, ctx, chromedp.SendKeys(`#move-input`, "e2-e4\r", chromedp.ByQuery))
	for move := 1; move < 2; move++ {
		var s pageState
		waitFor(t, ctx, "White to move", func() bool { s = readState(t, ctx); return !s.Busy && s.Side == "white" && len(s.Moves) == 2*move })
		if move == 1 && s.Moves[0] != "e2-e4" {
			t.Fatalf("typed e2-e4, the page played %s", s.Moves[0])
		}
		var m MoveInfo
		for _, l := range s.Legal {
			if l.Drop == "" && l.Promotion == "" && !l.Castle {
				m = l
				break
			}
		}
		clickSquare(t, ctx, m.From)
		clickSquare(t, ctx, m.To)
	}
	waitFor(t, ctx, "the engine's second move", func() bool { s := readState(t, ctx); return !s.Busy && len(s.Moves) == 4 })
	c := readClock(t, ctx)
	if !c.Timed || c.BotMS <= 0 || c.BotMS > 62000 || c.TopMS <= 0 || c.TopMS > 62000 || c.BotMS < 55000 {
		t.Fatalf("clocks %q (%v ms) and %q (%v ms)", c.Bottom, c.BotMS, c.Top, c.TopMS)
	}
	if !strings.Contains(c.Class, "run") {
		t.Errorf("White's clock is not running with White to move: class %q", c.Class)
	}
	if c.Evals < 2 || !c.Graph {
		t.Errorf("%d engine scores kept, graph shown %v", c.Evals, c.Graph)
	}
	shot(t, ctx, "play-clock")
	run(t, ctx, chromedp.Click(`#draw`, chromedp.ByQuery))
	waitFor(t, ctx, "the draw declined", func() bool { return strings.Contains(readState(t, ctx).Status, "declines the draw") })
	run(t, ctx, chromedp.Click(`#resign`, chromedp.ByQuery))
	var s pageState
	waitFor(t, ctx, "the resignation", func() bool { s = readState(t, ctx); return s.Over })
	if s.Result != "0-1" || s.Termination != "resignation" || !strings.Contains(s.Status, "White resigned") {
		t.Fatalf("after resigning: %s %s %q", s.Result, s.Termination, s.Status)
	}
	c = readClock(t, ctx)
	for _, want := range []string{`[Result "0-1"]`, `[Termination "resignation"]`, `[TimeControl "60+1"]`, `[Clocks "`} {
		if !strings.Contains(c.Record, want) {
			t.Errorf("record lacks %s:\n%s", want, c.Record)
		}
	}
	if c.Resign {
		t.Errorf("resign still enabled after the game's end")
	}
	ms := c.BotMS
	time.Sleep(400 * time.Millisecond)
	if c = readClock(t, ctx); c.BotMS != ms {
		t.Errorf("White's clock runs on after the end: %v then %v ms", ms, c.BotMS)
	}
}

// TestBrowserFlagFallEndsTheGame gives both sides a six-second clock: the
// engine (White) moves within its time, the player (Black) does not, and
// Black's flag falls: 1-0 by forfeit, in the record with the clock. (A
// one-second clock let White's flag fall first under -race on a loaded
// machine: the engine's first move there takes over a second.)
func TestBrowserFlagFallEndsTheGame(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	run(t, ctx, chromedp.Navigate(f.url+"/#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
	// A bad clock is refused naming its field, and no game starts.
	var status string
	run(t, ctx, chromedp.SetValue(`#base`, "-1", chromedp.ByQuery), chromedp.Click(`#new`, chromedp.ByQuery),
		chromedp.Text(`#status`, &status, chromedp.ByQuery))
	if !strings.Contains(status, "clock minutes -1") {
		t.Errorf("a clock of -1 minutes: %q", status)
	}
	setPlay(t, ctx, "engine", "black", "0.1", "0")
	var s pageState
	waitFor(t, ctx, "the flag fall", func() bool { s = readState(t, ctx); return s.Over })
	if len(s.Moves) != 1 || s.Result != "1-0" || s.Termination != "forfeit" || !strings.Contains(s.Status, "Black's flag fell") {
		t.Fatalf("after %d moves: %s %s %q", len(s.Moves), s.Result, s.Termination, s.Status)
	}
	c := readClock(t, ctx)
	if !strings.Contains(c.Class, "flag") || c.Bottom != "0:00.0" {
		t.Errorf("Black's clock %q, class %q", c.Bottom, c.Class)
	}
	for _, want := range []string{`[Result "1-0"]`, `[Termination "forfeit"]`, `[TimeControl "6+0"]`, `[Clocks "`} {
		if !strings.Contains(c.Record, want) {
			t.Errorf("record lacks %s:\n%s", want, c.Record)
		}
	}
}

// TestBrowserEvalGraphScoresTheGameAndJumpsToAPly has the engine score
// every position of a game, and clicks a point of the graph.
func TestBrowserEvalGraphScoresTheGameAndJumpsToAPly(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	run(t, ctx, chromedp.Navigate(f.url+"/#analyse"), chromedp.WaitVisible(`body[data-ready="1"]`))
	var x int
	run(t, ctx, chromedp.Evaluate(`newGame('fbgc', '', ['e2-e4', 'e9-e7', 'f2-f4', 'd9-d7', 'j2-j3']).then(() => 1)`, &x,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	run(t, ctx, chromedp.Click(`#graph`, chromedp.ByQuery))
	var pts int
	waitFor(t, ctx, "six points on the graph", func() bool {
		run(t, ctx, chromedp.Evaluate(`document.querySelectorAll('#evalgraph circle[data-ply]').length`, &pts))
		return pts == 6
	})
	var ys []float64
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('#evalgraph circle[data-ply]')].map((c) => +c.getAttribute('cy'))`, &ys))
	for i, y := range ys {
		if y < 0 || y > 120 {
			t.Errorf("point %d at y %v, outside the graph", i, y)
		}
	}
	var xy []float64
	run(t, ctx, chromedp.Sleep(300*time.Millisecond)) // the board's resizing
	run(t, ctx, chromedp.Evaluate(`(() => { const r = document.querySelector('#evalgraph circle[data-ply="2"]').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, &xy))
	var h float64
	run(t, ctx, chromedp.Evaluate(`innerHeight`, &h))
	if xy[1] > h {
		t.Errorf("the graph's point at y %.0f is below the window's %.0f px", xy[1], h)
	}
	run(t, ctx, chromedp.MouseClickXY(xy[0], xy[1]))
	var ply int
	waitFor(t, ctx, "ply 2", func() bool {
		run(t, ctx, chromedp.Evaluate(`G.ply`, &ply))
		return ply == 2 && strings.Contains(readState(t, ctx).Status, "ply 2 of 5")
	})
	shot(t, ctx, "eval-graph")

	// Scores far off and mates sit at the edges: +10 pawns at the top
	// (y 6), -10 at the bottom (y 114).
	run(t, ctx, chromedp.Evaluate(`G.evals[3] = {cp: 2500}; G.evals[4] = {mate: -2}; G.evals[5] = {cp: -1234}; drawGraph();
		[3, 4, 5].map((p) => +document.querySelector('#evalgraph circle[data-ply="' + p + '"]').getAttribute('cy'))`, &ys))
	if fmt.Sprint(ys) != "[6 114 114]" {
		t.Errorf("+25 pawns, mated and -12.34 pawns drawn at y %v, want [6 114 114]", ys)
	}
	// An opening's edge shows: a pawn is drawn at least 12 of the 54 px
	// from the middle (a linear ±10 scale gave it 5), half a pawn below it.
	run(t, ctx, chromedp.Evaluate(`G.evals[3] = {cp: 100}; G.evals[4] = {cp: 50}; drawGraph();
		[3, 4].map((p) => +document.querySelector('#evalgraph circle[data-ply="' + p + '"]').getAttribute('cy'))`, &ys))
	if len(ys) != 2 || 60-ys[0] < 12 || !(ys[1] > ys[0] && ys[1] < 60) {
		t.Errorf("+1 and +0.5 pawns drawn at y %v: want a pawn at least 12 px above the middle (60), half a pawn between", ys)
	}
	// The graph is White's view: with Black to move and a queen down,
	// Black's negative score is drawn above the middle.
	run(t, ctx, chromedp.Evaluate(`newGame('fbgc', 'k9/10/10/10/10/10/10/10/10/QK8 b - - 0 1', []).then(() => 1)`, &x,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	run(t, ctx, chromedp.Click(`#graph`, chromedp.ByQuery))
	var y float64
	waitFor(t, ctx, "the score of a queen up", func() bool {
		run(t, ctx, chromedp.Evaluate(`(() => { const c = document.querySelector('#evalgraph circle[data-ply="0"]'); return c ? +c.getAttribute('cy') : -1; })()`, &y))
		return y >= 0
	})
	if y >= 50 {
		t.Errorf("White a queen up drawn at y %v, not above the middle (60)", y)
	}
}

// TestBrowserTheEngineAcceptsADrawInALevelEndingAfterMove30 offers the
// engine a draw at move 40 of a level ending of blocked pawns: it agrees.
// The position is the same for both sides (each pawn on its own fifth
// rank), so any evaluation scores it near zero at every depth; with the
// pawns on their sixth and fourth ranks the shipped net gave White +0.28
// at the shallow depth a -race build reaches.
func TestBrowserTheEngineAcceptsADrawInALevelEndingAfterMove30(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	run(t, ctx, chromedp.Navigate(f.url+"/#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
	setPlay(t, ctx, "engine", "white", "0", "0")
	var x int
	run(t, ctx, chromedp.Evaluate(`newGame('fbgc', '5k4/10/10/10/4p5/4P5/10/10/10/5K4 w - - 0 40', []).then(() => 1)`, &x,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	run(t, ctx, chromedp.Click(`#draw`, chromedp.ByQuery))
	var s pageState
	waitFor(t, ctx, "the engine's answer", func() bool {
		s = readState(t, ctx)
		return s.Over || strings.Contains(s.Status, "declines")
	})
	if !s.Over || s.Result != "1/2-1/2" || s.Termination != "agreement" || !strings.Contains(s.Status, "draw agreed") {
		t.Fatalf("after the offer: over %v %s %s %q", s.Over, s.Result, s.Termination, s.Status)
	}
}

// TestBrowserTheEngineOpponentPlaysAtTheTimeAMoveChosen picks the engine
// by its time a move: the page offers it at 0.1, 1 and 5 s, asks the
// server for a search of the time chosen (within the clock's share in a
// timed game), and the record names the engine as the command line does.
func TestBrowserTheEngineOpponentPlaysAtTheTimeAMoveChosen(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	run(t, ctx, chromedp.Navigate(f.url+"/#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
	var options []string
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('#opponent option')].map((o) => o.value + '|' + o.textContent)`, &options))
	for _, want := range []string{"engine:movetime=100ms|engine, 0.1 s a move", "engine:movetime=1s|engine, 1 s a move", "engine:movetime=5s|engine, 5 s a move"} {
		found := false
		for _, o := range options {
			found = found || strings.HasPrefix(o, want)
		}
		if !found {
			t.Errorf("the opponents %q lack %q", options, want)
		}
	}
	// The page's searches, as it asks for them.
	run(t, ctx, chromedp.Evaluate(`window.searches = []; const f0 = window.fetch; window.fetch = (u, o) => {
		if (String(u).endsWith('/api/analyse')) window.searches.push(JSON.parse(o.body).movetime_ms);
		return f0(u, o); }; 1`, nil))
	for _, tc := range []struct {
		opponent, base string
		check          func(ms []float64) bool
		want           string
	}{
		{"engine:movetime=100ms", "0", func(ms []float64) bool { return len(ms) == 1 && ms[0] == 100 }, "one search of 100 ms"},
		{"engine:movetime=5s", "1", func(ms []float64) bool { return len(ms) == 1 && ms[0] > 0 && ms[0] < 5000 }, "one search within the clock's share of a minute (under 5 s)"},
	} {
		setPlay(t, ctx, tc.opponent, "white", tc.base, "0")
		run(t, ctx, chromedp.Evaluate(`window.searches.length = 0; 1`, nil))
		waitFor(t, ctx, "White to move", func() bool { s := readState(t, ctx); return !s.Busy && s.Side == "white" })
		run(t, ctx, chromedp.SendKeys(`#move-input`, "e2-e4\r", chromedp.ByQuery))
		waitFor(t, ctx, "the engine's reply", func() bool { s := readState(t, ctx); return !s.Busy && len(s.Moves) == 2 })
		var ms []float64
		var record string
		run(t, ctx, chromedp.Evaluate(`window.searches`, &ms), chromedp.Evaluate(`G.state.record`, &record))
		if !tc.check(ms) {
			t.Errorf("%s: the page asked for searches of %v ms, want %s", tc.opponent, ms, tc.want)
		}
		if !strings.Contains(record, `[Black "`+tc.opponent+`"]`) {
			t.Errorf("%s: the record does not name the engine so:\n%s", tc.opponent, record)
		}
	}
}

// TestBrowserTheTallBoardKeepsItsHandAndClockInTheWindow plays the 10x12
// Birds and Ninjas board timed against the engine, the busiest layout
// (hands, clocks and the eval graph around the board): White's hand, its
// clock and the board all end inside the window.
func TestBrowserTheTallBoardKeepsItsHandAndClockInTheWindow(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	run(t, ctx, chromedp.Navigate(f.url+"/?variant=birds-ninjas#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
	setPlay(t, ctx, "engine:movetime=100ms", "white", "1", "0")
	waitFor(t, ctx, "White to move", func() bool { s := readState(t, ctx); return !s.Busy && s.Side == "white" })
	run(t, ctx, chromedp.SendKeys(`#move-input`, "e2-e4\r", chromedp.ByQuery))
	waitFor(t, ctx, "the engine's reply and its graph", func() bool {
		var graph bool
		run(t, ctx, chromedp.Evaluate(`!document.getElementById('graph-card').hidden`, &graph))
		s := readState(t, ctx)
		return !s.Busy && len(s.Moves) == 2 && graph
	})
	run(t, ctx, chromedp.Sleep(300*time.Millisecond)) // the board's resizing
	var got struct{ Board, Hand, Clock, Height, BoardRight, ClockRight, GraphRight float64 }
	var js string
	run(t, ctx, chromedp.Evaluate(`JSON.stringify({board: document.getElementById('board').getBoundingClientRect().bottom,
		hand: document.querySelector('#hand-bottom .token').getBoundingClientRect().bottom,
		clock: document.getElementById('clock-bottom').getBoundingClientRect().bottom, height: innerHeight,
		boardRight: document.getElementById('board').getBoundingClientRect().right,
		clockRight: document.getElementById('clock-bottom').getBoundingClientRect().right,
		graphRight: document.getElementById('graph-card').getBoundingClientRect().right})`, &js))
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if got.Board > got.Height || got.Hand > got.Height || got.Clock > got.Height || got.Hand == 0 || got.Clock == 0 {
		t.Errorf("board, White's hand and clock end at %.0f, %.0f, %.0f px; the window at %.0f", got.Board, got.Hand, got.Clock, got.Height)
	}
	// The clock and the graph end where the board ends (the graph's own
	// width once pushed them 67 px past the narrowed board).
	if math.Abs(got.ClockRight-got.BoardRight) > 2 || math.Abs(got.GraphRight-got.BoardRight) > 2 {
		t.Errorf("the board ends at x %.0f, its clock at %.0f, the graph at %.0f", got.BoardRight, got.ClockRight, got.GraphRight)
	}
	shot(t, ctx, "birds-ninjas-clock")
}

// TestBrowserOffersTheEngineWithEachNetOfItsVariant has --models hold nets
// for fbgc and chess and a file that is no net: in fbgc the page offers the
// engine with the fbgc net (by its clock and at 1 s a move) and not the
// chess net, lists the broken file unplayable with its reason, plays the
// net at the time chosen (its spec sent as the search's model and written
// in the record), analyses with it (its lines with scores, the net named);
// in chess the chess net takes the fbgc net's place and a game against the
// fbgc net falls back to the classical engine.
func TestBrowserOffersTheEngineWithEachNetOfItsVariant(t *testing.T) {
	ctx := browser(t)
	f := netFixture(t)
	run(t, ctx, chromedp.Navigate(f.url+"/#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
	type option struct {
		Value, Text, Title string
		Disabled           bool
	}
	options := func(sel string) map[string]option {
		var js string
		run(t, ctx, chromedp.Evaluate(`JSON.stringify([...document.querySelectorAll('`+sel+` option')].map((o) => ({value: o.value, text: o.textContent, title: o.title, disabled: o.disabled})))`, &js))
		var list []option
		if err := json.Unmarshal([]byte(js), &list); err != nil {
			t.Fatal(err)
		}
		out := map[string]option{}
		for _, o := range list {
			out[o.Value] = o
		}
		return out
	}
	const net, timed, chessNet = "engine:eval=models/fbgc.nnue", "engine:movetime=1s:eval=models/fbgc.nnue", "engine:eval=models/more/chess.nnue"
	opp, models := options("#opponent"), options("#model")
	for _, c := range []struct {
		opts       map[string]option
		value      string
		offered    bool
		text, bad  string
		selectName string
	}{
		{opp, "engine", true, "engine, classical evaluation, by its clock", "", "#opponent"},
		{opp, net, true, "engine, net models/fbgc.nnue (learned, fbgc, 8x4), by its clock", "", "#opponent"},
		{opp, timed, true, "engine, 1 s a move, net models/fbgc.nnue (learned, fbgc, 8x4) (within its clock)", "", "#opponent"},
		{opp, chessNet, false, "", "", "#opponent"},
		{opp, "engine:eval=models/garbage.nnue", true, "engine, net models/garbage.nnue: damaged: cannot be played", "not a bomberzero net file", "#opponent"},
		{models, "engine", true, "engine (classical evaluation)", "", "#model"},
		{models, net, true, "engine, net models/fbgc.nnue (learned, fbgc, 8x4)", "", "#model"},
		{models, chessNet, false, "", "", "#model"},
	} {
		o, ok := c.opts[c.value]
		if ok != c.offered || ok && (o.Text != c.text || o.Disabled != (c.bad != "") || !strings.Contains(o.Title, c.bad)) {
			t.Errorf("%s %q: offered %v as %+v; want offered %v, %q, unplayable saying %q", c.selectName, c.value, ok, o, c.offered, c.text, c.bad)
		}
	}

	// The net at 1 s a move: the page asks for a 1 s search of that spec.
	run(t, ctx, chromedp.Evaluate(`window.searches = []; const f0 = window.fetch; window.fetch = (u, o) => {
		if (String(u).endsWith('/api/analyse')) { const b = JSON.parse(o.body); window.searches.push(b.model + ' ' + b.movetime_ms); }
		return f0(u, o); }; 1`, nil))
	setPlay(t, ctx, timed, "white", "0", "0")
	waitFor(t, ctx, "White to move", func() bool { s := readState(t, ctx); return !s.Busy && s.Side == "white" })
	run(t, ctx, chromedp.SendKeys(`#move-input`, "e2-e4\r", chromedp.ByQuery))
	waitFor(t, ctx, "the net's reply", func() bool { s := readState(t, ctx); return !s.Busy && len(s.Moves) == 2 })
	var searches []string
	var record string
	run(t, ctx, chromedp.Evaluate(`window.searches`, &searches), chromedp.Evaluate(`G.state.record`, &record))
	if len(searches) != 1 || searches[0] != timed+" 1000" {
		t.Errorf("the page asked for the searches %q, want one of %s for 1000 ms", searches, timed)
	}
	if !strings.Contains(record, `[Black "`+timed+`"]`) {
		t.Errorf("the record does not name the net's engine as the command line does:\n%s", record)
	}

	// Analysis with the net: its lines, each with a score, the net named.
	run(t, ctx, chromedp.Navigate(f.url+"/?p=analyse#analyse"), chromedp.WaitVisible(`body[data-ready="1"]`))
	clickSquare(t, ctx, "e2")
	clickSquare(t, ctx, "e4")
	waitFor(t, ctx, "e2-e4 played", func() bool { return len(readState(t, ctx).Moves) == 1 })
	run(t, ctx, chromedp.SetValue(`#model`, net, chromedp.ByQuery), chromedp.Click(`#go`, chromedp.ByQuery))
	waitFor(t, ctx, "the net's analysis", func() bool {
		var model string
		run(t, ctx, chromedp.Evaluate(`G.analysis ? G.analysis.model : ''`, &model))
		return model == net
	})
	var head string
	run(t, ctx, chromedp.Text(`#analysis > div.muted`, &head, chromedp.ByQuery))
	if !strings.HasPrefix(head, net+" · depth ") {
		t.Errorf("the analysis's line reads %q, want it to name %s", head, net)
	}
	shot(t, ctx, "analyse-net")
	checkAnalysisLines(t, ctx)

	// In chess the chess net is offered in the fbgc net's place, and a game
	// set against the fbgc net falls back to the classical engine.
	run(t, ctx, chromedp.Navigate(f.url+"/?p=play#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
	run(t, ctx, chromedp.Evaluate(`(() => { const o = document.getElementById('opponent'); o.value = '`+net+`'; o.dispatchEvent(new Event('change'));
		const v = document.getElementById('variant'); v.value = 'chess'; v.dispatchEvent(new Event('change')); return 1; })()`, nil))
	waitFor(t, ctx, "the chess board", func() bool {
		var v string
		run(t, ctx, chromedp.Evaluate(`G.info ? G.info.name : ''`, &v))
		return v == "chess"
	})
	opp, models = options("#opponent"), options("#model")
	_, fbgcOffered := opp[net]
	_, chessOffered := opp[chessNet]
	_, chessModel := models[chessNet]
	var chosen string
	run(t, ctx, chromedp.Evaluate(`G.opponent + '|' + document.getElementById('opponent').value`, &chosen))
	if fbgcOffered || !chessOffered || !chessModel || chosen != "engine|engine" {
		t.Errorf("in chess: the fbgc net offered %v, the chess net %v (analysis %v), the opponent %q; want false, true, true, engine|engine", fbgcOffered, chessOffered, chessModel, chosen)
	}
}
