package compare

import (
	"fmt"
	"strings"

	"bomberzero/env"
)

// Removal names one piece taken off a start position: a square ("a1") or a
// piece letter ("Q"), for one side.
type Removal struct {
	Side env.Color
	// What is the square name or the piece letter as the user wrote it.
	What string
}

// Resolve returns the square the removal names in pos: a square must hold
// a non-royal piece of the removal's side; a letter names that side's piece
// of the type nearest its own back rank, the lowest file first among
// equals (so "R" is a1 for White and a10 for Black in FBGC, "P" the a-pawn).
func (r Removal) Resolve(pos *env.Position) (env.Square, error) {
	v := pos.Variant()
	g := v.Geo
	side := map[env.Color]string{env.White: "White", env.Black: "Black"}[r.Side]
	if r.What == "" {
		return env.NoSquare, fmt.Errorf("compare: no piece named for %s to go without", side)
	}
	if len(r.What) == 1 && r.What[0] >= 'A' && r.What[0] <= 'Z' {
		t := v.PieceByLetter(r.What[0])
		if t == 0 {
			return env.NoSquare, fmt.Errorf("compare: %s without %q: variant %s has no piece with that letter", side, r.What, v.Name)
		}
		if v.Pieces[t].Royal {
			return env.NoSquare, fmt.Errorf("compare: %s without %q: the royal piece cannot be removed", side, r.What)
		}
		for i := 0; i < g.Ranks; i++ {
			rank := g.FirstRank + i
			if r.Side == env.Black {
				rank = g.FirstRank + g.Ranks - 1 - i
			}
			for f := 0; f < g.Files; f++ {
				s := g.At(f, rank)
				if s != env.NoSquare && g.IsReal(s) && pos.At(s) == env.MakePiece(r.Side, t) {
					return s, nil
				}
			}
		}
		return env.NoSquare, fmt.Errorf("compare: %s without %q: %s has no %s on the board", side, r.What, side, v.Pieces[t].Name)
	}
	s, err := g.ParseSquare(r.What)
	if err != nil {
		return env.NoSquare, fmt.Errorf("compare: %s without %q: want a square (e.g. a1) or a piece letter (e.g. Q): %w", side, r.What, err)
	}
	p := pos.At(s)
	switch {
	case p == env.NoPiece:
		return env.NoSquare, fmt.Errorf("compare: %s without %s: the square is empty in %s", side, r.What, pos)
	case p.Color() != r.Side:
		return env.NoSquare, fmt.Errorf("compare: %s without %s: the square holds the other side's %s", side, r.What, v.Pieces[p.Type()].Name)
	case v.Pieces[p.Type()].Royal:
		return env.NoSquare, fmt.Errorf("compare: %s without %s: the royal piece cannot be removed", side, r.What)
	}
	return s, nil
}

// ResolveAll returns the squares of a removal of several pieces, What
// naming them joined by "+" ("R+R", "B+P", "a1+h1"): each part resolves as
// Resolve does, in pos without the parts before it, so "R+R" is both rooks
// (a1, then h1 in chess). A single part gives one square.
func (r Removal) ResolveAll(pos *env.Position) ([]env.Square, error) {
	parts := strings.Split(r.What, "+")
	var out []env.Square
	cur := pos
	for _, part := range parts {
		sq, err := Removal{r.Side, part}.Resolve(cur)
		if err != nil {
			if len(parts) > 1 {
				return nil, fmt.Errorf("%w (part %q of %q)", err, part, r.What)
			}
			return nil, err
		}
		out = append(out, sq)
		if cur, err = Without(pos, out...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Without returns pos with the pieces on squares removed. A removed rook on
// its side's king rank takes that side's castling right towards it (K/Q by
// whether its file is beyond the king's) with it.
func Without(pos *env.Position, squares ...env.Square) (*env.Position, error) {
	v := pos.Variant()
	g := v.Geo
	gone := map[env.Square]bool{}
	for _, s := range squares {
		if s == env.NoSquare || !g.IsReal(s) || pos.At(s) == env.NoPiece {
			return nil, fmt.Errorf("compare: no piece to remove on square %d", s)
		}
		gone[s] = true
	}
	var board strings.Builder
	for i := g.Ranks - 1; i >= 0; i-- {
		rank := g.FirstRank + i
		empty := 0
		flush := func() {
			if empty > 0 {
				fmt.Fprint(&board, empty)
				empty = 0
			}
		}
		for f := 0; f < g.Files; f++ {
			s := g.At(f, rank)
			if !g.IsReal(s) {
				flush()
				board.WriteByte('*')
				continue
			}
			p := pos.At(s)
			if p == env.NoPiece || gone[s] {
				empty++
				continue
			}
			flush()
			c := v.Pieces[p.Type()].Letter
			if p.Color() == env.Black {
				c += 'a' - 'A'
			}
			board.WriteByte(c)
		}
		flush()
		if i > 0 {
			board.WriteByte('/')
		}
	}
	text := pos.String()
	fields := strings.Fields(text)
	if len(fields) < 3 {
		return nil, fmt.Errorf("compare: position text %q: want board, side and castling fields", text)
	}
	if j := strings.IndexByte(fields[0], '['); j >= 0 {
		board.WriteString(fields[0][j:]) // the hands
	}
	fields[0] = board.String()
	fields[2] = dropRights(pos, fields[2], squares)
	out, err := v.ParsePosition(strings.Join(fields, " "))
	if err != nil {
		return nil, fmt.Errorf("compare: the start position without the removed pieces: %w", err)
	}
	return out, nil
}

// dropRights removes from the castling field the rights of removed rooks.
func dropRights(pos *env.Position, rights string, squares []env.Square) string {
	v := pos.Variant()
	g := v.Geo
	for _, s := range squares {
		p := pos.At(s)
		if v.Pieces[p.Type()].Name != "rook" {
			continue
		}
		k := pos.KingSquare(p.Color())
		if k == env.NoSquare || g.Rank(k) != g.Rank(s) {
			continue
		}
		right := byte('Q')
		if g.File(s) > g.File(k) {
			right = 'K'
		}
		if p.Color() == env.Black {
			right += 'a' - 'A'
		}
		rights = strings.ReplaceAll(rights, string(right), "")
	}
	if rights == "" {
		rights = "-"
	}
	return rights
}

// mirror returns the square seen from the other side: same file, mirrored
// rank.
func mirror(g *env.Geometry, s env.Square) env.Square {
	return g.At(g.File(s), g.Mirror(g.Rank(s)))
}
