package match

import (
	"context"
	"slices"
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
