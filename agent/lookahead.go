package agent

import (
	"bomberzero/env"
	"bomberzero/mcts"
)

var _ mcts.Lookahead = (*Game)(nil)

// StatusAfter reports what Status would report after the legal move with
// policy index move (the value for the side to move then), making the move
// on the position and taking it back: no copy of the game, no policy
// indices, and replies generated only when the move gives check (a mate is
// then possible). A stalemate is reported as not over. The MCTS-solver
// calls it for every child of every node it expands.
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
	// Only a side in check can be mated: the replies are generated then,
	// and otherwise StatusOf with a nonzero count still sees the scepter,
	// the 50-move rule and repetitions. A stalemate is left for the search
	// to find when it visits the child (Lookahead allows that).
	n := 1
	if g.p.InCheck() {
		var buf [env.MaxMoves]env.Move
		n = len(g.p.LegalMoves(buf[:0]))
	}
	res, _ := g.p.StatusOf(n)
	if res == env.Ongoing && g.r.MaxPlies > 0 && g.p.Ply() >= g.r.MaxPlies {
		res = env.Draw
	}
	side := g.p.SideToMove()
	g.p.UndoMove(u)
	return res != env.Ongoing, float32(res.For(side))
}
