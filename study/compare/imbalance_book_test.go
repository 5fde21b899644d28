package compare

import (
	"cmp"
	"context"
	"strings"
	"testing"

	"bomberzero/env"
	"bomberzero/match"
)

// Given openings are checked as a drawn book's would be: one illegal from
// either colour arrangement's start is refused naming it and the
// arrangement, and a book to draw beside them is refused.
func TestPlayImbalanceRefusesOpeningsIllegalFromItsStarts(t *testing.T) {
	cfg := imbalanceConfig(t, "fbgc", "greedy", "F", "R", 2)
	set, err := newImbalanceSetup(cfg.Variant, "F", "R")
	if err != nil {
		t.Fatal(err)
	}
	// A move legal from the first arrangement's start (White without its
	// bomber on a1) but not from the second's (White without the rook on
	// b1): the freed squares differ.
	// And one legal from both.
	var bad, ok string
	for _, m := range set.starts[0].LegalMoves(nil) {
		gc := set.starts[0].FormatGC(m)
		if _, err := env.PlayMoves(set.starts[1], gc); err != nil {
			bad = cmp.Or(bad, gc)
		} else {
			ok = cmp.Or(ok, gc)
		}
	}
	if bad == "" || ok == "" {
		t.Fatalf("moves %q (legal in arrangement 1 only) and %q (in both): want one of each", bad, ok)
	}
	good := match.Opening{ok}
	for _, tc := range []struct {
		name     string
		openings []match.Opening
		book     int
		want     []string
	}{
		{"illegal in arrangement 2", []match.Opening{good, {bad}}, 0, []string{"opening 1", bad, "arrangement 2"}},
		{"empty", []match.Opening{{}}, 0, []string{"opening 0 is empty"}},
		{"and a book to draw", []match.Opening{good}, 3, []string{"Book 3", "want one"}},
	} {
		c := cfg
		c.Openings, c.Book = tc.openings, tc.book
		_, err := PlayImbalance(context.Background(), c)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, w)
			}
		}
	}
	c := cfg
	c.Openings = []match.Opening{good}
	r, err := PlayImbalance(context.Background(), c)
	if err != nil {
		t.Fatalf("a legal opening %q: %v", good, err)
	}
	if len(r.Book) != 1 || r.Book[0] != good.String() || r.BookPlies != 1 {
		t.Errorf("a legal opening %q: book %q of %d plies; want it played", good, r.Book, r.BookPlies)
	}
}
