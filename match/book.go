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
	rng := rand.New(rand.NewPCG(seed, 0x626f6f6b))
	seen := map[string]bool{}
	var book []Opening
	buf := make([]env.Move, 0, env.MaxMoves)
	for tries := 0; len(book) < n; tries++ {
		if tries > 100*n+1000 {
			return nil, fmt.Errorf("match: opening book: only %d distinct openings of %d plies found, %d wanted", len(book), plies, n)
		}
		pos := vs[0].NewPosition()
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
		if len(o) < plies || seen[o.String()] || !playsInAll(vs, o) {
			continue
		}
		seen[o.String()] = true
		book = append(book, o)
	}
	return book, nil
}

// playsInAll reports whether o is legal in every variant of vs and leaves
// a game that goes on.
func playsInAll(vs []*env.Variant, o Opening) bool {
	for _, v := range vs {
		p, err := env.PlayMoves(v.NewPosition(), o.String())
		if err != nil {
			return false
		}
		if res, _ := p.Status(); res != env.Ongoing {
			return false
		}
	}
	return true
}

// BookPositions plays each opening of book from v's start position and
// returns the positions reached, for Config.Book.
func BookPositions(v *env.Variant, book []Opening) ([]*env.Position, error) {
	out := make([]*env.Position, len(book))
	for i, o := range book {
		p, err := env.PlayMoves(v.NewPosition(), o.String())
		if err != nil {
			return nil, fmt.Errorf("match: opening %d (%s) in %s: %w", i, o, v.Name, err)
		}
		out[i] = p
	}
	return out, nil
}
