package env

import "math/bits"

// LegalMoves appends every legal move of the side to move to buf and returns
// it. It allocates nothing when buf has room (MaxMoves is always enough).
// A game already won by the scepter has no legal moves.
func (p *Position) LegalMoves(buf []Move) []Move {
	return p.LegalMovesChecked(buf, p.InCheck())
}

// LegalMovesChecked is LegalMoves told whether the side to move is in
// check (what InCheck returns), for a caller that has just asked: a
// search passes it down from the move that led here. A wrong inCheck
// gives a wrong list.
func (p *Position) LegalMovesChecked(buf []Move, inCheck bool) []Move {
	us, them := p.side, p.side.Other()
	if k := p.king[them]; k != NoSquare && p.v.scepter[them].has(k) {
		return buf
	}
	start := len(buf)
	ksq := p.king[us]
	buf = p.pseudoMoves(buf, inCheck)
	if ksq == NoSquare {
		return buf
	}
	var pinned, zone sqSet
	if inCheck {
		zone = p.checkZone(ksq, them)
	} else {
		pinned = p.sensitive(ksq, us)
	}
	out := start
	for i := start; i < len(buf); i++ {
		m := buf[i]
		switch {
		case m.Kind() == Castle:
			// fully checked when generated
		case m.Kind() == Drop:
			if inCheck && (!zone.has(m.To()) || !p.safeAfter(m, ksq, us)) {
				continue
			}
		case inCheck && m.From() != ksq && !p.touches(m, &zone):
			continue // leaves every square the check depends on as it is
		case inCheck || m.Kind() == EnPassant || m.fly() || m.From() == ksq || pinned.has(m.From()) || pinned.has(m.To()):
			if !p.safeAfter(m, ksq, us) {
				continue
			}
		}
		buf[out] = m
		out++
	}
	return buf[:out]
}

// sensitive returns the squares from or to which a move of one of us's
// pieces could expose the king on k (not in check): an own piece right behind
// the king as seen from an enemy bomber on the line (bombing needs that
// square empty); the square where an adjacent enemy's helicopter leap over
// the king would land (moving an own piece away from it, or capturing the
// enemy's own piece there, opens the leap); and an own piece that is the only
// piece between the king and an enemy that slides or bombs along that line.
// Otherwise a move that only adds an own piece to a square never exposes the
// king, and a capture that lands on its victim leaves that square occupied;
// fly-over captures, en passant and king moves are always tested in full.
func (p *Position) sensitive(k Square, us Color) sqSet {
	var out sqSet
	v := p.v
	g := v.Geo
	enemyWith := func(s Square, mask func(*PieceType) uint8, bit uint8) bool {
		q := p.board[s]
		return q != NoPiece && q.Color() != us && mask(&v.Pieces[q.Type()])&bit != 0
	}
	bombs := func(t *PieceType) uint8 { return t.bomb }
	helis := func(t *PieceType) uint8 { return t.heli }
	lines := func(t *PieceType) uint8 { return t.slideCap | t.bomb }
	for d := 0; d < 8; d++ {
		ray := g.rays[k][d]
		if len(ray) == 0 {
			continue
		}
		bit := uint8(1) << d
		o := opposite[d]
		if v.lineDirs&bit != 0 {
			// A bomber on the other side whose first piece is the king.
			for _, s := range g.rays[k][o] {
				if p.board[s] != NoPiece {
					if enemyWith(s, bombs, bit) {
						out.add(ray[0])
					}
					break
				}
			}
		}
		if v.heliDirs&bit != 0 {
			if a, l := g.steps[k][o], g.steps[k][d]; a != NoSquare && l != NoSquare && enemyWith(a, helis, bit) {
				out.add(l)
			}
		}
		if v.lineDirs&bit == 0 {
			continue
		}
		own := NoSquare
		for _, s := range ray {
			q := p.board[s]
			if q == NoPiece {
				continue
			}
			if q.Color() == us {
				if own != NoSquare {
					break
				}
				own = s
				continue
			}
			if own != NoSquare && enemyWith(s, lines, bit) {
				out.add(own)
			}
			break
		}
	}
	return out
}

// checkZone returns every square whose contents attacked(k, by) reads:
// the leaping attackers' squares, the lines from k, the helicopter's
// landing squares and the squares next to k. A move of a piece other than
// the king that neither lands on one of them nor removes a piece from one
// leaves them as they were, save the square it leaves, and emptying a
// square never ends an attack (a slide or bombing only sees further, a
// helicopter's landing square may hold any piece not its own): such a
// move leaves a king in check in check, so LegalMoves drops it without
// playing it.
func (p *Position) checkZone(k Square, by Color) sqSet {
	var z sqSet
	v := p.v
	g := v.Geo
	for _, a := range v.attackers[by][k] {
		z.add(a.from)
	}
	for d := 0; d < 8; d++ {
		for _, s := range g.rays[k][d] {
			z.add(s)
		}
		if h := g.hops[k][d]; h.land != NoSquare {
			z.add(h.land)
		}
		if s := g.steps[k][d]; s != NoSquare {
			z.add(s)
		}
	}
	return z
}

// touches says whether m (not a king move, nor a drop) lands on a square
// of zone or removes a piece from one.
func (p *Position) touches(m Move, zone *sqSet) bool {
	if zone.has(m.To()) {
		return true
	}
	if m.Kind() != EnPassant && !m.fly() {
		return false // a plain capture removes the piece on its target
	}
	sq, n := p.removals(m)
	for i := 0; i < n; i++ {
		if zone.has(sq[i]) {
			return true
		}
	}
	return false
}

// MaxMoves is a buffer size that always holds every legal move.
const MaxMoves = 1024

// safeAfter plays m on the board only, tests whether us's king is attacked,
// and restores the board.
func (p *Position) safeAfter(m Move, ksq Square, us Color) bool {
	from, to := m.From(), m.To()
	if m.Kind() == Drop {
		p.board[to] = MakePiece(us, m.Promotion())
		ok := !p.attacked(ksq, us.Other())
		p.board[to] = NoPiece
		return ok
	}
	sq, n := p.removals(m)
	var saved [2]Piece
	for i := 0; i < n; i++ {
		saved[i] = p.board[sq[i]]
		p.board[sq[i]] = NoPiece
	}
	mover := p.board[from]
	p.board[from] = NoPiece
	p.board[to] = mover
	if from == ksq {
		ksq = to
	}
	ok := !p.attacked(ksq, us.Other())
	p.board[to] = NoPiece
	p.board[from] = mover
	for i := n - 1; i >= 0; i-- {
		p.board[sq[i]] = saved[i]
	}
	return ok
}

// pseudoMoves appends every move that obeys the movement rules, without
// testing the mover's king, except castling, which is tested fully.
func (p *Position) pseudoMoves(buf []Move, inCheck bool) []Move {
	v := p.v
	us := p.side
	for w := 0; w < len(p.occ[us]); w++ {
		for bb := p.occ[us][w]; bb != 0; bb &= bb - 1 {
			buf = p.pieceMoves(buf, Square(w*64+bits.TrailingZeros64(bb)), inCheck, true)
		}
	}
	if v.dropType != 0 && p.hand[us][v.dropType] > 0 {
		buf = p.dropMoves(buf)
	}
	return buf
}

// pieceMoves appends the moves of the side to move's piece on from. With
// quiets false it leaves out the moves that can never remove a piece or
// promote (quiet leaps and slides that land on no promoting landing square,
// castling, pawn pushes that do not promote, a ninja pawn's sideways steps
// to empty squares), for TacticalMoves; the order of the rest is the same.
func (p *Position) pieceMoves(buf []Move, from Square, inCheck, quiets bool) []Move {
	v := p.v
	g := v.Geo
	us := p.side
	s := int(from)
	q := p.board[s]
	{
		ti := q.Type()
		t := &v.Pieces[ti]
		if t.Pawn != NotPawn {
			return p.pawnMoves(buf, from, t.Pawn, quiets)
		}
		promo := 0
		landing := v.landFrom&(1<<ti) != 0
		add := func(buf []Move, to Square, fly bool) []Move {
			promo = 0
			if landing && v.landSq[us].has(to) {
				promo = v.landTo
			}
			m := newMove(from, to, promo, Normal)
			if fly {
				m |= flyBit
			}
			return append(buf, m)
		}
		for _, lt := range t.leaps[s] {
			if lt.line != 0 && p.lineReaches(t, from, lt.to, int(lt.line-1)) {
				continue // the line move gives it (and a fly-over capture is never optional)
			}
			if tq := p.board[lt.to]; tq == NoPiece {
				if lt.mode&modeMove != 0 && (quiets || landing && v.landSq[us].has(lt.to)) {
					buf = add(buf, lt.to, false)
				}
			} else if tq.Color() != us && lt.mode&modeCapture != 0 {
				buf = add(buf, lt.to, false)
			}
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
					if t.slideMove&bit != 0 && (quiets || landing && v.landSq[us].has(ray[i])) {
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
				// Skip the moves a slide or bombing already gave.
				if lq == NoPiece && mq == NoPiece && t.slideMove&bit != 0 ||
					lq != NoPiece && mq == NoPiece && t.slideCap&bit != 0 ||
					lq == NoPiece && midEnemy && t.bomb&bit != 0 {
					continue
				}
				buf = add(buf, h.land, midEnemy)
			}
		}
		if quiets && ti == v.king && !inCheck && p.castle != 0 {
			buf = p.castleMoves(buf, from)
		}
	}
	return buf
}

// lineReaches says whether a slide or bombing of type t from along
// direction d gives a move to to.
func (p *Position) lineReaches(t *PieceType, from, to Square, d int) bool {
	bit := uint8(1) << d
	us := p.board[from].Color()
	passed := NoPiece
	for _, s := range p.v.Geo.rays[from][d] {
		q := p.board[s]
		if s == to {
			switch {
			case passed == NoPiece && q == NoPiece:
				return t.slideMove&bit != 0
			case passed == NoPiece:
				return q.Color() != us && t.slideCap&bit != 0
			default:
				return q == NoPiece && t.bomb&bit != 0
			}
		}
		if q != NoPiece {
			if passed != NoPiece || q.Color() == us {
				return false
			}
			passed = q
			continue
		}
		if passed != NoPiece && !t.bombExt {
			return s == to
		}
	}
	return false
}

// pawnMoves appends the moves of a pawn of the given kind on from; with
// quiets false, only those that may remove a piece or promote.
func (p *Position) pawnMoves(buf []Move, from Square, kind PawnKind, quiets bool) []Move {
	v := p.v
	g := v.Geo
	us := p.side
	fwd := 0
	if us == Black {
		fwd = 1
	}
	rel := func(s Square) int { return v.relRank(us, g.Rank(s)) }
	r := rel(from)
	add := func(buf []Move, to Square, kind MoveKind) []Move {
		if rel(to) == v.promoRank {
			for _, t := range v.promoTo {
				buf = append(buf, newMove(from, to, t, kind))
			}
			return buf
		}
		return append(buf, newMove(from, to, 0, kind))
	}
	t1 := g.steps[from][fwd]
	empty1 := t1 != NoSquare && p.board[t1] == NoPiece && rel(t1) <= v.promoRank
	if empty1 && (quiets || rel(t1) == v.promoRank) {
		buf = add(buf, t1, Normal)
	}
	// Multi-step moves forward.
	maxSteps, limit := 1, v.promoRank
	switch kind {
	case GrandPawn:
		maxSteps, limit = 3, v.middle
	case OrthodoxPawn, SlidingPawn:
		if r == v.double {
			maxSteps = 2
		}
	case NinjaPawn:
		if r < v.middle {
			maxSteps, limit = 3, v.middle
		} else if r > v.middle {
			maxSteps = 2
		}
	}
	if empty1 {
		s := t1
		for k := 2; k <= maxSteps; k++ {
			s = g.steps[s][fwd]
			if s == NoSquare || p.board[s] != NoPiece || rel(s) > limit {
				break
			}
			if quiets || rel(s) == v.promoRank {
				buf = add(buf, s, Normal)
			}
		}
	}
	caps := v.pawnCaps[us][from]
	for _, c := range caps {
		q := p.board[c.to]
		switch {
		case q != NoPiece && q.Color() != us:
			buf = add(buf, c.to, Normal)
		case q == NoPiece && kind != NinjaPawn && p.isEP(c.to):
			buf = append(buf, newMove(from, c.to, 0, EnPassant))
		case q == NoPiece && kind == SlidingPawn && t1 != NoSquare && p.board[t1] != NoPiece && p.board[t1].Color() != us:
			buf = add(buf, c.to, Normal)
		}
	}
	if kind == NinjaPawn {
		enemyHalf := r > v.middle
		for _, d := range [2]int{2, 3} {
			s := g.steps[from][d]
			if s == NoSquare {
				continue
			}
			q := p.board[s]
			if q == NoPiece && quiets || q != NoPiece && enemyHalf && q.Color() != us {
				buf = append(buf, newMove(from, s, 0, Normal))
			}
		}
	}
	return buf
}

func (p *Position) isEP(s Square) bool {
	return p.epN > 0 && (p.ep[0] == s || p.epN > 1 && p.ep[1] == s)
}

// dropMoves appends the drops of the piece in hand, with their pushes.
func (p *Position) dropMoves(buf []Move) []Move {
	v := p.v
	g := v.Geo
	us := p.side
	fwd := 0
	if us == Black {
		fwd = 1
	}
	rank := v.dropRank[us]
	for f := 0; f < g.Files; f++ {
		s := g.At(f, rank)
		if !g.real[s] || p.board[s] != NoPiece {
			continue
		}
		buf = append(buf, newMove(s, s, v.dropType, Drop))
		to := s
		for k := 1; k <= v.pushMax; k++ {
			to = g.steps[to][fwd]
			if to == NoSquare || p.board[to] != NoPiece || v.relRank(us, g.Rank(to)) > v.middle {
				break
			}
			buf = append(buf, newMove(s, to, v.dropType, Drop))
		}
	}
	return buf
}

// castleMoves appends the legal castlings of the king on k (not in check).
func (p *Position) castleMoves(buf []Move, k Square) []Move {
	v := p.v
	us, them := p.side, p.side.Other()
	king := p.board[k]
next:
	for i := range v.castles[us] {
		r := &v.castles[us][i]
		if p.castle&r.right == 0 || r.kingFrom != k {
			continue
		}
		rook := p.board[r.rookFrom]
		if rook == NoPiece || rook.Color() != us || rook.Type() == v.king {
			continue
		}
		for _, s := range r.between {
			if p.board[s] != NoPiece {
				continue next
			}
		}
		for _, s := range [2]Square{r.kingTo, r.rookTo} {
			if s != r.kingFrom && s != r.rookFrom && p.board[s] != NoPiece {
				continue next
			}
		}
		// Every square the king passes, with the king alone moved there.
		step := Square(1)
		if r.kingTo < k {
			step = ^Square(0)
		}
		p.board[k] = NoPiece
		safe := true
		for s := k + step; s != r.kingTo; s += step {
			p.board[s] = king
			safe = !p.attacked(s, them)
			p.board[s] = NoPiece
			if !safe {
				break
			}
		}
		if safe {
			p.board[r.rookFrom] = NoPiece
			p.board[r.kingTo] = king
			p.board[r.rookTo] = rook
			safe = !p.attacked(r.kingTo, them)
			p.board[r.rookTo] = NoPiece
			p.board[r.kingTo] = NoPiece
			p.board[r.rookFrom] = rook
		}
		p.board[k] = king
		if safe {
			buf = append(buf, newMove(k, r.kingTo, 0, Castle))
		}
	}
	return buf
}
