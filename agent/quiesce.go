package agent

import (
	"bomberzero/env"
	"bomberzero/mcts"
)

var _ mcts.Quiescer = (*Game)(nil)

// Limits of Quiescence: the captures it follows from a position, and the
// positions it visits before it stops looking deeper (a bound on its cost
// however many captures a position offers; a bomber's double captures can
// give dozens).
const (
	QuiescencePlies = 8
	QuiescenceNodes = 4096
)

// quiescenceMate is Quiescence's score, in centipawns, of a game won by
// the side to move: far beyond any material count, so that the search's
// tanh squashes it to a sure win.
const quiescenceMate = 100_00

// quiescence holds the scratch space of Quiescence: one move buffer a
// ply, reused by every call (so a game that is searched again allocates
// nothing).
type quiescence struct {
	moves [QuiescencePlies + 1][]env.Move
	keys  [QuiescencePlies + 1][]int32
	nodes int
}

// Quiescence returns the material balance in pawns for the side to move
// once the captures are played out: a negamax with alpha-beta over capture
// moves only (a move that removes an enemy piece, a bomber's double capture
// and en passant included), where either side may stop capturing (stand
// pat) and keep the material on the board, up to QuiescencePlies plies and
// QuiescenceNodes positions. A game the rules end on the way (mate by a
// capture, a draw by rule) scores as a sure win, a loss or 0. The material
// is the one piece-value table of Material (DefaultValues). The position is
// left as it was. Rules.SetLeafEngine puts the alpha-beta engine's
// quiescence search and evaluation in its place.
func (g *Game) Quiescence() float64 {
	if g.r.leaf != nil {
		return g.engineQuiescence()
	}
	if g.q == nil {
		g.q = new(quiescence)
		for i := range g.q.moves {
			g.q.moves[i] = make([]env.Move, 0, env.MaxMoves)
			g.q.keys[i] = make([]int32, 0, env.MaxMoves)
		}
	}
	g.q.nodes = 0
	s := g.q.search(g.p, g.r.table, 0, -quiescenceMate-1, quiescenceMate+1)
	return float64(s) / 100
}

// search returns the quiescence score of p for the side to move in
// centipawns within the window (alpha, beta) (fail-soft).
func (q *quiescence) search(p *env.Position, table []int32, ply int, alpha, beta int32) int32 {
	q.nodes++
	moves := p.LegalMoves(q.moves[ply][:0])
	q.moves[ply] = moves
	if res, _ := p.StatusOf(len(moves)); res != env.Ongoing {
		return int32(res.For(p.SideToMove())) * quiescenceMate
	}
	best := Centipawns(p, table) // standing pat
	if best >= beta || ply == QuiescencePlies || q.nodes >= QuiescenceNodes {
		return best
	}
	alpha = max(alpha, best)
	// The captures, the most material taken first: the likeliest
	// refutations are searched first, so alpha-beta cuts the rest.
	keys := q.keys[ply][:0]
	captures := moves[:0]
	for _, m := range moves {
		sq, n := p.Removed(m)
		if n == 0 {
			continue
		}
		var gain int32
		for _, s := range sq[:n] {
			gain += table[p.At(s).Type()]
		}
		captures = append(captures, m)
		keys = append(keys, gain)
	}
	q.keys[ply] = keys
	SortByKey(captures, keys)
	for _, m := range captures {
		u := p.DoMove(m)
		s := -q.search(p, table, ply+1, -beta, -alpha)
		p.UndoMove(u)
		if s > best {
			best = s
		}
		if s >= beta {
			break
		}
		alpha = max(alpha, s)
	}
	return best
}
