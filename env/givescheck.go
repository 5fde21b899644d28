package env

// This file answers questions about the position after a move without
// playing it: a search asks them of moves it may prune, and playing a
// move (hash, history, counts) and taking it back costs more than
// changing the few board squares the answer depends on.

// boardMove is a move applied to the board array alone, so that attacked
// can be asked about the position after it; restore puts the board back.
type boardMove struct {
	from, to Square
	mover    Piece // on from before the move (NoPiece for a drop)
	target   Piece // on to before the move
	sq       [2]Square
	saved    [2]Piece
	n        int
}

// applyBoard plays m, a legal move of the side to move other than
// castling, on the board array only.
func (p *Position) applyBoard(m Move) boardMove {
	us := p.side
	b := boardMove{from: m.From(), to: m.To(), mover: NoPiece}
	if m.Kind() == Drop {
		b.target = p.board[b.to]
		p.board[b.to] = MakePiece(us, m.Promotion())
		return b
	}
	b.sq, b.n = p.removals(m)
	for i := 0; i < b.n; i++ {
		b.saved[i] = p.board[b.sq[i]]
		p.board[b.sq[i]] = NoPiece
	}
	b.mover = p.board[b.from]
	b.target = p.board[b.to]
	p.board[b.from] = NoPiece
	if pr := m.Promotion(); pr != 0 {
		p.board[b.to] = MakePiece(us, pr)
	} else {
		p.board[b.to] = b.mover
	}
	return b
}

// restoreBoard takes back what applyBoard did.
func (p *Position) restoreBoard(b boardMove) {
	p.board[b.to] = b.target
	if b.mover != NoPiece {
		p.board[b.from] = b.mover
	}
	for i := b.n - 1; i >= 0; i-- {
		p.board[b.sq[i]] = b.saved[i]
	}
}

// GivesCheck says whether legal move m of the side to move leaves the
// opponent's king attacked: what InCheck says after DoMove(m), found by
// changing only the board squares m changes (castling is played in full).
// It allocates nothing.
func (p *Position) GivesCheck(m Move) bool {
	them := p.side.Other()
	k := p.king[them]
	if k == NoSquare {
		return false
	}
	if m.Kind() == Castle {
		u := p.DoMove(m)
		check := p.InCheck()
		p.UndoMove(u)
		return check
	}
	b := p.applyBoard(m)
	check := p.king[them] == k && p.board[k] == MakePiece(them, p.v.king) && p.attacked(k, p.side)
	p.restoreBoard(b)
	return check
}

// AttackedAfter says whether, after legal move m of the side to move,
// side by could remove a piece standing on s (Attacked after DoMove(m)),
// found without playing m (castling is played in full). It allocates
// nothing.
func (p *Position) AttackedAfter(m Move, s Square, by Color) bool {
	if int(s) >= p.v.Geo.Cells() || !p.v.Geo.real[s] {
		return false
	}
	if m.Kind() == Castle {
		u := p.DoMove(m)
		a := p.attacked(s, by)
		p.UndoMove(u)
		return a
	}
	b := p.applyBoard(m)
	a := p.attacked(s, by)
	p.restoreBoard(b)
	return a
}
