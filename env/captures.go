package env

import "math/bits"

// TacticalMoves appends to buf the legal moves of the side to move that
// remove an enemy piece (captures, en passant, the bomber's fly-over double
// captures) or promote (pawn promotions and the landing promotions of a
// variant's landing squares), and returns it. They are exactly the moves of
// LegalMoves for which IsTactical holds, in the same order, but quiet moves,
// castling and drops are never generated, so it is what a quiescence search
// wants. It allocates nothing when buf has room (MaxMoves is always enough).
// A game already won by the scepter has no legal moves.
func (p *Position) TacticalMoves(buf []Move) []Move {
	return p.TacticalMovesChecked(buf, p.InCheck())
}

// TacticalMovesChecked is TacticalMoves told whether the side to move is
// in check (what InCheck returns), for a caller that has just asked: a
// search passes it down from the move that led here. A wrong inCheck
// gives a wrong list.
func (p *Position) TacticalMovesChecked(buf []Move, inCheck bool) []Move {
	us, them := p.side, p.side.Other()
	if k := p.king[them]; k != NoSquare && p.v.scepter[them].has(k) {
		return buf
	}
	start := len(buf)
	ksq := p.king[us]
	for w := 0; w < len(p.occ[us]); w++ {
		for bb := p.occ[us][w]; bb != 0; bb &= bb - 1 {
			buf = p.pieceMoves(buf, Square(w*64+bits.TrailingZeros64(bb)), inCheck, false)
		}
	}
	// Keep only the moves that really remove a piece or promote (pawns'
	// pushes and the helicopter's quiet hops are generated too), then test
	// legality as LegalMoves does.
	var pinned sqSet
	if ksq != NoSquare && !inCheck {
		pinned = p.sensitive(ksq, us)
	}
	out := start
	for i := start; i < len(buf); i++ {
		m := buf[i]
		if !p.IsTactical(m) {
			continue
		}
		if ksq != NoSquare && (inCheck || m.Kind() == EnPassant || m.fly() || m.From() == ksq || pinned.has(m.From()) || pinned.has(m.To())) {
			if !p.safeAfter(m, ksq, us) {
				continue
			}
		}
		buf[out] = m
		out++
	}
	return buf[:out]
}

// IsTactical says whether m (a legal or pseudo-legal move of the side to
// move) removes a piece or promotes; castling and drops never do.
func (p *Position) IsTactical(m Move) bool {
	switch m.Kind() {
	case Castle, Drop:
		return false
	case EnPassant:
		return true
	}
	if m.Promotion() != 0 || p.board[m.To()] != NoPiece {
		return true
	}
	if m.fly() {
		_, n := p.removals(m)
		return n > 0
	}
	return false
}

// HasLegalMove says whether the side to move has a legal move; it stops at
// the first one found, piece by piece, so it is much cheaper than
// LegalMoves when the answer is yes.
func (p *Position) HasLegalMove() bool {
	us, them := p.side, p.side.Other()
	if k := p.king[them]; k != NoSquare && p.v.scepter[them].has(k) {
		return false
	}
	ksq := p.king[us]
	inCheck := ksq != NoSquare && p.attacked(ksq, them)
	var pinned sqSet
	if ksq != NoSquare && !inCheck {
		pinned = p.sensitive(ksq, us)
	}
	var buf [MaxMoves]Move
	legal := func(moves []Move) bool {
		if ksq == NoSquare {
			return len(moves) > 0
		}
		for _, m := range moves {
			switch {
			case m.Kind() == Castle:
				return true
			case m.Kind() == Drop:
				if !inCheck || p.safeAfter(m, ksq, us) {
					return true
				}
			case inCheck || m.Kind() == EnPassant || m.fly() || m.From() == ksq || pinned.has(m.From()) || pinned.has(m.To()):
				if p.safeAfter(m, ksq, us) {
					return true
				}
			default:
				return true
			}
		}
		return false
	}
	for w := 0; w < len(p.occ[us]); w++ {
		for bb := p.occ[us][w]; bb != 0; bb &= bb - 1 {
			if legal(p.pieceMoves(buf[:0], Square(w*64+bits.TrailingZeros64(bb)), inCheck, true)) {
				return true
			}
		}
	}
	if p.v.dropType != 0 && p.hand[us][p.v.dropType] > 0 {
		return legal(p.dropMoves(buf[:0]))
	}
	return false
}

// IsLegal says whether m is one of the legal moves of the side to move
// (LegalMoves would list it), generating only the moves of the piece on
// m's from square (or the drops): a search can try a remembered move, as a
// transposition table's, before generating them all. scratch is working
// space (MaxMoves long is always enough); any Move value is accepted.
func (p *Position) IsLegal(m Move, scratch []Move) bool {
	us, them := p.side, p.side.Other()
	if m == NoMove || int(m.From()) >= maxCells || int(m.To()) >= maxCells {
		return false
	}
	if k := p.king[them]; k != NoSquare && p.v.scepter[them].has(k) {
		return false
	}
	ksq := p.king[us]
	inCheck := ksq != NoSquare && p.attacked(ksq, them)
	var cands []Move
	if m.Kind() == Drop {
		if p.v.dropType == 0 || p.hand[us][p.v.dropType] == 0 {
			return false
		}
		cands = p.dropMoves(scratch[:0])
	} else {
		q := p.board[m.From()]
		if q == NoPiece || q.Color() != us {
			return false
		}
		cands = p.pieceMoves(scratch[:0], m.From(), inCheck, true)
	}
	found := false
	for _, c := range cands {
		if c == m {
			found = true
			break
		}
	}
	if !found || ksq == NoSquare {
		return found
	}
	switch {
	case m.Kind() == Castle:
		return true // fully checked when generated
	case m.Kind() == Drop:
		return !inCheck || p.safeAfter(m, ksq, us)
	case inCheck || m.Kind() == EnPassant || m.fly() || m.From() == ksq:
		return p.safeAfter(m, ksq, us)
	}
	pinned := p.sensitive(ksq, us)
	return !(pinned.has(m.From()) || pinned.has(m.To())) || p.safeAfter(m, ksq, us)
}
