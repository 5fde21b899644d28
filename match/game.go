package match

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"bomberzero/agent"
	"bomberzero/env"
)

// Game is the record of one finished game.
type Game struct {
	Index  int        // the game's number in its match, from 0
	White  string     // the players' specs
	Black  string     //
	Result env.Result // never Ongoing
	// Termination is how the game ended: by the rules, or env.LengthCap.
	Termination env.Termination
	Plies       int
	Moves       []string // the moves in Game Courier syntax
	// Start is the position the game started from (a book opening's, or
	// the match's start).
	Start *env.Position
	// Reason says why a game ended by env.Forfeit: which player broke the
	// match's rules and how ("" for every other ending).
	Reason string
	// Times are what each move cost its player, in the order played.
	Times []MoveTime
}

// ForfeitError is the error a player returns when it can no longer play the
// game it is in: an outside engine that crashed, hung past its time or sent
// a move that is not legal. PlayGame scores it as a loss of the side to move
// (env.Forfeit, with the error's text as Game.Reason) instead of failing the
// match.
type ForfeitError struct {
	// Reason says what the player did, as "exited: signal: killed".
	Reason string
}

func (e *ForfeitError) Error() string { return "forfeit: " + e.Reason }

// PlayGame plays white against black from a copy of start until the rules
// end the game or maxPlies plies are played (then a draw by env.LengthCap;
// maxPlies <= 0 means no cap), timing each move by its player's Meter
// (Game.Times). A player that returns a *ForfeitError loses the game
// (env.Forfeit); any other error of a player, and an illegal move, is an
// error.
func PlayGame(ctx context.Context, white, black Player, start *env.Position, maxPlies int) (Game, error) {
	pos := start.Clone()
	g := Game{White: white.Name(), Black: black.Name(), Start: start}
	buf := make([]env.Move, 0, env.MaxMoves)
	for {
		if res, why := pos.Status(); res != env.Ongoing {
			g.Result, g.Termination = res, why
			return g, nil
		}
		if agent.AtLengthCap(g.Plies, maxPlies) {
			g.Result, g.Termination = env.Draw, env.LengthCap
			return g, nil
		}
		if err := ctx.Err(); err != nil {
			return g, err
		}
		p := white
		if pos.SideToMove() == env.Black {
			p = black
		}
		m, t, err := timedChoose(ctx, p, pos)
		if ctx.Err() != nil {
			return g, ctx.Err()
		}
		if fe := (*ForfeitError)(nil); errors.As(err, &fe) {
			g.Result, g.Termination = env.BlackWins, env.Forfeit
			if pos.SideToMove() == env.Black {
				g.Result = env.WhiteWins
			}
			g.Reason = fmt.Sprintf("%s (%s) at ply %d: %s", p.Name(), pos.SideToMove(), g.Plies, fe.Reason)
			return g, nil
		}
		if err != nil {
			return g, fmt.Errorf("%s (%s) at ply %d: %w", p.Name(), pos.SideToMove(), g.Plies, err)
		}
		buf = pos.LegalMoves(buf[:0])
		if !slices.Contains(buf, m) {
			return g, fmt.Errorf("%s (%s) at ply %d chose an illegal move %d in %s", p.Name(), pos.SideToMove(), g.Plies, m, pos)
		}
		g.Moves = append(g.Moves, pos.FormatGC(m))
		g.Times = append(g.Times, t)
		pos.DoMove(m)
		g.Plies++
	}
}
