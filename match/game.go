package match

import (
	"context"
	"fmt"
	"slices"

	"bomberzero/agent"
	"bomberzero/env"
)

// LengthCap is the Reason text of a game stopped at the match's ply cap and
// scored a draw.
const LengthCap = "length cap"

// Game is the record of one finished game.
type Game struct {
	Index  int        // the game's number in its match, from 0
	White  string     // the players' specs
	Black  string     //
	Result env.Result // never Ongoing
	Reason string     // checkmate, stalemate, repetition, 50 moves, scepter or LengthCap
	Plies  int
	Moves  []string // the moves in Game Courier syntax
}

// PlayGame plays white against black from a copy of start until the rules
// end the game or maxPlies plies are played (then a draw by LengthCap;
// maxPlies <= 0 means no cap). A player's illegal move is an error.
func PlayGame(ctx context.Context, white, black Player, start *env.Position, maxPlies int) (Game, error) {
	pos := start.Clone()
	g := Game{White: white.Name(), Black: black.Name()}
	buf := make([]env.Move, 0, env.MaxMoves)
	for {
		if res, why := pos.Status(); res != env.Ongoing {
			g.Result, g.Reason = res, why.String()
			return g, nil
		}
		if agent.AtLengthCap(g.Plies, maxPlies) {
			g.Result, g.Reason = env.Draw, LengthCap
			return g, nil
		}
		if err := ctx.Err(); err != nil {
			return g, err
		}
		p := white
		if pos.SideToMove() == env.Black {
			p = black
		}
		m, err := p.Choose(pos)
		if err != nil {
			return g, fmt.Errorf("%s (%s) at ply %d: %w", p.Name(), pos.SideToMove(), g.Plies, err)
		}
		buf = pos.LegalMoves(buf[:0])
		if !slices.Contains(buf, m) {
			return g, fmt.Errorf("%s (%s) at ply %d chose an illegal move %d in %s", p.Name(), pos.SideToMove(), g.Plies, m, pos)
		}
		g.Moves = append(g.Moves, pos.FormatGC(m))
		pos.DoMove(m)
		g.Plies++
	}
}
