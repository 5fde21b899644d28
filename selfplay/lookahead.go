package selfplay

import (
	"bomberzero/env"
	"bomberzero/mcts"
)

var _ mcts.Lookahead = (*Game)(nil)

// StatusAfter reports what Status would report after the legal move with
// policy index move (the value for the side to move then), making the move
// on the position and taking it back: no copy of the game, no policy
// indices. The MCTS-solver calls it for every child of every node it
// expands.
func (g *Game) StatusAfter(move int) (bool, float32) {
	g.gen()
	m := env.NoMove
	for i, x := range g.idx {
		if x == move {
			m = g.moves[i]
			break
		}
	}
	if m == env.NoMove {
		return false, 0
	}
	u := g.p.DoMove(m)
	var buf [env.MaxMoves]env.Move
	res, _ := g.p.StatusOf(len(g.p.LegalMoves(buf[:0])))
	if res == env.Ongoing && g.r.MaxPlies > 0 && g.p.Ply() >= g.r.MaxPlies {
		res = env.Draw
	}
	side := g.p.SideToMove()
	g.p.UndoMove(u)
	switch {
	case res == env.Ongoing:
		return false, 0
	case res == env.Draw:
		return true, 0
	case (res == env.WhiteWins) == (side == env.White):
		return true, 1
	}
	return true, -1
}
