package learn

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"bomberzero/engine"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/metrics"
	"bomberzero/stats"
)

// GateResult is the gate match of a new net (A) against the best (B).
type GateResult struct {
	// Match is the result from A's point of view, as the trainer's
	// metrics record a match (so "bomberzero plot" draws it as one).
	metrics.Match
	LLR      float64 `json:"llr"`
	Decision string  `json:"decision"`
	Accepted bool    `json:"accepted"`
	// AMsPerMove and BMsPerMove are each side's mean search time a move
	// (one thread each, so about its CPU time).
	AMsPerMove float64 `json:"a_ms_per_move"`
	BMsPerMove float64 `json:"b_ms_per_move"`
}

// clock sums one side's search time over a match.
type clock struct{ ns, moves atomic.Int64 }

func (c *clock) msPerMove() float64 {
	if n := c.moves.Load(); n > 0 {
		return float64(c.ns.Load()) / float64(n) / 1e6
	}
	return 0
}

// gatePlayer is the engine at a node limit with a given evaluation.
type gatePlayer struct {
	e     *engine.Engine
	nodes int64
	name  string
	clock *clock
}

func (p *gatePlayer) Name() string { return p.name }

func (p *gatePlayer) Choose(pos *env.Position) (env.Move, error) {
	return p.ChooseContext(context.Background(), pos)
}

func (p *gatePlayer) ChooseContext(ctx context.Context, pos *env.Position) (env.Move, error) {
	t := time.Now()
	res, err := p.e.Search(ctx, pos, engine.Limits{Nodes: p.nodes}, nil)
	p.clock.ns.Add(int64(time.Since(t)))
	p.clock.moves.Add(1)
	if err != nil {
		return env.NoMove, err
	}
	if err := ctx.Err(); err != nil {
		return env.NoMove, err
	}
	return res.Move, nil
}

// maker returns the match maker of the engine with evaluation ev (nil the
// classical one; forked for each game) named name.
func maker(v *env.Variant, table []int32, ev engine.Evaluator, nodes int64, name string, c *clock) match.Maker {
	return match.Maker{Spec: name, New: func(seed uint64) (match.Player, error) {
		var e engine.Evaluator
		if ev != nil {
			e = ev.Fork()
		}
		eng, err := engine.New(v, engine.Options{HashMB: 4, Seed: seed, Table: table, Eval: e})
		if err != nil {
			return nil, err
		}
		return &gatePlayer{e: eng, nodes: nodes, name: name, clock: c}, nil
	}}
}

// GateConfig is how a new net is gated.
type GateConfig struct {
	// Games is the most games (pairs of an opening, colours swapped).
	Games int
	// SPRT stops the match early once it decides; a match that ends
	// undecided accepts the net when it scored over one half.
	SPRT stats.SPRT
	// OpeningPlies random plies open each pair of games.
	OpeningPlies int
	MaxPlies     int
	Nodes        int64
	Workers      int
	Seed         uint64
}

// Gate plays the engine with evaluation a (named aName) against the one
// with b at the same node count and decides whether a is accepted.
func Gate(ctx context.Context, v *env.Variant, table []int32, a, b engine.Evaluator, aName, bName string, cfg GateConfig, progress func(done int)) (GateResult, error) {
	book, err := match.RandomBook([]*env.Variant{v}, max(1, (cfg.Games+1)/2), max(1, cfg.OpeningPlies), cfg.Seed)
	if err != nil {
		return GateResult{}, err
	}
	starts, err := match.BookPositions(v, book)
	if err != nil {
		return GateResult{}, err
	}
	var ca, cb clock
	sprt := cfg.SPRT
	mc := match.Config{
		A: maker(v, table, a, cfg.Nodes, aName, &ca), B: maker(v, table, b, cfg.Nodes, bName, &cb),
		Games: cfg.Games, Variant: v, Book: starts, MaxPlies: cfg.MaxPlies, Seed: cfg.Seed, Workers: max(1, cfg.Workers), SPRT: &sprt,
	}
	if progress != nil {
		mc.Progress = func(r *match.Result) { progress(r.Total.Games()) }
	}
	r, err := match.Run(ctx, mc)
	if err != nil {
		return GateResult{}, fmt.Errorf("gate %s against %s: %w", aName, bName, err)
	}
	t := r.Total
	g := GateResult{Match: metrics.Match{A: aName, B: bName, Wins: t.Wins, Draws: t.Draws, Losses: t.Losses}, LLR: r.LLR, Decision: r.Decision,
		AMsPerMove: ca.msPerMove(), BMsPerMove: cb.msPerMove()}
	g.Score = stats.Score(t.Wins, t.Draws, t.Losses)
	g.Elo, g.EloLow, g.EloHigh = r.Est.Elo, r.Est.EloLow, r.Est.EloHigh
	switch sprt.Decide(t.Wins, t.Draws, t.Losses) {
	case stats.AcceptH1:
		g.Accepted = true
	case stats.Continue:
		g.Accepted = g.Score > 0.5
	}
	return g, nil
}
