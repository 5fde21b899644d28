package web

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"testing"

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
	for _, v := range vs.Variants {
		var info VariantInfo
		if code, msg := call(t, "GET", f.url+"/api/variants/"+v.Name, "", &info); code != 200 {
			t.Fatal(code, msg)
		}
		var st State
		if code, msg := call(t, "POST", f.url+"/api/game", fmt.Sprintf(`{"variant":%q}`, v.Name), &st); code != 200 {
			t.Fatal(code, msg)
		}
		run(t, ctx, chromedp.Navigate(f.url+"/?variant="+v.Name+"#play"), chromedp.WaitVisible(`body[data-ready="1"]`))
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
			below: document.getElementById('board').getBoundingClientRect().bottom,
			height: window.innerHeight})`, &js))
		var got struct {
			Pieces        []drawnPiece
			Holes         []string
			Symbols       int
			Below, Height float64
		}
		if err := json.Unmarshal([]byte(js), &got); err != nil {
			t.Fatal(err)
		}
		if got.Symbols < 12 {
			t.Fatalf("%s: %d piece symbols defined", v.Name, got.Symbols)
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
		if v.Name == "birds-ninjas" {
			shot(t, ctx, "birds-ninjas")
		}
		if v.Name == "fbgc" {
			shot(t, ctx, "fbgc-start")
		}
	}
}
