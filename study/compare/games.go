package compare

import (
	"fmt"

	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/selfplay"
	"bomberzero/study/values"
)

// Record replays a finished match game from its start (g.Start, or start
// for a game that does not carry one) and returns it as a game record:
// every position with its piece counts (board and hand) and the move played
// from it, the result from White's view and the ending. id names the game;
// the search fields (visits, value) stay empty.
func Record(id string, start *env.Position, g *match.Game) (datasets.GameRecord, error) {
	if g.Start != nil {
		start = g.Start
	}
	// Plies count from the variant's start: a book opening's are the
	// first start.Ply() of the game.
	r := datasets.GameRecord{ID: id, Variant: start.Variant().Name, Model: g.White, Length: start.Ply() + g.Plies}
	if g.Result == env.Ongoing {
		return r, fmt.Errorf("compare: game %s has no result", id)
	}
	r.Result = g.Result.For(env.White)
	r.Termination = g.Termination
	if _, err := g.Termination.MarshalText(); err != nil {
		return r, fmt.Errorf("compare: game %s: %w", id, err)
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
		r.Positions = append(r.Positions, datasets.PositionRecord{Ply: start.Ply() + i, Position: pos.String(),
			WhiteToMove: pos.SideToMove() == env.White, Played: text, Pieces: selfplay.PieceCounts(pos)})
		pos.DoMove(m)
	}
	return r, nil
}

// Dataset turns the records of a match played from start into the games
// the statistics read. Game IDs are prefix-<index>, and each game's Index
// is its index in the match (its pair in a paired design).
func Dataset(prefix string, start *env.Position, games []match.Game) (*values.Dataset, error) {
	ds, _, err := datasetAndRecords(prefix, start, games)
	return ds, err
}

// datasetAndRecords is Dataset that also returns the game records it was
// built from, in the order of games, so a caller can keep them on disk.
func datasetAndRecords(prefix string, start *env.Position, games []match.Game) (*values.Dataset, []datasets.GameRecord, error) {
	recs := make([]datasets.GameRecord, 0, len(games))
	for i := range games {
		r, err := Record(fmt.Sprintf("%s-%d", prefix, games[i].Index), start, &games[i])
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, r)
	}
	ds, err := values.FromRecords(recs)
	if err != nil {
		return nil, nil, err
	}
	for i := range ds.Games { // one game per record: the IDs differ
		ds.Games[i].Index = games[i].Index
	}
	return ds, recs, nil
}
