package match

import (
	"context"
	"slices"
	"strings"
	"testing"

	"bomberzero/env"
)

func TestRandomBookIsDistinctPlayableInEveryVariantAndSeeded(t *testing.T) {
	vs := []*env.Variant{mustVariant(t, "fbgc"), mustVariant(t, "fbgc-superpower")}
	book, err := RandomBook(vs, 40, 4, 9)
	if err != nil {
		t.Fatal(err)
	}
	if len(book) != 40 {
		t.Fatalf("%d openings, want 40", len(book))
	}
	seen := map[string]bool{}
	for _, o := range book {
		if len(o) != 4 || seen[o.String()] {
			t.Fatalf("opening %q: want 4 plies, each opening once", o)
		}
		seen[o.String()] = true
		for _, v := range vs {
			p, err := env.PlayMoves(v.NewPosition(), o.String())
			if err != nil || p.Ply() != 4 {
				t.Fatalf("opening %q in %s: %v", o, v.Name, err)
			}
		}
	}
	again, _ := RandomBook(vs, 40, 4, 9)
	other, _ := RandomBook(vs, 40, 4, 10)
	if !slices.EqualFunc(book, again, slices.Equal) || slices.EqualFunc(book, other, slices.Equal) {
		t.Error("the book does not follow its seed")
	}
	if _, err := RandomBook(vs, 10, 0, 1); err == nil {
		t.Error("a book of 0-ply openings accepted")
	}
}

func TestAMatchOnABookPlaysEachOpeningWithBothColours(t *testing.T) {
	v := mustVariant(t, "fbgc")
	book, err := RandomBook([]*env.Variant{v}, 3, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	starts, err := BookPositions(v, book)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Parse("random", v, Options{})
	b, _ := Parse("greedy", v, Options{})
	r, err := Run(context.Background(), Config{A: a, B: b, Games: 8, Variant: v, MaxPlies: 6, Seed: 2, Workers: 2, Book: starts, KeepGames: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range r.Records {
		want := starts[(g.Index/2)%len(starts)]
		if g.Start != want {
			t.Errorf("game %d started from %v, want opening %d", g.Index, g.Start, (g.Index/2)%len(starts))
		}
		if (g.White == a.Spec) != AWhiteIn(g.Index) {
			t.Errorf("game %d: White is %s", g.Index, g.White)
		}
	}
	if len(r.Records) != 8 {
		t.Errorf("%d games kept, want 8", len(r.Records))
	}
}

// A book drawn from given positions (an imbalance's start, pieces gone)
// plays from every one of them, keeps only what accept keeps and follows
// its seed; when nothing is accepted it fails instead of looping.
func TestRandomBookFromIsLegalInEveryStartAndHonoursAccept(t *testing.T) {
	v := mustVariant(t, "chess")
	noQueen, err := v.ParsePosition("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	noRooks, err := v.ParsePosition("1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	starts := []*env.Position{noQueen, noRooks}
	noA2 := func(o Opening) bool { return !strings.Contains(o.String(), "a2") }
	book, err := RandomBookFrom(starts, 30, 4, 5, noA2)
	if err != nil {
		t.Fatal(err)
	}
	if len(book) != 30 {
		t.Fatalf("%d openings, want 30", len(book))
	}
	seen := map[string]bool{}
	for _, o := range book {
		if len(o) != 4 || seen[o.String()] || !noA2(o) {
			t.Fatalf("opening %q: want 4 plies, distinct, no a2", o)
		}
		seen[o.String()] = true
	}
	for k, s := range starts {
		ps, err := OpeningPositions(s, book)
		if err != nil {
			t.Fatalf("start %d: %v", k, err)
		}
		for i, p := range ps {
			if res, _ := p.Status(); p.Ply()-s.Ply() != 4 || res != env.Ongoing {
				t.Errorf("start %d, opening %q: ply %d, %v; want 4 plies on and the game going on", k, book[i], p.Ply()-s.Ply(), res)
			}
		}
	}
	again, _ := RandomBookFrom(starts, 30, 4, 5, noA2)
	other, _ := RandomBookFrom(starts, 30, 4, 6, noA2)
	if !slices.EqualFunc(book, again, slices.Equal) || slices.EqualFunc(book, other, slices.Equal) {
		t.Error("the book does not follow its seed")
	}
	if _, err := RandomBookFrom(starts, 3, 2, 1, func(Opening) bool { return false }); err == nil || !strings.Contains(err.Error(), "only 0 distinct openings") {
		t.Errorf("nothing accepted: error %v, want only 0 openings found", err)
	}
	if _, err := RandomBookFrom(nil, 3, 2, 1, nil); err == nil {
		t.Error("a book from no positions accepted")
	}
}

// Starts gives every game its own start, replacing Start and Book.
func TestAMatchOnStartsPlaysGameIFromStartI(t *testing.T) {
	v := mustVariant(t, "chess")
	book, err := RandomBook([]*env.Variant{v}, 3, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	starts, err := BookPositions(v, book)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Parse("random", v, Options{})
	r, err := Run(context.Background(), Config{A: a, B: a, Games: 5, Variant: v, MaxPlies: 4, Seed: 2, Workers: 2, Starts: starts, Book: starts[:1], KeepGames: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range r.Records {
		if want := starts[g.Index%len(starts)]; g.Start != want {
			t.Errorf("game %d started from %v, want start %d", g.Index, g.Start, g.Index%len(starts))
		}
	}
	if len(r.Records) != 5 {
		t.Errorf("%d games kept, want 5", len(r.Records))
	}
}
