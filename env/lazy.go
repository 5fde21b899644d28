package env

import "math/bits"

// This file lets a search test legality lazily: it generates the moves
// that obey the movement rules (PseudoMoves, PseudoTacticalMoves) and asks
// Legal of each only when it is about to play it, so that a node cut off
// early never tests the moves it did not try. Filtered by Legal, the two
// lists are exactly LegalMoves' and TacticalMoves', in the same order.

// Legality is the state of the lazy legality tests of one position: the
// side to move's king and whether it is in check, and, computed at the
// first test that needs it, the squares a move must touch to matter for
// the king (the pinned pieces' squares, or the check zone in check). Get
// it from Position.Legality; it is valid while the position is unchanged.
type Legality struct {
	ksq     Square
	inCheck bool
	ready   bool
	set     sqSet
}

// Legality returns the lazy legality state of the position, inCheck
// saying whether the side to move is in check (what InCheck returns; a
// wrong one gives wrong answers). It computes nothing yet.
func (p *Position) Legality(inCheck bool) Legality {
	return Legality{ksq: p.king[p.side], inCheck: inCheck}
}

// PseudoMoves appends to buf the moves of the side to move that obey the
// movement rules (castling tested in full), in LegalMovesChecked's order,
// without testing whether they leave the king attacked: the legal ones are
// those for which Legal holds. A game already won by the scepter has none.
func (p *Position) PseudoMoves(buf []Move, inCheck bool) []Move {
	if k := p.king[p.side.Other()]; k != NoSquare && p.v.scepter[p.side.Other()].has(k) {
		return buf
	}
	return p.pseudoMoves(buf, inCheck)
}

// PseudoTacticalMoves appends to buf the moves of PseudoMoves that remove
// a piece or promote, in TacticalMovesChecked's order, generating no quiet
// move but pawn pushes (dropped again): filtered by Legal, they are
// TacticalMovesChecked's list.
func (p *Position) PseudoTacticalMoves(buf []Move, inCheck bool) []Move {
	us, them := p.side, p.side.Other()
	if k := p.king[them]; k != NoSquare && p.v.scepter[them].has(k) {
		return buf
	}
	start := len(buf)
	for w := 0; w < len(p.occ[us]); w++ {
		for bb := p.occ[us][w]; bb != 0; bb &= bb - 1 {
			buf = p.pieceMoves(buf, Square(w*64+bits.TrailingZeros64(bb)), inCheck, false)
		}
	}
	out := start
	for i := start; i < len(buf); i++ {
		if p.IsTactical(buf[i]) {
			buf[out] = buf[i]
			out++
		}
	}
	return buf[:out]
}

// Legal says whether m, a move of PseudoMoves or PseudoTacticalMoves of
// this position, is legal (does not leave the mover's king attacked), with
// l the position's Legality: the test LegalMovesChecked applies to each
// move, done for this one alone.
func (p *Position) Legal(m Move, l *Legality) bool {
	if l.ksq == NoSquare || m.Kind() == Castle {
		return true // castling is checked in full when generated
	}
	us := p.side
	if l.inCheck {
		if !l.ready {
			l.set, l.ready = p.checkZone(l.ksq, us.Other()), true
		}
		if m.Kind() == Drop {
			return l.set.has(m.To()) && p.safeAfter(m, l.ksq, us)
		}
		if m.From() != l.ksq && !p.touches(m, &l.set) {
			return false // leaves every square the check depends on as it is
		}
		return p.safeAfter(m, l.ksq, us)
	}
	switch {
	case m.Kind() == Drop:
		return true
	case m.Kind() == EnPassant || m.fly() || m.From() == l.ksq:
		return p.safeAfter(m, l.ksq, us)
	}
	if !l.ready {
		l.set, l.ready = p.sensitive(l.ksq, us), true
	}
	return !(l.set.has(m.From()) || l.set.has(m.To())) || p.safeAfter(m, l.ksq, us)
}
