package web

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"bomberzero/datasets/record"
)

// treeView reads the line on view, the ply, the main line of the tree and
// the move list's text.
type treeView struct {
	Moves   []string
	Ply     int
	Main    []string
	Vars    []string // the text of each variations row
	Promote bool     // the promote button is shown
}

func readTree(t *testing.T, ctx context.Context) treeView {
	t.Helper()
	var js string
	run(t, ctx, chromedp.Evaluate(`JSON.stringify({moves: G.moves, ply: G.ply, main: mainAfter(G.tree),
		vars: [...document.querySelectorAll('#moves li.vars')].map((e) => e.textContent),
		promote: !document.getElementById('promote').hidden})`, &js))
	var v treeView
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// typeMove types a move into the move box and waits for the ply after it.
func typeMove(t *testing.T, ctx context.Context, move string, ply int) {
	t.Helper()
	run(t, ctx, chromedp.SendKeys(`#move-input`, move+"\r", chromedp.ByQuery))
	waitFor(t, ctx, "ply "+fmt.Sprint(ply)+" after "+move, func() bool {
		v := readTree(t, ctx)
		return v.Ply == ply && len(v.Moves) >= ply && v.Moves[ply-1] == move
	})
}

// clickMove clicks a move of the list by its text, in the main line or
// in a variation, and waits for the ply.
func clickMove(t *testing.T, ctx context.Context, move string, variation bool, ply int) {
	t.Helper()
	sel := fmt.Sprintf(`#moves li:not(.vars) .mv[data-ply="%d"]`, ply)
	if variation {
		sel = fmt.Sprintf(`#moves li.vars .mv[data-ply="%d"]`, ply)
	}
	var ok bool
	run(t, ctx, chromedp.Evaluate(fmt.Sprintf(`(() => { const e = [...document.querySelectorAll(%q)].find((x) => x.textContent === %q); if (!e) return false; e.click(); return true; })()`, sel, move), &ok))
	if !ok {
		t.Fatalf("no move %s at ply %d (variation %v) in the list", move, ply, variation)
	}
	waitFor(t, ctx, "ply "+fmt.Sprint(ply)+" at "+move, func() bool {
		v := readTree(t, ctx)
		return v.Ply == ply && v.Moves[ply-1] == move && textNow(t, ctx, `#moves .mv.cur`) == move
	})
}

func TestBrowserVariationTreeBranchesNavigatesAndPromotes(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	run(t, ctx, chromedp.Navigate(f.url+"/#analyse"), chromedp.WaitVisible(`body[data-ready="1"]`))
	for i, m := range []string{"e2-e4", "e9-e8", "d2-d3", "d9-d8"} {
		typeMove(t, ctx, m, i+1)
	}
	main := []string{"e2-e4", "e9-e8", "d2-d3", "d9-d8"}

	// Another move from ply 1 starts a variation; the main line stays.
	clickMove(t, ctx, "e2-e4", false, 1)
	typeMove(t, ctx, "c9-c8", 2)
	typeMove(t, ctx, "c2-c3", 3)
	v := readTree(t, ctx)
	if !reflect.DeepEqual(v.Main, main) || !reflect.DeepEqual(v.Moves, []string{"e2-e4", "c9-c8", "c2-c3"}) {
		t.Fatalf("after a variation: main %v, on view %v", v.Main, v.Moves)
	}
	if len(v.Vars) != 1 || v.Vars[0] != "(1…c9-c82.c2-c3)" || !v.Promote {
		t.Errorf("the variations row reads %q (promote shown %v), want (1…c9-c8 2.c2-c3)", v.Vars, v.Promote)
	}
	// A variation inside the variation, from its ply 2.
	clickMove(t, ctx, "c9-c8", true, 2)
	typeMove(t, ctx, "b2-b3", 3)
	v = readTree(t, ctx)
	if len(v.Vars) != 1 || !strings.Contains(v.Vars[0], "(2.b2-b3)") {
		t.Errorf("a nested variation: %q", v.Vars)
	}
	shot(t, ctx, "variations")

	// PGN keeps the variations, the nested one too.
	var pgn string
	run(t, ctx, chromedp.Evaluate(`mainPGN()`, &pgn,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	games, err := record.ParsePGN(pgn, "chess")
	wantVars := []record.Variation{{At: 1, Moves: []string{"c9-c8", "c2-c3"}, Variations: []record.Variation{{At: 1, Moves: []string{"b2-b3"}}}}}
	if err != nil || len(games) != 1 || !reflect.DeepEqual(games[0].Moves, main) || !reflect.DeepEqual(games[0].Variations, wantVars) {
		t.Errorf("the PGN download %q reads back as %+v (%v), want the main line %v and the variations %+v", pgn, games, err, main, wantVars)
	}

	// Navigate: the main line, then the variation; the board follows.
	clickMove(t, ctx, "d2-d3", false, 3)
	if v = readTree(t, ctx); !reflect.DeepEqual(v.Moves, main) || v.Promote {
		t.Errorf("on the main line: %v (promote shown %v)", v.Moves, v.Promote)
	}
	clickMove(t, ctx, "c2-c3", true, 3)
	var pos string
	run(t, ctx, chromedp.Evaluate(`G.state.position`, &pos))
	var want struct{ Position string }
	call(t, "POST", f.url+"/api/game", `{"variant":"fbgc","moves":["e2-e4","c9-c8","c2-c3"]}`, &want)
	if pos != want.Position {
		t.Errorf("the board at the variation's ply 3: %q, want %q", pos, want.Position)
	}

	// Promote the variation: it is the main line, the old one a variation.
	run(t, ctx, chromedp.Click(`#promote`, chromedp.ByQuery))
	waitFor(t, ctx, "the promotion", func() bool { return readTree(t, ctx).Main[1] == "c9-c8" })
	v = readTree(t, ctx)
	if !reflect.DeepEqual(v.Main, []string{"e2-e4", "c9-c8", "c2-c3"}) || v.Promote || len(v.Vars) != 2 ||
		!strings.Contains(v.Vars[0], "1…e9-e8") || !strings.Contains(v.Vars[1], "2.b2-b3") {
		t.Errorf("after promoting: main %v, variations %q, promote shown %v", v.Main, v.Vars, v.Promote)
	}

	// Download writes the main line, whatever the line on view.
	clickMove(t, ctx, "e9-e8", true, 2)
	var text string
	run(t, ctx, chromedp.Evaluate(`mainRecord()`, &text,
		func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	rec, err := record.Parse(text)
	if err != nil || !reflect.DeepEqual(rec.Moves, []string{"e2-e4", "c9-c8", "c2-c3"}) {
		t.Errorf("the downloaded record: %v, moves %v, want the main line", err, rec)
	}

	// Delete the old main line, now a variation: back to ply 1.
	clickMove(t, ctx, "d2-d3", true, 3)
	run(t, ctx, chromedp.Click(`#delvar`, chromedp.ByQuery))
	waitFor(t, ctx, "the deletion", func() bool { return len(readTree(t, ctx).Vars) == 1 })
	v = readTree(t, ctx)
	if v.Ply != 1 || !reflect.DeepEqual(v.Main, []string{"e2-e4", "c9-c8", "c2-c3"}) || strings.Contains(v.Vars[0], "e9-e8") {
		t.Errorf("after deleting: ply %d, main %v, variations %q", v.Ply, v.Main, v.Vars)
	}
}

// TestBrowserImportedPGNOpensWithItsVariations imports a PGN game with
// nested variations and opens it from the games page: the page's tree
// holds the main line and every variation (treeVars gives back the
// imported ones) and the move list shows them.
func TestBrowserImportedPGNOpensWithItsVariations(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t, Config{})
	pgn := "[Variant \"fbgc\"]\n1. e2e4 (1. d2d4 d9d7 (1... e9e7 2. c2c4) 2. c2c4) 1... e9e7 2. d2d3 (2. f2f3) *\n"
	want, err := record.ParsePGN(pgn, "chess")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"pgn": pgn})
	var imp struct{ IDs []string }
	if code, msg := call(t, "POST", f.url+"/api/games/import", string(body), &imp); code != 200 || len(imp.IDs) != 1 {
		t.Fatalf("import: %d %q %v", code, msg, imp)
	}
	run(t, ctx, chromedp.Navigate(f.url+"/#games"), chromedp.WaitVisible(`body[data-ready="1"]`))
	waitFor(t, ctx, "the imported game in the list", func() bool {
		var n int
		run(t, ctx, chromedp.Evaluate(fmt.Sprintf(`document.querySelectorAll('#games-table tr[data-id=%q]').length`, imp.IDs[0]), &n))
		return n == 1
	})
	run(t, ctx, chromedp.Evaluate(fmt.Sprintf(`document.querySelector('#games-table tr[data-id=%q]').click()`, imp.IDs[0]), nil))
	waitFor(t, ctx, "the game opened", func() bool {
		v := readTree(t, ctx)
		return reflect.DeepEqual(v.Main, want[0].Moves) && len(v.Vars) > 0
	})
	var js string
	run(t, ctx, chromedp.Evaluate(`JSON.stringify(treeVars(G.tree))`, &js))
	var got []record.Variation
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	// Compared as JSON, where no variations and an empty list are one.
	if g, w := mustJSON(t, got), mustJSON(t, want[0].Variations); g != w {
		t.Errorf("the page's tree has the variations %+v, want the imported %+v", got, want[0].Variations)
	}
	if v := readTree(t, ctx); len(v.Vars) != 2 || !strings.Contains(v.Vars[0], "e9-e7") || !strings.Contains(v.Vars[1], "f2-f3") {
		t.Errorf("the move list's variation rows read %q", v.Vars)
	}
	shot(t, ctx, "imported-variations")
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
