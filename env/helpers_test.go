package env

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// setup builds a position of v from piece placements such as "Ff4" (White
// bomber on f4) or "rd4" (Black rook on d4), with the given side to move, no
// castling rights and full hands as the start position has them.
func setup(t testing.TB, v *Variant, side Color, placements ...string) *Position {
	t.Helper()
	p := &Position{v: v, side: side, full: 1, king: [2]Square{NoSquare, NoSquare}, epVictim: NoSquare}
	start := v.NewPosition()
	p.hand = start.hand
	for _, pl := range placements {
		s, err := v.Geo.ParseSquare(pl[1:])
		if err != nil {
			t.Fatalf("placement %q: %v", pl, err)
		}
		tp := v.PieceByLetter(pl[0])
		if tp == 0 {
			t.Fatalf("placement %q: no such piece", pl)
		}
		c := White
		if pl[0] >= 'a' {
			c = Black
		}
		p.put(s, MakePiece(c, tp))
	}
	p.hash = p.computeHash()
	q, err := v.ParsePosition(p.String())
	if err != nil {
		t.Fatalf("setup %v: %v", placements, err)
	}
	return q
}

// gcMoves returns the legal moves in Game Courier text, sorted; with from
// non-empty, only the moves starting there.
func gcMoves(p *Position, from string) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		if from == "" || m.Kind() != Drop && p.v.Geo.Name(m.From()) == from {
			out = append(out, p.FormatGC(m))
		}
	}
	sort.Strings(out)
	return out
}

func hasMove(p *Position, gc string) bool {
	for _, s := range gcMoves(p, "") {
		if s == gc {
			return true
		}
	}
	return false
}

// slowLegal is the obviously-correct legality test: play the move, then try
// every move of the opponent and see whether one removes our king. Castling
// also tests the start square and each square the king passes.
func slowLegal(p *Position, m Move) bool {
	us := p.side
	kingSafe := func(q *Position, k Square) bool {
		var buf [MaxMoves]Move
		for _, om := range q.pseudoMoves(buf[:0], true) {
			sq, n := q.removals(om)
			for i := 0; i < n; i++ {
				if sq[i] == k {
					return false
				}
			}
		}
		return true
	}
	if m.Kind() == Castle {
		r := p.castleRule(m)
		q := p.Clone()
		q.side = us.Other()
		if !kingSafe(q, r.kingFrom) {
			return false
		}
		step := 1
		if r.kingTo < r.kingFrom {
			step = -1
		}
		for s := int(r.kingFrom) + step; s != int(r.kingTo); s += step {
			q := p.Clone()
			k := q.board[r.kingFrom]
			q.board[r.kingFrom] = NoPiece
			q.board[s] = k
			q.side = us.Other()
			if !kingSafe(q, Square(s)) {
				return false
			}
		}
	}
	q := p.Clone()
	q.DoMove(m)
	return kingSafe(q, q.king[us])
}

// randomGame plays up to plies random legal moves from the start position,
// calling check before each move; it stops when the game ends.
func randomGame(v *Variant, rng *rand.Rand, plies int, check func(p *Position, moves []Move)) {
	p := v.NewPosition()
	buf := make([]Move, 0, MaxMoves)
	for i := 0; i < plies; i++ {
		moves := p.LegalMoves(buf[:0])
		check(p, moves)
		if res, _ := p.Status(); res != Ongoing {
			return
		}
		p.DoMove(moves[rng.IntN(len(moves))])
	}
}
