package match

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"bomberzero/env"
)

// An Opening is a short line of moves from a variant's start position, in
// Game Courier text: one entry of an opening book.
type Opening []string

// String writes the opening as the moves separated by spaces.
func (o Opening) String() string { return strings.Join(o, " ") }

// RandomBook returns n distinct openings of plies uniformly random legal
// moves from the start position of vs[0], each legal in every variant of
// vs (so one book serves a comparison of rule sets: the same openings in
// each) and leaving a game that is not over. Opening k depends only on
// seed and k's draw order, so the same arguments give the same book. It
// fails when too few distinct openings can be found.
func RandomBook(vs []*env.Variant, n, plies int, seed uint64) ([]Opening, error) {
	if len(vs) == 0 || n < 1 || plies < 1 {
		return nil, fmt.Errorf("match: opening book: want variants, n >= 1 and plies >= 1 (got %d, %d, %d)", len(vs), n, plies)
	}
	starts := make([]*env.Position, len(vs))
	for i, v := range vs {
		starts[i] = v.NewPosition()
	}
	return randomBook(starts, n, plies, seed, nil, "")
}

// randomBook draws RandomBookFrom's openings from starts[0]; where names
// the positions in its error ("" for the variants' start positions).
func randomBook(starts []*env.Position, n, plies int, seed uint64, accept func(Opening) bool, where string) ([]Opening, error) {
	rng := rand.New(rand.NewPCG(seed, 0x626f6f6b))
	seen := map[string]bool{}
	var book []Opening
	buf := make([]env.Move, 0, env.MaxMoves)
	for tries := 0; len(book) < n; tries++ {
		if tries > 100*n+1000 {
			return nil, fmt.Errorf("match: opening book: only %d distinct openings of %d plies found%s, %d wanted", len(book), plies, where, n)
		}
		pos := starts[0].Clone()
		var o Opening
		for range plies {
			if res, _ := pos.Status(); res != env.Ongoing {
				break
			}
			moves := pos.LegalMoves(buf[:0])
			m := moves[rng.IntN(len(moves))]
			o = append(o, pos.FormatGC(m))
			pos.DoMove(m)
		}
		if len(o) < plies || seen[o.String()] || !playsFromAll(starts, o) || (accept != nil && !accept(o)) {
			continue
		}
		seen[o.String()] = true
		book = append(book, o)
	}
	return book, nil
}

// BookPositions plays each opening of book from v's start position and
// returns the positions reached, for Config.Book.
func BookPositions(v *env.Variant, book []Opening) ([]*env.Position, error) {
	out, err := OpeningPositions(v.NewPosition(), book)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, v.Name)
	}
	return out, nil
}

// RandomBookFrom is RandomBook from given positions instead of variants'
// start positions: n distinct openings of plies uniformly random legal
// moves from starts[0], each legal in every position of starts and leaving
// a game that is not over in each, and accepted by accept (nil accepts
// all). An imbalance match draws its book so, from the start position
// with its pieces removed (the openings must be legal there, not in the
// full start position). The same arguments give the same book; it fails
// when too few distinct openings can be found.
func RandomBookFrom(starts []*env.Position, n, plies int, seed uint64, accept func(Opening) bool) ([]Opening, error) {
	if len(starts) == 0 || n < 1 || plies < 1 {
		return nil, fmt.Errorf("match: opening book: want start positions, n >= 1 and plies >= 1 (got %d, %d, %d)", len(starts), n, plies)
	}
	if res, why := starts[0].Status(); res != env.Ongoing {
		return nil, fmt.Errorf("match: opening book: the start position is already over (%s, %s)", res, why)
	}
	return randomBook(starts, n, plies, seed, accept, " from the given positions")
}

// playsFromAll reports whether o is legal from every position of starts
// and leaves a game that goes on.
func playsFromAll(starts []*env.Position, o Opening) bool {
	for _, s := range starts {
		p, err := env.PlayMoves(s, o.String())
		if err != nil {
			return false
		}
		if res, _ := p.Status(); res != env.Ongoing {
			return false
		}
	}
	return true
}

// OpeningPositions plays each opening of book from start (not changed)
// and returns the positions reached, for Config.Starts or Config.Book.
func OpeningPositions(start *env.Position, book []Opening) ([]*env.Position, error) {
	out := make([]*env.Position, len(book))
	for i, o := range book {
		p, err := env.PlayMoves(start, o.String())
		if err != nil {
			return nil, fmt.Errorf("match: opening %d (%s): %w", i, o, err)
		}
		out[i] = p
	}
	return out, nil
}
