package env

import "math/bits"

// This file holds the small views of a position that an alpha-beta engine
// needs beyond playing moves: its pieces, a pass (the null move), the
// recency of a repetition, the game ends that need no move generation, and
// a count of the moves a side's pieces could make.

// PromotionRank returns the rank number, as White sees it, on which a pawn
// promotes (Black's is Geo.Mirror of it), or 0 when the variant has no pawns.
func (v *Variant) PromotionRank() int { return v.promoRank }

// RelativeRank returns rank number r as side c sees it (White's numbers).
func (v *Variant) RelativeRank(c Color, r int) int { return v.relRank(c, r) }

// IsScepter says whether s is one of the squares on which side c's king wins.
func (v *Variant) IsScepter(c Color, s Square) bool { return int(s) < maxCells && v.scepter[c].has(s) }

// Pieces appends the squares of side c's pieces on the board to buf, in
// square order, and returns it; it allocates nothing when buf has room.
func (p *Position) Pieces(c Color, buf []Square) []Square {
	for w := 0; w < len(p.occ[c]); w++ {
		for bb := p.occ[c][w]; bb != 0; bb &= bb - 1 {
			buf = append(buf, Square(w*64+bits.TrailingZeros64(bb)))
		}
	}
	return buf
}

// Mobility returns how many moves side c's pieces other than pawns could
// make by their movement rules, whether or not it is c's turn, without
// asking whether they leave c's king attacked (no drops, no castling).
// It is an evaluation term, cheaper than a legal move count.
func (p *Position) Mobility(c Color) int {
	var buf [MaxMoves]Move
	side := p.side
	p.side = c
	n := 0
	for w := 0; w < len(p.occ[c]); w++ {
		for bb := p.occ[c][w]; bb != 0; bb &= bb - 1 {
			s := Square(w*64 + bits.TrailingZeros64(bb))
			t := p.board[s].Type()
			if p.v.Pieces[t].Pawn != NotPawn || t == p.v.king {
				continue
			}
			n += len(p.pieceMoves(buf[:0], s, true))
		}
	}
	p.side = side
	return n
}

// NullUndo is what UndoNull needs to take a pass back.
type NullUndo struct {
	epN  uint8
	ep   [2]Square
	half int
	hash uint64
}

// DoNull passes the move to the other side without moving: the null move
// of a search's null-move pruning. The side to move must not be in check.
// The half-move clock restarts, so that no repetition is counted across
// the pass; UndoNull restores it.
func (p *Position) DoNull() NullUndo {
	u := NullUndo{epN: p.epN, ep: p.ep, half: p.half, hash: p.hash}
	p.hist = append(p.hist, p.hash)
	for i := 0; i < int(p.epN); i++ {
		p.hash ^= p.v.z.ep[p.ep[i]]
	}
	p.epN = 0
	p.half = 0
	if p.side == Black {
		p.full++
	}
	p.side = p.side.Other()
	p.hash ^= p.v.z.side
	return u
}

// UndoNull takes back the pass DoNull returned u for.
func (p *Position) UndoNull(u NullUndo) {
	p.side = p.side.Other()
	if p.side == Black {
		p.full--
	}
	p.epN, p.ep, p.half, p.hash = u.epN, u.ep, u.half, u.hash
	p.hist = p.hist[:len(p.hist)-1]
}

// Repetition returns how many times this position (same side to move)
// occurred before since the last irreversible move, and how many plies ago
// the latest of them was (0 when there is none). A search scores a
// position repeated inside its own tree as a draw at once.
func (p *Position) Repetition() (count, plies int) {
	for i := len(p.hist) - 2; i >= 0 && i >= len(p.hist)-p.half; i -= 2 {
		if p.hist[i] == p.hash {
			if count == 0 {
				plies = len(p.hist) - i
			}
			count++
		}
	}
	return count, plies
}

// ScepterWon says whether the side that just moved has won by bringing its
// king onto its scepter squares: the one game end that comes before any
// move count.
func (p *Position) ScepterWon() bool {
	them := p.side.Other()
	k := p.king[them]
	return k != NoSquare && p.v.scepter[them].has(k)
}
