package env

// Position is the state of a game: the board, side to move, castling rights,
// en-passant squares, clocks, pieces in hand and the hashes of the earlier
// positions (for repetition). Copy it with Clone: a plain struct copy shares
// the history.
type Position struct {
	v        *Variant
	board    [maxCells]Piece
	side     Color
	castle   uint8
	epN      uint8
	ep       [2]Square // the squares the last multi-step pawn move passed over
	epVictim Square    // the pawn that made it
	half     int       // half-moves since the last capture, pawn move or drop
	full     int       // move number
	hand     [2][maxTypes]uint8
	count    [2][maxTypes]uint8
	king     [2]Square
	occ      [2]sqSet // the squares of each side's pieces
	hash     uint64
	hist     []uint64 // hashes of the positions before this one
}

// Undo is what UndoMove needs to take a move back.
type Undo struct {
	m        Move
	moved    Piece
	nCap     uint8
	capSq    [2]Square
	capP     [2]Piece
	castle   uint8
	epN      uint8
	ep       [2]Square
	epVictim Square
	half     int
	hash     uint64
}

// Variant returns the variant the position belongs to.
func (p *Position) Variant() *Variant { return p.v }

// SideToMove returns the side whose turn it is.
func (p *Position) SideToMove() Color { return p.side }

// At returns the piece on square s (NoPiece when empty or a hole).
func (p *Position) At(s Square) Piece {
	if int(s) >= len(p.board) {
		return NoPiece
	}
	return p.board[s]
}

// Hash returns the Zobrist hash of the position (board, side, rights, en passant, hands).
func (p *Position) Hash() uint64 { return p.hash }

// Count returns how many pieces of type t side c has on the board.
func (p *Position) Count(c Color, t int) int { return int(p.count[c][t]) }

// InHand returns how many pieces of type t side c holds in hand.
func (p *Position) InHand(c Color, t int) int { return int(p.hand[c][t]) }

// KingSquare returns the square of side c's king.
func (p *Position) KingSquare(c Color) Square { return p.king[c] }

// HalfMoveClock returns the half-moves since the last capture, pawn move or drop.
func (p *Position) HalfMoveClock() int { return p.half }

// MoveNumber returns the full move number.
func (p *Position) MoveNumber() int { return p.full }

// Ply returns the number of moves played since the position was set up.
func (p *Position) Ply() int { return len(p.hist) }

// Clone returns an independent copy of the position, history included.
func (p *Position) Clone() *Position {
	q := *p
	q.hist = append(make([]uint64, 0, len(p.hist)+64), p.hist...)
	return &q
}

// CopyFrom makes p a copy of q, history included, reusing p's history
// storage (no allocation once it is large enough).
func (p *Position) CopyFrom(q *Position) {
	h := p.hist[:0]
	*p = *q
	p.hist = append(h, q.hist...)
}

// NewPosition returns the variant's start position.
func (v *Variant) NewPosition() *Position {
	p, err := v.ParsePosition(v.StartFEN)
	if err != nil {
		panic("start position checked at load: " + err.Error())
	}
	return p
}

func (p *Position) put(s Square, q Piece) {
	p.board[s] = q
	p.occ[q.Color()].add(s)
	p.hash ^= p.v.z.pieceKey(s, q)
	p.count[q.Color()][q.Type()]++
	if q.Type() == p.v.king {
		p.king[q.Color()] = s
	}
}

func (p *Position) remove(s Square) Piece {
	q := p.board[s]
	p.board[s] = NoPiece
	p.occ[q.Color()].del(s)
	p.hash ^= p.v.z.pieceKey(s, q)
	p.count[q.Color()][q.Type()]--
	if q.Type() == p.v.king {
		p.king[q.Color()] = NoSquare
	}
	return q
}

// Removed returns the squares of the enemy pieces legal move m removes (at
// most two: a double capture), in the position before m is made.
func (p *Position) Removed(m Move) (sq [2]Square, n int) { return p.removals(m) }

// removals returns the squares of the pieces m removes, in the current
// position (before m is made).
func (p *Position) removals(m Move) (out [2]Square, n int) {
	switch m.Kind() {
	case EnPassant:
		out[0] = p.epVictim
		return out, 1
	case Castle, Drop:
		return out, 0
	}
	from, to := m.From(), m.To()
	if m.fly() {
		us := p.board[from].Color()
		g := p.v.Geo
		d := g.between[from][to] - 1
		for _, s := range g.rays[from][d] {
			if s == to {
				break
			}
			if q := p.board[s]; q != NoPiece && q.Color() != us && n < 2 {
				out[n] = s
				n++
			}
		}
	}
	if p.board[to] != NoPiece && n < 2 {
		out[n] = to
		n++
	}
	return out, n
}

// castleRule returns the castling rule of a castle move.
func (p *Position) castleRule(m Move) *castleRule {
	rules := p.v.castles[p.side]
	for i := range rules {
		if rules[i].kingFrom == m.From() && rules[i].kingTo == m.To() {
			return &rules[i]
		}
	}
	return nil
}

// DoMove plays m, which must be legal, and returns what UndoMove needs.
func (p *Position) DoMove(m Move) Undo {
	v := p.v
	z := &v.z
	u := Undo{m: m, castle: p.castle, epN: p.epN, ep: p.ep, epVictim: p.epVictim, half: p.half, hash: p.hash}
	p.hist = append(p.hist, p.hash)
	us := p.side
	for i := 0; i < int(p.epN); i++ {
		p.hash ^= z.ep[p.ep[i]]
	}
	p.epN = 0
	p.half++
	oldCastle := p.castle
	from, to := m.From(), m.To()
	switch m.Kind() {
	case Drop:
		t := m.Promotion()
		p.hash ^= z.hand[us][t][p.hand[us][t]]
		p.hand[us][t]--
		p.hash ^= z.hand[us][t][p.hand[us][t]]
		p.put(to, MakePiece(us, t))
		p.half = 0
	case Castle:
		r := p.castleRule(m)
		k := p.remove(r.kingFrom)
		rk := p.remove(r.rookFrom)
		u.moved = k
		u.capP[0] = rk // the rook, for UndoMove
		p.put(r.kingTo, k)
		p.put(r.rookTo, rk)
		p.castle &= v.castleMask[r.kingFrom] & v.castleMask[r.rookFrom]
	default:
		sq, n := p.removals(m)
		for i := 0; i < n; i++ {
			u.capSq[i] = sq[i]
			u.capP[i] = p.remove(sq[i])
			p.castle &= v.castleMask[sq[i]]
		}
		u.nCap = uint8(n)
		q := p.remove(from)
		u.moved = q
		t := &v.Pieces[q.Type()]
		if n > 0 || t.Pawn != NotPawn {
			p.half = 0
		}
		if pr := m.Promotion(); pr != 0 {
			p.put(to, MakePiece(us, pr))
		} else {
			p.put(to, q)
		}
		p.castle &= v.castleMask[from] & v.castleMask[to]
		if t.Pawn != NotPawn && t.Pawn != NinjaPawn {
			g := v.Geo
			if dy := g.Rank(to) - g.Rank(from); dy >= 2 || dy <= -2 {
				d := g.between[from][to] - 1
				for _, s := range g.rays[from][d] {
					if s == to {
						break
					}
					p.ep[p.epN] = s
					p.epN++
					p.hash ^= z.ep[s]
				}
				p.epVictim = to
			}
		}
	}
	if p.castle != oldCastle {
		p.hash ^= z.castle[oldCastle] ^ z.castle[p.castle]
	}
	if us == Black {
		p.full++
	}
	p.side = us.Other()
	p.hash ^= z.side
	return u
}

// UndoMove takes back the move DoMove returned u for.
func (p *Position) UndoMove(u Undo) {
	m := u.m
	p.side = p.side.Other()
	us := p.side
	if us == Black {
		p.full--
	}
	switch m.Kind() {
	case Drop:
		t := m.Promotion()
		p.remove(m.To())
		p.hand[us][t]++
	case Castle:
		r := p.castleRule(m)
		p.remove(r.kingTo)
		p.remove(r.rookTo)
		p.put(r.kingFrom, u.moved)
		p.put(r.rookFrom, u.capP[0])
	default:
		p.remove(m.To())
		p.put(m.From(), u.moved)
		for i := int(u.nCap) - 1; i >= 0; i-- {
			p.put(u.capSq[i], u.capP[i])
		}
	}
	p.castle, p.epN, p.ep, p.epVictim, p.half, p.hash = u.castle, u.epN, u.ep, u.epVictim, u.half, u.hash
	p.hist = p.hist[:len(p.hist)-1]
}
