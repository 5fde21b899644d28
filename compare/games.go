package compare

import (
	"fmt"

	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/selfplay"
	"bomberzero/values"
)

// matchTerminations maps match.Game's Reason texts to the data's tokens.
var matchTerminations = map[string]datasets.Termination{
	env.Checkmate.String():  datasets.Checkmate,
	env.Stalemate.String():  datasets.Stalemate,
	env.Repetition.String(): datasets.Repetition,
	env.FiftyMoves.String(): datasets.FiftyMove,
	env.Scepter.String():    datasets.Scepter,
	match.LengthCap:         datasets.LengthCap,
}

// Termination returns the data token (datasets.Termination) of a match
// game's Reason text, or an error naming an unknown one.
func Termination(reason string) (datasets.Termination, error) {
	t, ok := matchTerminations[reason]
	if !ok {
		return "", fmt.Errorf("compare: unknown game ending %q", reason)
	}
	return t, nil
}

// Record replays a finished match game from start and returns it as a game
// record: every position with its piece counts (board and hand) and the
// move played from it, the result from White's view and the ending. id names
// the game; the search fields (visits, value) stay empty.
func Record(id string, start *env.Position, g *match.Game) (datasets.GameRecord, error) {
	r := datasets.GameRecord{ID: id, Variant: start.Variant().Name, Model: g.White, Length: g.Plies}
	switch g.Result {
	case env.WhiteWins:
		r.Result = 1
	case env.BlackWins:
		r.Result = -1
	case env.Draw:
		r.Result = 0
	default:
		return r, fmt.Errorf("compare: game %s has no result", id)
	}
	var err error
	if r.Termination, err = Termination(g.Reason); err != nil {
		return r, fmt.Errorf("game %s: %w", id, err)
	}
	if len(g.Moves) != g.Plies || g.Plies == 0 {
		return r, fmt.Errorf("compare: game %s has %d moves for %d plies; want as many, and at least one", id, len(g.Moves), g.Plies)
	}
	pos := start.Clone()
	r.Positions = make([]datasets.PositionRecord, 0, g.Plies)
	for i, text := range g.Moves {
		m, err := pos.ParseMove(text)
		if err != nil {
			return r, fmt.Errorf("compare: game %s ply %d: move %q: %w", id, i, text, err)
		}
		r.Positions = append(r.Positions, datasets.PositionRecord{Ply: i, Position: pos.String(),
			WhiteToMove: pos.SideToMove() == env.White, Played: text, Pieces: selfplay.PieceCounts(pos)})
		pos.DoMove(m)
	}
	return r, nil
}

// Dataset turns the records of a match played from start into the games
// the statistics read. Game IDs are prefix-<index>.
func Dataset(prefix string, start *env.Position, games []match.Game) (*values.Dataset, error) {
	recs := make([]datasets.GameRecord, 0, len(games))
	for i := range games {
		r, err := Record(fmt.Sprintf("%s-%d", prefix, games[i].Index), start, &games[i])
		if err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	return values.FromRecords(recs)
}
