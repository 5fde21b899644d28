package compare

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"bomberzero/env"
	"bomberzero/match"
)

// A comparison's imbalance pair draws its own book, as `bomberzero
// imbalance` does: every opening is legal from both colour arrangements'
// start positions (the pieces gone) in every variant, every variant's match
// started from the same openings, and the shared book, drawn on the full
// start position, still serves the variants' own games. comparison.json
// and report.md say which book each part used.
func TestCompareImbalancePairsDrawTheirOwnBookOnTheirStartPositions(t *testing.T) {
	cfg := Config{Variants: []string{"fbgc", "fbgc-superpower"}, Player: "alphabeta:1", Games: 4, MaxPlies: 60, Seed: 5,
		Bootstrap: 20, NoValues: true, Anchors: []string{}, Workers: 2, Book: 5, BookPlies: 4,
		Imbalances: []ImbalancePair{{X: "F", Y: "R"}}, ImbalanceGames: 6}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Book) != 5 {
		t.Fatalf("shared book %q, want 5 openings", res.Book)
	}
	if len(res.Imbalances) != 1 {
		t.Fatalf("imbalances %+v, want one pair", res.Imbalances)
	}
	st := res.Imbalances[0]
	// min(--book 5, 6 games / 2 = 3 a colour arrangement): one opening a
	// game of each arrangement, none unused.
	if len(st.Book) != 3 || st.BookPlies != 4 || st.BookNote != "" {
		t.Fatalf("the pair's book %q of %d plies (note %q), want 3 openings of 4 plies", st.Book, st.BookPlies, st.BookNote)
	}
	for i, r := range st.Results {
		if !slices.Equal(r.Book, st.Book) || r.BookPlies != 4 {
			t.Errorf("%s started from %q (%d plies), want the pair's book %q in every variant", cfg.Variants[i], r.Book, r.BookPlies, st.Book)
		}
		v := load(t, r.Variant)
		for k, a := range r.Arrangements {
			start, err := v.ParsePosition(a.Start)
			if err != nil {
				t.Fatal(err)
			}
			if start.String() == v.NewPosition().String() {
				t.Fatalf("%s arrangement %d: start %s without %s and %s: want the pieces gone", r.Variant, k+1, a.Start, a.AWithout, a.BWithout)
			}
			for _, o := range st.Book {
				p, err := env.PlayMoves(start, o)
				if err != nil {
					t.Errorf("%s arrangement %d: opening %q is not legal from the pair's start %s: %v", r.Variant, k+1, o, a.Start, err)
					continue
				}
				if status, _ := p.Status(); status != env.Ongoing || p.Ply()-start.Ply() != 4 {
					t.Errorf("%s arrangement %d: opening %q gives %v after %d plies, want a game going on after 4", r.Variant, k+1, o, status, p.Ply()-start.Ply())
				}
			}
		}
	}
	// The pair's games are the ones its book gives: replaying the first
	// variant's match from the recorded openings with the same seeds gives
	// the same per-game scores.
	ic := imbalanceConfig(t, "fbgc", "alphabeta:1", "F", "R", 6)
	ic.Seed, ic.MaxPlies = cfg.Seed, cfg.MaxPlies
	for _, o := range st.Book {
		ic.Openings = append(ic.Openings, match.Opening(strings.Fields(o)))
	}
	again, err := PlayImbalance(context.Background(), ic)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Scores, st.Results[0].Scores) {
		t.Errorf("replayed from the pair's book: scores %v, the comparison's %v", again.Scores, st.Results[0].Scores)
	}
	// Which book each part used, in comparison.json and in the report.
	want := map[string]BookUse{
		"the variants' games": {Book: SharedBook, Openings: 5, Plies: 4},
		"imbalance F:R":       {Book: ImbalanceBook, Openings: 3, Plies: 4},
	}
	if len(res.BookUse) != len(want) {
		t.Errorf("book use %+v, want the variants' games and the imbalance pair", res.BookUse)
	}
	for _, u := range res.BookUse {
		w, ok := want[u.Part]
		if !ok || u.Book != w.Book || u.Openings != w.Openings || u.Plies != w.Plies || u.Note == "" {
			t.Errorf("book use %+v, want %+v with a note", u, w)
		}
	}
	dir := t.TempDir()
	body := writeReport(t, dir, res)
	for _, s := range []string{
		"| the variants' games | the shared book | 5 | 4 |",
		"| imbalance F:R | the pair's own book | 3 | 4 |",
		"F : R: every variant's games started from the pair's own book of 3 random openings of 4 plies",
		"`" + st.Book[0] + "`",
	} {
		if !strings.Contains(body, s) {
			t.Errorf("report lacks %q:\n%s", s, body)
		}
	}
	js, err := os.ReadFile(dir + "/" + JSONFile)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(js, &back); err != nil || back.Version != 2 || len(back.BookUse) != 2 || !slices.Equal(back.Imbalances[0].Book, st.Book) {
		t.Errorf("comparison.json read back (%v): version %d, book use %+v, the pair's book %q; want version 2 with both", err, back.Version, back.BookUse, back.Imbalances[0].Book)
	}
}

// --book 0 leaves the imbalance pairs at their start positions too, and
// the report and comparison.json say so.
func TestCompareWithoutABookSaysTheImbalanceGamesHadNone(t *testing.T) {
	cfg := Config{Variants: []string{"fbgc", "fbgc-superpower"}, Player: "greedy", Games: 2, MaxPlies: 20, Seed: 2,
		Bootstrap: 20, NoValues: true, Anchors: []string{}, Workers: 1,
		Imbalances: []ImbalancePair{{X: "F", Y: "R"}}, ImbalanceGames: 2}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st := res.Imbalances[0]; len(st.Book) != 0 || len(st.Results[0].Book) != 0 {
		t.Errorf("--book 0: the pair's book %q, the match's %q; want none", st.Book, st.Results[0].Book)
	}
	for _, u := range res.BookUse {
		if u.Book != NoBook || !strings.Contains(u.Note, "--book 0") {
			t.Errorf("--book 0: book use %+v, want none, saying why", u)
		}
	}
	if body := writeReport(t, t.TempDir(), res); !strings.Contains(body, "F : R: no book (--book 0)") {
		t.Errorf("report does not say the imbalance games had no book:\n%s", body)
	}
}

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

// A comparison.json of version 1 (written before the imbalance pairs had
// their own book) still reads into Result: its imbalance results and
// per-game scores are there, and the fields version 2 added are empty.
func TestVersionOneComparisonStillReads(t *testing.T) {
	js, err := os.ReadFile("../../docs/results/superpower-confirm-fast/comparison.json")
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := json.Unmarshal(js, &r); err != nil {
		t.Fatalf("a version 1 comparison.json: %v", err)
	}
	if r.Version != 1 || len(r.Book) != 100 || len(r.Imbalances) != 1 || len(r.Imbalances[0].Results) != 2 ||
		len(r.Imbalances[0].Results[0].Scores) != 3000 || len(r.Imbalances[0].Book) != 0 || len(r.BookUse) != 0 {
		t.Errorf("version %d, shared book %d, imbalances %d: want version 1, 100 openings, one pair of two results with 3000 scores each and no pair book or book use",
			r.Version, len(r.Book), len(r.Imbalances))
	}
}

// A pair's book in fbgc and fbgc-superpower is the book `bomberzero
// imbalance` draws in fbgc with the same seed; rule sets on different
// boards have no opening legal in all of their imbalance positions, and
// the pair gets no book and a note saying why, not an error.
func TestPairBookIsImbalancesOwnOrANoteWhereNoneExists(t *testing.T) {
	srcs := []Source{{Variant: "fbgc"}, {Variant: "chess"}}
	cfg := Config{Book: 3, BookPlies: 4, ImbalanceGames: 6, Seed: 1}
	book, err := pairBook(ImbalancePair{X: "Q", Y: "R"}, srcs, cfg)
	var nb *noBookError
	if !errors.As(err, &nb) || len(book) != 0 || !strings.Contains(err.Error(), "no book for the imbalance Q:R") {
		t.Errorf("fbgc and chess: book %q, error %v; want no book and a note naming the pair", book, err)
	}
	// The same pair on one board has its book: where every opening of the
	// first variant is legal in the others (the Super Power bomber has the
	// limited one's moves and more), the one `bomberzero imbalance` draws
	// in the first variant with the same seed, book size and plies.
	srcs[1].Variant = "fbgc-superpower"
	if book, err = pairBook(ImbalancePair{X: "F", Y: "R"}, srcs, cfg); err != nil || len(book) != 3 {
		t.Fatalf("fbgc and fbgc-superpower: book %q, error %v; want 3 openings", book, err)
	}
	ic := ImbalanceConfig{Variant: load(t, "fbgc"), Book: 3, BookPlies: 4, Seed: cfg.Seed}
	set, err := newImbalanceSetup(ic.Variant, "F", "R")
	if err != nil {
		t.Fatal(err)
	}
	alone, err := imbalanceBook(ic, set.starts, [2]*oddsSetup{})
	if err != nil || !slices.EqualFunc(book, alone, slices.Equal) {
		t.Errorf("the pair's book %q, imbalance's in fbgc alone %q (%v): want the same", book, alone, err)
	}
}
