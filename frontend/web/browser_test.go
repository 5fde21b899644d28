package web

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"bomberzero/metrics"
)

// These tests drive the page in a real headless Chromium through the
// DevTools protocol (chromedp: pure Go, no Node, no driver binary to
// install). They skip when no chromium is on PATH; scripts/test.sh installs
// Debian's package.

var screenshots = flag.String("screenshots", "", "folder to write the browser tests' screenshots to (PNG), e.g. ../docs/screenshots")

func browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		t.Skip("no chromium on PATH (scripts/test.sh installs it)")
	}
	// A first start of Chromium on a fresh machine (font cache, profile)
	// can take longer than chromedp's default 20 s to print its DevTools
	// address, which failed CI once; the browser gets two minutes to start,
	// and the test's own minute begins once it is up.
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1360, 900), chromedp.WSURLReadTimeout(browserStartTimeout))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if err := chromedp.Run(ctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", path, err)
	}
	ctx, cancel3 := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel3)
	return ctx
}

// browserStartTimeout bounds how long Chromium may take to start.
const browserStartTimeout = 2 * time.Minute

func run(t *testing.T, ctx context.Context, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// textNow reads an element's text in one evaluation, so a poll that
// re-renders the element between chromedp's query and its read cannot
// fail the test with "No node with given id found"; a missing element
// reads as "".
func textNow(t *testing.T, ctx context.Context, selector string) string {
	t.Helper()
	var text string
	js := fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ''`, selector)
	run(t, ctx, chromedp.Evaluate(js, &text))
	return text
}

func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if *screenshots == "" {
		return
	}
	var png []byte
	run(t, ctx, chromedp.Sleep(300*time.Millisecond), chromedp.CaptureScreenshot(&png))
	if err := os.MkdirAll(*screenshots, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*screenshots, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// clickSquare clicks the centre of a square of the board with the mouse.
func clickSquare(t *testing.T, ctx context.Context, sq string) {
	t.Helper()
	var xy []float64
	run(t, ctx, chromedp.Evaluate(fmt.Sprintf(`(() => { const r = document.querySelector('rect[data-sq="%s"]').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, sq), &xy))
	run(t, ctx, chromedp.MouseClickXY(xy[0], xy[1]))
}

// pageState reads the page's game state.
type pageState struct {
	Moves       []string
	Over        bool
	Result      string
	Termination string
	Side        string
	Busy        bool
	Status      string
	Legal       []MoveInfo
	Last        *MoveInfo
}

func readState(t *testing.T, ctx context.Context) pageState {
	t.Helper()
	var js string
	run(t, ctx, chromedp.Evaluate(`JSON.stringify({moves: G.moves, over: G.state.over, result: G.state.result, termination: G.state.termination, side: G.state.side, busy: G.busy, status: document.getElementById('status').textContent, legal: G.state.legal, last: G.state.last})`, &js))
	var s pageState
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitFor polls cond until it holds or 20 s pass.
func waitFor(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if cond() {
			return
		}
	}
	var status string
	_ = chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById('status').textContent + ' | moves ' + (window.G ? G.moves.join(' ') + ' ply ' + G.ply + ' busy ' + G.busy : '')`, &status))
	t.Fatalf("timed out waiting for %s; the page says %q", what, status)
}

func TestBrowserPlaysToMateAgainstRandom(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	// White: king, queen and rook against a lone king; the test picks its
	// moves by alpha-beta (mate in two is within its depth) through the
	// API, and plays them by clicking their squares.
	start := "5k4/10/10/10/10/10/10/10/10/R3QK4 w - - 0 1"
	run(t, ctx, chromedp.Navigate(f.url+"/?start="+url.QueryEscape(start)+"#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
	for ply := 0; ; ply++ {
		if ply > 40 {
			t.Fatalf("no mate within 40 plies")
		}
		var s pageState
		waitFor(t, ctx, "the agent's move", func() bool { s = readState(t, ctx); return !s.Busy && (s.Side == "white" || s.Over) })
		if s.Over {
			if s.Result != "1-0" || s.Termination != "checkmate" {
				t.Fatalf("game over %s %s, want a White mate", s.Result, s.Termination)
			}
			if !strings.Contains(s.Status, "checkmate") {
				t.Errorf("status %q does not say checkmate", s.Status)
			}
			break
		}
		var out agentReply
		body, _ := json.Marshal(map[string]any{"variant": "fbgc", "start": start, "moves": s.Moves, "player": "alphabeta:3"})
		if code, msg := call(t, "POST", f.url+"/api/agent", string(body), &out); code != 200 {
			t.Fatal(code, msg)
		}
		clickSquare(t, ctx, out.Move.From)
		clickSquare(t, ctx, out.Move.To)
		waitFor(t, ctx, "the move "+out.Move.Text, func() bool { s2 := readState(t, ctx); return len(s2.Moves) > len(s.Moves) })
		if got := readState(t, ctx).Moves[len(s.Moves)]; got != out.Move.Text {
			t.Fatalf("clicked %s, the page played %s", out.Move.Text, got)
		}
	}
	shot(t, ctx, "play")
}

func TestBrowserRefusesAnIllegalDropAndDrawsADoubleCapture(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	run(t, ctx, chromedp.Navigate(f.url+"/?variant=birds-ninjas#play"), chromedp.WaitVisible(`body[data-ready="1"]`),
		chromedp.SetValue(`#opponent`, "human"), chromedp.Evaluate(`document.getElementById('opponent').dispatchEvent(new Event('change'))`, nil))
	// Each move's reply before the next click: a click while the first
	// move's request is in flight would still find e2 selected.
	clickSquare(t, ctx, "e2")
	clickSquare(t, ctx, "e4")
	waitFor(t, ctx, "the first move", func() bool { s := readState(t, ctx); return !s.Busy && len(s.Moves) == 1 })
	clickSquare(t, ctx, "e9")
	clickSquare(t, ctx, "e7")
	waitFor(t, ctx, "two moves", func() bool { s := readState(t, ctx); return !s.Busy && len(s.Moves) == 2 })
	run(t, ctx, chromedp.Click(`.token[data-hand="white"]`, chromedp.ByQuery))
	var targets int
	run(t, ctx, chromedp.Evaluate(`document.querySelectorAll('[data-target]').length`, &targets))
	if targets != 2 {
		t.Errorf("%d drop targets highlighted, want 2 (e2, and e3 with a push)", targets)
	}
	shot(t, ctx, "drop")
	clickSquare(t, ctx, "e5")
	waitFor(t, ctx, "the refusal", func() bool { return strings.HasPrefix(readState(t, ctx).Status, "Illegal") })
	if s := readState(t, ctx); len(s.Moves) != 2 || strings.Count(s.Status, "move ") > 1 {
		t.Errorf("the illegal drop changed the game (%v) or its refusal names the move more than once: %q", s.Moves, s.Status)
	}
	// A bomber's helicopter leap d1-d3 over d2 removes both pawns.
	start := "k9/10/10/10/10/10/10/3p6/3p6/3F5K w - - 0 1"
	run(t, ctx, chromedp.Navigate(f.url+"/?start="+url.QueryEscape(start)+"#play"), chromedp.WaitVisible(`body[data-ready="1"]`),
		chromedp.SetValue(`#opponent`, "human"), chromedp.Evaluate(`document.getElementById('opponent').dispatchEvent(new Event('change'))`, nil))
	clickSquare(t, ctx, "d1")
	clickSquare(t, ctx, "d3")
	waitFor(t, ctx, "the double capture", func() bool { return len(readState(t, ctx).Moves) == 1 })
	var removed []string
	var path string
	run(t, ctx, chromedp.Evaluate(`[...document.querySelectorAll('[data-removed]')].map(e => e.dataset.removed).sort()`, &removed),
		chromedp.Evaluate(`document.querySelector('line.path') ? document.querySelector('line.path').dataset.path : ''`, &path))
	if strings.Join(removed, " ") != "d2 d3" || path != "d2" {
		t.Errorf("drawn: removed %v, flight path %q; want d2 and d3 removed over the path d2", removed, path)
	}
	shot(t, ctx, "double-capture")
}

// checkAnalysisLines checks the engine's analysis of the position after
// e2-e4 as a player reads it: several lines, each with its score in pawns
// and its moves on one line; the eval bar's number is the headline score
// in White's view; a click on a line's third move enters the line's first
// three moves.
func checkAnalysisLines(t *testing.T, ctx context.Context) {
	t.Helper()
	var got struct {
		Score, Side, Bar string
		Rows             []struct {
			Move, Score string
			PV          []string
			MoveLines   int
		}
	}
	var js string
	run(t, ctx, chromedp.Evaluate(`JSON.stringify({score: G.analysis.score, side: G.state.side, bar: document.getElementById('evaltext').textContent,
		rows: [...document.querySelectorAll('#analysis tbody tr')].map((tr) => ({move: tr.cells[0].textContent, score: tr.cells[1].textContent,
			pv: [...tr.cells[2].querySelectorAll('a.pvm')].map((a) => a.textContent), moveLines: (() => { const r = document.createRange(); r.selectNodeContents(tr.cells[0]); return new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size; })()}))})`, &js))
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) < 3 {
		t.Fatalf("the analysis shows %d lines, want MultiPV (several)", len(got.Rows))
	}
	for _, r := range got.Rows {
		if !regexp.MustCompile(`^([+-]\d+\.\d\d|#-?\d+)$`).MatchString(r.Score) {
			t.Errorf("line %s scores %q, want pawns (+0.35) or a mate (#3)", r.Move, r.Score)
		}
		if len(r.PV) == 0 || r.PV[0] != r.Move {
			t.Errorf("line %s: its PV links %q do not start with its move", r.Move, r.PV)
		}
		if r.MoveLines != 1 {
			t.Errorf("line %s: its move is written over %d lines, want 1", r.Move, r.MoveLines)
		}
	}
	var kind string
	var n int
	if _, err := fmt.Sscan(got.Score, &kind, &n); err != nil {
		t.Fatalf("the analysis's score %q: %v", got.Score, err)
	}
	if got.Side == "black" {
		n = -n
	}
	want := fmt.Sprintf("%+.2f", float64(n)/100)
	if kind == "mate" {
		want = fmt.Sprintf("#%d", n)
	}
	if got.Bar != want {
		t.Errorf("the eval bar reads %q for the score %q of %s, want %q (pawns, White's view)", got.Bar, got.Score, got.Side, want)
	}
	line := got.Rows[1]
	if len(line.PV) < 3 {
		t.Fatalf("the second line's PV %q is under 3 moves", line.PV)
	}
	before := readState(t, ctx).Moves
	run(t, ctx, chromedp.Click(`#analysis tbody tr:nth-child(2) a.pvm[data-k="2"]`, chromedp.ByQuery))
	wantMoves := append(append([]string(nil), before...), line.PV[:3]...)
	waitFor(t, ctx, "the PV's moves to be entered", func() bool {
		var ply int
		run(t, ctx, chromedp.Evaluate(`G.ply`, &ply))
		m := readState(t, ctx).Moves
		return ply == len(wantMoves) && len(m) >= len(wantMoves) && strings.Join(m[:len(wantMoves)], " ") == strings.Join(wantMoves, " ")
	})
	var view string
	run(t, ctx, chromedp.Evaluate(`G.view + location.hash`, &view))
	if view != "analyse#analyse" {
		t.Errorf("after a PV click the page is on %q, want the analysis still", view)
	}
}

func TestBrowserAnalysisGamesAndLiveDashboard(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{MaxSims: 2000})
	run(t, ctx, chromedp.Navigate(f.url+"/?poll=300#analyse"), chromedp.WaitVisible(`body[data-ready="1"]`))
	clickSquare(t, ctx, "e2")
	clickSquare(t, ctx, "e4")
	run(t, ctx, chromedp.Click(`#go`, chromedp.ByQuery))
	waitFor(t, ctx, "arrows", func() bool {
		var n int
		run(t, ctx, chromedp.Evaluate(`document.querySelectorAll('[data-arrow]').length`, &n))
		return n > 0
	})
	time.Sleep(time.Second)
	shot(t, ctx, "analyse")
	run(t, ctx, chromedp.Click(`#stop`, chromedp.ByQuery))
	checkAnalysisLines(t, ctx)

	run(t, ctx, chromedp.Navigate(f.url+"/?poll=300&p=games#games"), chromedp.WaitVisible(`#games-table tbody tr[data-id]`))
	shot(t, ctx, "games")
	run(t, ctx, chromedp.Click(`#games-table tbody tr[data-id]`, chromedp.ByQuery))
	waitFor(t, ctx, "the game to open", func() bool { return len(readState(t, ctx).Moves) > 0 })

	run(t, ctx, chromedp.Navigate(f.url+"/?poll=300&p=training#training"), chromedp.WaitVisible(`[data-chart="losses"] svg[data-points]`))
	points := func() int {
		var n string
		run(t, ctx, chromedp.Evaluate(`document.querySelector('[data-chart="losses"] svg').dataset.points`, &n))
		var v int
		fmt.Sscan(n, &v)
		return v
	}
	before := points()
	if before != 6 {
		t.Errorf("the losses chart has %d points, want 3 series x 2 generations", before)
	}
	fh, err := os.OpenFile(filepath.Join(f.runs, "r1", "metrics.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(metricsLine(3))
	fh.Close()
	waitFor(t, ctx, "the chart to update", func() bool { return points() == 9 })
	// The run's card follows too (it said 2 generations beside 3 points).
	waitFor(t, ctx, "the run card to count 3 generations and name what Games lists", func() bool {
		card := textNow(t, ctx, `#runs button[data-run="r1"] small`)
		return strings.HasPrefix(card, "3 generations") && strings.Contains(card, "(2 in Games)")
	})
	shot(t, ctx, "training")
}

func TestBrowserImportsAPGNFileAndExportsAGameAsPGN(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	pgn := filepath.Join(t.TempDir(), "two.pgn")
	if err := os.WriteFile(pgn, []byte("[Event \"imported\"]\n[Variant \"birds-ninjas\"]\n1. e2e4 e9e7 2. J@e2 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.Navigate(f.url+"/?poll=300&p=games#games"), chromedp.WaitVisible(`#games-table tbody tr[data-id]`))
	run(t, ctx, chromedp.SetUploadFiles(`#pgn-file`, []string{pgn}, chromedp.ByQuery))
	waitFor(t, ctx, "the imported game in the list", func() bool {
		var n int
		run(t, ctx, chromedp.Evaluate(`document.querySelectorAll('#games-table tbody tr[data-id^="saved/pgn-"]').length`, &n))
		return n == 1
	})
	var status string
	run(t, ctx, chromedp.Text(`#pgn-status`, &status, chromedp.ByQuery))
	if !strings.Contains(status, "Imported 1 game") {
		t.Errorf("import status %q", status)
	}
	shot(t, ctx, "games-pgn")
	var text string
	run(t, ctx, chromedp.Evaluate(`fetch(document.querySelector('#games-table tr[data-id^="saved/pgn-"] a.pgn-export').href).then((r) => r.text())`, &text,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	for _, want := range []string{`[Event "imported"]`, `[Variant "birds-ninjas"]`, `[SetUp "1"]`, "1. e2e4 e9e7 2. J@e2 *"} {
		if !strings.Contains(text, want) {
			t.Errorf("the exported PGN lacks %q:\n%s", want, text)
		}
	}
	run(t, ctx, chromedp.Click(`#games-table tbody tr[data-id^="saved/pgn-"]`, chromedp.ByQuery))
	waitFor(t, ctx, "the imported game to open", func() bool { return len(readState(t, ctx).Moves) == 3 })
}

func TestBrowserTrainingChartsLeaveTheTeacherOutAndLabelTheirAxes(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	// r0: generation 0 is the teacher's, a thousand times faster than the
	// self-play of generations 1 to 6.
	dir := filepath.Join(f.runs, "r0")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for gen := 0; gen <= 6; gen++ {
		rec := metrics.Record{Version: 1, Generation: gen, Elapsed: float64(60 * gen), SelfPlay: &metrics.SelfPlay{Games: 10, GamesPerHour: 100 + float64(gen), MeanPlies: 50}}
		if gen == 0 {
			rec.SelfPlay.GamesPerHour = 100000
		}
		b, _ := json.Marshal(rec)
		lines.Write(append(b, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, "metrics.jsonl"), []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.Navigate(f.url+"/?poll=300&p=training#training"), chromedp.WaitVisible(`#runs button[data-run="r0"]`))
	run(t, ctx, chromedp.Click(`#runs button[data-run="r0"]`, chromedp.ByQuery), chromedp.WaitVisible(`[data-chart="gph"] svg[data-points="6"]`))
	var got struct {
		Title  string
		Ticks  []string
		XTicks []string
		Card   string
	}
	var js string
	run(t, ctx, chromedp.Evaluate(`JSON.stringify({
		title: document.querySelector('[data-chart="gph"] h3').textContent,
		ticks: [...document.querySelectorAll('[data-chart="gph"] text.tick[text-anchor="end"]')].map((e) => e.textContent),
		xticks: [...document.querySelectorAll('[data-chart="gph"] text.xtick')].map((e) => e.textContent),
		card: document.querySelector('#runs button[data-run="r0"]').textContent})`, &js))
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Title, "generation 0, the teacher's") {
		t.Errorf("the speed chart's title %q does not say the teacher's generation is left out", got.Title)
	}
	for _, tick := range got.Ticks {
		if strings.HasPrefix(tick, "-") {
			t.Errorf("the speed chart's y axis runs negative: ticks %q", got.Ticks)
			break
		}
	}
	// The y labels: distinct round numbers at one step (98.8, 99.4, 100,
	// 101, 101 read two ticks alike).
	ys := make([]float64, 0, len(got.Ticks))
	for _, tick := range got.Ticks {
		var v float64
		if _, err := fmt.Sscan(tick, &v); err != nil {
			t.Fatalf("the speed chart's y tick %q is not a number", tick)
		}
		ys = append(ys, v)
	}
	if len(ys) < 3 {
		t.Fatalf("the speed chart's y ticks %q: want at least 3", got.Ticks)
	}
	for i := 2; i < len(ys); i++ {
		if step, prev := ys[i]-ys[i-1], ys[1]-ys[0]; step == 0 || math.Abs(step-prev) > 1e-9*math.Max(1, math.Abs(prev)) {
			t.Errorf("the speed chart's y ticks %q are not evenly spaced distinct numbers", got.Ticks)
			break
		}
	}
	if len(got.XTicks) < 4 || got.XTicks[0] != "1" {
		t.Errorf("the speed chart's x ticks %q: want one every generation or so, from 1", got.XTicks)
	}
	if !strings.Contains(got.Card, "70 games") {
		t.Errorf("the run card %q: want the 70 games its metrics record", got.Card)
	}
	shot(t, ctx, "training-teacher")
}

func TestBrowserTrainingOverlaysASecondRunAndShowsTheTeacherPhase(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	// r2: three generations to draw over r1's two; r3: in its teacher phase.
	if err := os.MkdirAll(filepath.Join(f.runs, "r2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.runs, "r2", "metrics.jsonl"), []byte(metricsLine(1)+metricsLine(2)+metricsLine(3)), 0o644); err != nil {
		t.Fatal(err)
	}
	r3 := filepath.Join(f.runs, "r3")
	if err := os.MkdirAll(filepath.Join(r3, "data", "records"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r3, "config.toml"), []byte("[teacher]\nenabled = true\ngames = 200\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		if err := os.WriteFile(filepath.Join(r3, "data", "records", fmt.Sprintf("g%d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, ctx, chromedp.Navigate(f.url+"/?poll=300&p=training#training"), chromedp.WaitVisible(`[data-chart="losses"] svg[data-points="6"]`))
	run(t, ctx, chromedp.SetValue(`#overlay`, "r2", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('overlay').dispatchEvent(new Event('change'))`, nil))
	// r1's 3 series x 2 generations and r2's 3 x 3, r2's dashed.
	run(t, ctx, chromedp.WaitVisible(`[data-chart="losses"] svg[data-points="15"]`))
	var got struct {
		Dashed, Solid int
		Key           string
		Disabled      bool
	}
	var js string
	run(t, ctx, chromedp.Evaluate(`JSON.stringify({
		dashed: document.querySelectorAll('[data-chart="losses"] polyline.series.dashed').length,
		solid: document.querySelectorAll('[data-chart="losses"] polyline.series:not(.dashed)').length,
		key: (document.querySelector('[data-chart="losses"] .overlay-key') || {}).textContent || '',
		disabled: document.querySelector('#overlay option[value="r1"]').disabled})`, &js))
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if got.Dashed != 3 || got.Solid != 3 || !strings.Contains(got.Key, "r2") || !got.Disabled {
		t.Errorf("the overlay: %+v, want 3 dashed series of r2 over 3 solid ones of r1, a key naming r2, r1 not offered", got)
	}
	shot(t, ctx, "training-overlay")

	// The teacher phase: its progress, not six empty charts.
	run(t, ctx, chromedp.Click(`#runs button[data-run="r3"]`, chromedp.ByQuery), chromedp.WaitVisible(`#teacher [data-teacher-games]`))
	var teacher string
	var chartsHidden bool
	run(t, ctx, chromedp.Text(`#teacher`, &teacher, chromedp.ByQuery), chromedp.Evaluate(`document.getElementById('charts').hidden`, &chartsHidden))
	if !strings.Contains(teacher, "30 of 200 games (15%)") || !strings.Contains(teacher, "alphabeta teacher") || !chartsHidden {
		t.Errorf("the teacher card reads %q (charts hidden %v), want 30 of 200 games and no empty charts", teacher, chartsHidden)
	}
	if err := os.WriteFile(filepath.Join(r3, "data", "records", "g30.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the teacher's count to follow", func() bool {
		return textNow(t, ctx, `#teacher [data-teacher-games]`) == "31"
	})
	shot(t, ctx, "training-teacher-phase")
	// Back on r1 the charts return.
	run(t, ctx, chromedp.Click(`#runs button[data-run="r1"]`, chromedp.ByQuery))
	waitFor(t, ctx, "r1's charts", func() bool {
		var ok bool
		run(t, ctx, chromedp.Evaluate(`!document.getElementById('charts').hidden && document.getElementById('teacher').hidden`, &ok))
		return ok
	})
}
