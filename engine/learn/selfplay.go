package learn

import (
	"context"
	"fmt"
	"math/rand/v2"

	"bomberzero/engine"
	"bomberzero/env"
)

// PlayConfig is how one self-play game is played.
type PlayConfig struct {
	// Nodes is each move's node limit.
	Nodes int64
	// RandomPlies uniformly random moves open each game; their positions
	// are not recorded.
	RandomPlies int
	// DiversePlies moves after the random ones are chosen at random among
	// the MultiPV best lines scoring within Margin centipawns of the best.
	DiversePlies int
	MultiPV      int
	Margin       int32
	// MaxPlies caps a game, adjudicated a draw.
	MaxPlies int
}

// DefaultPlayConfig returns settings that fit two cores: 1,500 nodes a
// move, about 160 games a minute a core in fbgc with the learned
// evaluation. At 1,500 nodes the classical engine plays 2.5 times the
// games of 3,000 nodes in the same time, and a run of them learned more
// in two hours than one at 3,000 (docs/RESULTS.md, "Half the nodes").
func DefaultPlayConfig() PlayConfig {
	return PlayConfig{Nodes: 1500, RandomPlies: 8, DiversePlies: 12, MultiPV: 3, Margin: 25, MaxPlies: 300}
}

// Validate checks the settings.
func (c PlayConfig) Validate() error {
	switch {
	case c.Nodes < 1 || c.Nodes > engine.MaxNodes:
		return fmt.Errorf("nodes %d: want 1 to %d", c.Nodes, engine.MaxNodes)
	case c.RandomPlies < 0 || c.DiversePlies < 0 || c.Margin < 0:
		return fmt.Errorf("random plies %d, diverse plies %d, margin %d: want 0 or more", c.RandomPlies, c.DiversePlies, c.Margin)
	case c.MultiPV < 1 || c.MultiPV > engine.MaxMultiPV:
		return fmt.Errorf("multipv %d: want 1 to %d", c.MultiPV, engine.MaxMultiPV)
	case c.MaxPlies < 1:
		return fmt.Errorf("max plies %d: want at least 1", c.MaxPlies)
	}
	return nil
}

// GameStats is how one game went.
type GameStats struct {
	Result env.Result // env.Draw for a capped game
	Plies  int
	Capped bool
}

// mix64 is splitmix64's finalizer.
func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// gameSeed is the seed of game g of generation gen of a run seeded seed.
func gameSeed(seed uint64, gen, g int) uint64 {
	return mix64(mix64(seed^uint64(gen)<<32) ^ uint64(g))
}

// PlayGame plays one engine self-play game of variant v with evaluation
// ev (nil: the classical one) over piece table table, and returns its
// recorded positions (not in check, the best move neither a capture nor
// a promotion, the score not a mate) with the result filled in. The same
// seed gives the same game.
func PlayGame(ctx context.Context, v *env.Variant, table []int32, ev engine.Evaluator, cfg PlayConfig, seed uint64, game int) ([]Row, GameStats, error) {
	e, err := engine.New(v, engine.Options{HashMB: 4, Seed: seed, Table: table, Eval: ev, MultiPV: 1})
	if err != nil {
		return nil, GameStats{}, err
	}
	rng := rand.New(rand.NewPCG(seed, uint64(game)))
	pos := v.NewPosition()
	var buf [env.MaxMoves]env.Move
	var rows []Row
	var sides []env.Color
	lim := engine.Limits{Nodes: cfg.Nodes}
	finish := func(r env.Result, plies int, capped bool) ([]Row, GameStats, error) {
		for i := range rows {
			rows[i].Result = float32(r.For(sides[i])+1) / 2
		}
		return rows, GameStats{Result: r, Plies: plies, Capped: capped}, nil
	}
	for ply := 0; ply < cfg.MaxPlies; ply++ {
		if err := ctx.Err(); err != nil {
			return nil, GameStats{}, err
		}
		moves := pos.LegalMoves(buf[:0])
		if r, _ := pos.StatusOf(len(moves)); r != env.Ongoing {
			return finish(r, ply, false)
		}
		if ply < cfg.RandomPlies {
			pos.DoMove(moves[rng.IntN(len(moves))])
			continue
		}
		diverse := ply < cfg.RandomPlies+cfg.DiversePlies && cfg.MultiPV > 1
		mpv := 1
		if diverse {
			mpv = cfg.MultiPV
		}
		if err := e.SetMultiPV(mpv); err != nil {
			return nil, GameStats{}, err
		}
		res, err := e.Search(ctx, pos, lim, nil)
		if err != nil {
			return nil, GameStats{}, err
		}
		if err := ctx.Err(); err != nil {
			return nil, GameStats{}, err
		}
		move, score := res.Move, res.Score
		if len(res.Lines) > 0 && len(res.Lines[0].PV) > 0 {
			score = res.Lines[0].Score
		}
		if !pos.InCheck() && !pos.IsTactical(move) && !engine.IsMate(score) {
			rows = append(rows, Row{FEN: pos.String(), Score: score, Ply: int32(ply), Game: int32(game)})
			sides = append(sides, pos.SideToMove())
		}
		if diverse {
			var near []env.Move
			for _, l := range res.Lines {
				if len(l.PV) > 0 && l.Score >= score-cfg.Margin && !engine.IsMate(l.Score) {
					near = append(near, l.PV[0])
				}
			}
			if len(near) > 1 {
				move = near[rng.IntN(len(near))]
			}
		}
		pos.DoMove(move)
	}
	return finish(env.Draw, cfg.MaxPlies, true)
}
