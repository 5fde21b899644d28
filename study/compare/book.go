package compare

import (
	"fmt"

	"bomberzero/env"
	"bomberzero/match"
)

// DefaultBookPlies is the length of the shared book's openings.
const DefaultBookPlies = 4

// makeBook draws the shared opening book of c's variants (none when c.Book
// is 0) into c.openings.
func (c *Config) makeBook() error {
	if c.Book <= 0 {
		return nil
	}
	plies := c.openingPlies()
	vs := make([]*env.Variant, len(c.Variants))
	for i, name := range c.Variants {
		v, err := env.LoadVariant(name)
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		vs[i] = v
	}
	book, err := match.RandomBook(vs, c.Book, plies, c.Seed)
	if err != nil {
		return fmt.Errorf("compare: --book: %w", err)
	}
	c.openings = book
	return nil
}

// bookFor returns the shared book's openings as positions of v (nil
// without a book).
func (c *Config) bookFor(v *env.Variant) ([]*env.Position, error) {
	if len(c.openings) == 0 {
		return nil, nil
	}
	return match.BookPositions(v, c.openings)
}

// openingPlies is the length of c's openings, the shared book's and each
// imbalance pair's: c.BookPlies, or DefaultBookPlies when it is 0.
func (c Config) openingPlies() int {
	if c.BookPlies > 0 {
		return c.BookPlies
	}
	return DefaultBookPlies
}

// Book kinds of BookUse.Book.
const (
	// SharedBook is compare's shared book (Config.Book, Result.Book),
	// drawn on the first variant's full start position.
	SharedBook = "shared"
	// ImbalanceBook is an imbalance pair's own book (ImbalanceStudy.Book),
	// drawn on the pair's start positions, the pieces already gone.
	ImbalanceBook = "imbalance"
	// NoBook is the start position, no book.
	NoBook = "none"
)

// BookUse says which opening book one part of a comparison started its
// games from, so that a reader of comparison.json or report.md need not
// know the code to tell (Result.BookUse).
type BookUse struct {
	// Part names the games: "the variants' games", "anchor matches",
	// "policy diversity", "levels", "rule effects", "cross-play" or
	// "imbalance X:Y".
	Part string `json:"part"`
	// Book is SharedBook, ImbalanceBook or NoBook.
	Book     string `json:"book"`
	Openings int    `json:"openings,omitempty"`
	Plies    int    `json:"plies,omitempty"`
	// Note says where the games started instead, or why there is no book.
	Note string `json:"note,omitempty"`
}

// bookUses lists which book each part of res that played games (or, for
// the policy diversity, read positions) started from: the variants' own
// games (unless they came from runs), the anchor matches, the policy
// diversity, the levels, the rule effects and the cross-play from the
// shared book, each imbalance pair from its own (pairBook).
func bookUses(res *Result, cfg Config) []BookUse {
	plies := cfg.openingPlies()
	shared := BookUse{Book: SharedBook, Openings: len(res.Book), Plies: plies,
		Note: "drawn on the first variant's start position, legal in every compared rule set"}
	switch {
	case res.BookNote != "":
		shared = BookUse{Book: NoBook, Note: res.BookNote + "; the variant's start position"}
	case len(res.Book) == 0:
		shared = BookUse{Book: NoBook, Note: "--book 0: the variant's start position"}
	}
	var out []BookUse
	with := func(part string) {
		u := shared
		u.Part = part
		out = append(out, u)
	}
	if len(res.Sources) > 0 {
		switch k := res.Sources[0].Kind; k {
		case "run", "trained":
			out = append(out, BookUse{Part: "the variants' games", Book: NoBook, Note: "the runs' own self-play games, not played by the comparison"})
		default:
			with("the variants' games")
		}
	}
	for _, p := range []struct {
		part string
		ran  bool
	}{
		{"anchor matches", len(res.Anchors) > 0},
		{"policy diversity", len(res.Diversity) > 0},
		{"levels", len(res.Levels) > 0},
		{"rule effects", len(res.RuleEffects) > 0},
		{"cross-play", len(res.Cross) > 0},
	} {
		if p.ran {
			with(p.part)
		}
	}
	for _, st := range res.Imbalances {
		u := BookUse{Part: "imbalance " + st.Pair.X + ":" + st.Pair.Y, Book: ImbalanceBook, Openings: len(st.Book), Plies: st.BookPlies,
			Note: fmt.Sprintf("its own, drawn on the start position without White's %s and Black's %s, legal in both colour arrangements of every variant: the same openings in each", st.Pair.X, st.Pair.Y)}
		switch {
		case st.BookNote != "":
			u = BookUse{Part: u.Part, Book: NoBook, Note: st.BookNote}
		case len(st.Book) == 0:
			u = BookUse{Part: u.Part, Book: NoBook, Note: "--book 0: the pair's start positions"}
		}
		out = append(out, u)
	}
	return out
}
