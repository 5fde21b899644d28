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

// Mobility returns about how many moves side c's pieces other than pawns
// and the king could make by their movement rules, whether or not it is
// c's turn: each leap to an empty square or onto an enemy, each empty
// square along a slide, each capture at a slide's end, each bombing
// landing and helicopter leap, without asking whether the move leaves c's
// king attacked or is listed twice by two of the piece's rules. It is an
// evaluation term: a count, cheaper than generating the moves.
func (p *Position) Mobility(c Color) int {
	v := p.v
	g := v.Geo
	board := &p.board
	n := 0
	for w := 0; w < len(p.occ[c]); w++ {
		for bb := p.occ[c][w]; bb != 0; bb &= bb - 1 {
			s := w*64 + bits.TrailingZeros64(bb)
			ti := board[s].Type()
			t := &v.Pieces[ti]
			if t.Pawn != NotPawn || ti == v.king {
				continue
			}
			for _, lt := range t.leaps[s] {
				if q := board[lt.to]; q == NoPiece {
					n += int(lt.mode & modeMove)
				} else if q.Color() != c {
					n += int(lt.mode&modeCapture) >> 1
				}
			}
			// Only the directions the piece slides, captures or bombs along.
			for lines := t.slideMove | t.slideCap | t.bomb; lines != 0; lines &= lines - 1 {
				d := bits.TrailingZeros8(lines)
				bit := uint8(1) << d
				ray := g.rays[s][d]
				i := 0
				for i < len(ray) && board[ray[i]] == NoPiece {
					i++
				}
				if t.slideMove&bit != 0 {
					n += i
				}
				if i < len(ray) && board[ray[i]].Color() != c {
					if t.slideCap&bit != 0 {
						n++
					}
					if t.bomb&bit != 0 && i+1 < len(ray) && board[ray[i+1]] == NoPiece {
						n++
					}
				}
			}
			for heli := t.heli; heli != 0; heli &= heli - 1 {
				d := bits.TrailingZeros8(heli)
				if l := g.hops[s][d].land; l != NoSquare && (board[l] == NoPiece || board[l].Color() != c) {
					n++
				}
			}
		}
	}
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

// Moved returns the piece the move of u took from its square, before any
// promotion (the king for a castle); NoPiece for a drop. With Captures and
// Capture it tells an incremental evaluation what the move changed without
// walking the move again.
func (u *Undo) Moved() Piece { return u.moved }

// Captures returns how many pieces the move of u removed (at most two: a
// double capture); a castle's rook is not one.
func (u *Undo) Captures() int { return int(u.nCap) }

// Capture returns the square and the piece of the i-th piece the move of
// u removed, i below Captures().
func (u *Undo) Capture(i int) (Square, Piece) { return u.capSq[i], u.capP[i] }
