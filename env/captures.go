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
	us, them := p.side, p.side.Other()
	if k := p.king[them]; k != NoSquare && p.v.scepter[them].has(k) {
		return buf
	}
	start := len(buf)
	ksq := p.king[us]
	inCheck := ksq != NoSquare && p.attacked(ksq, them)
	for w := 0; w < len(p.occ[us]); w++ {
		for bb := p.occ[us][w]; bb != 0; bb &= bb - 1 {
			buf = p.tacticalPieceMoves(buf, Square(w*64+bits.TrailingZeros64(bb)))
		}
	}
	// Keep only the moves that really remove a piece or promote (the
	// generator may list a few more), then test legality as LegalMoves does.
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

// tacticalPieceMoves appends the pseudo-legal moves of the side to move's
// piece on from that may be tactical: it is pieceMoves without the quiet
// slides and leaps (unless they land on a promoting landing square) and
// without castling, in pieceMoves' order. Pawns get all their moves; the
// caller filters.
func (p *Position) tacticalPieceMoves(buf []Move, from Square) []Move {
	v := p.v
	g := v.Geo
	us := p.side
	s := int(from)
	ti := p.board[s].Type()
	t := &v.Pieces[ti]
	if t.Pawn != NotPawn {
		return p.pawnMoves(buf, from, t.Pawn)
	}
	landing := v.landFrom&(1<<ti) != 0
	var land sqSet
	if landing {
		land = v.landSq[us]
	}
	add := func(buf []Move, to Square, fly bool) []Move {
		promo := 0
		if landing && land.has(to) {
			promo = v.landTo
		}
		m := newMove(from, to, promo, Normal)
		if fly {
			m |= flyBit
		}
		return append(buf, m)
	}
	for _, lt := range t.leaps[s] {
		if tq := p.board[lt.to]; tq == NoPiece {
			if lt.mode&modeMove == 0 || !landing || !land.has(lt.to) {
				continue
			}
		} else if tq.Color() == us || lt.mode&modeCapture == 0 {
			continue
		}
		if lt.line != 0 && p.lineReaches(t, from, lt.to, int(lt.line-1)) {
			continue // the line move gives it
		}
		buf = add(buf, lt.to, false)
	}
	if lineDirs := t.slideMove | t.slideCap | t.bomb; lineDirs != 0 {
		for d := 0; d < 8; d++ {
			bit := uint8(1) << d
			if lineDirs&bit == 0 {
				continue
			}
			ray := g.rays[s][d]
			i := 0
			for ; i < len(ray) && p.board[ray[i]] == NoPiece; i++ {
				if landing && t.slideMove&bit != 0 && land.has(ray[i]) {
					buf = add(buf, ray[i], false)
				}
			}
			if i == len(ray) || p.board[ray[i]].Color() == us {
				continue
			}
			if t.slideCap&bit != 0 {
				buf = add(buf, ray[i], false)
			}
			if t.bomb&bit != 0 {
				for j := i + 1; j < len(ray) && p.board[ray[j]] == NoPiece; j++ {
					buf = add(buf, ray[j], true)
					if !t.bombExt {
						break
					}
				}
			}
		}
	}
	if t.heli != 0 {
		for d := 0; d < 8; d++ {
			bit := uint8(1) << d
			if t.heli&bit == 0 {
				continue
			}
			h := g.hops[s][d]
			if h.land == NoSquare {
				continue
			}
			lq := p.board[h.land]
			if lq != NoPiece && lq.Color() == us {
				continue
			}
			mq := NoPiece
			if h.mid != NoSquare {
				mq = p.board[h.mid]
			}
			midEnemy := mq != NoPiece && mq.Color() != us
			if lq == NoPiece && mq == NoPiece && t.slideMove&bit != 0 ||
				lq != NoPiece && mq == NoPiece && t.slideCap&bit != 0 ||
				lq == NoPiece && midEnemy && t.bomb&bit != 0 {
				continue
			}
			buf = add(buf, h.land, midEnemy)
		}
	}
	return buf
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
			if legal(p.pieceMoves(buf[:0], Square(w*64+bits.TrailingZeros64(bb)), inCheck)) {
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
		cands = p.pieceMoves(scratch[:0], m.From(), inCheck)
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
