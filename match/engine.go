package match

import (
	"context"
	"fmt"

	"bomberzero/engine"
	"bomberzero/env"
)

// EnginePlayer is the alpha-beta engine of package engine as a player:
// one engine per game, its table kept from move to move, searching each
// move within the spec's limits. With one thread and a node limit it plays
// the same game for the same seed.
type EnginePlayer struct {
	e    *engine.Engine
	lim  engine.Limits
	name string
	last engine.Result
	// threads is the number of search threads (Lazy SMP).
	threads int
}

var (
	_ ContextPlayer = (*EnginePlayer)(nil)
	_ Analyzer      = (*EnginePlayer)(nil)
	_ Metered       = (*EnginePlayer)(nil)
)

// NewEnginePlayer returns an engine player for variant v with the settings
// of spec, piece values table (centipawns by type, from agent.Values.Table)
// and seed; name is its spec.
func NewEnginePlayer(v *env.Variant, spec engine.Spec, table []int32, seed uint64, name string) (*EnginePlayer, error) {
	ev, err := spec.Evaluator(v, table)
	if err != nil {
		return nil, err
	}
	e, err := engine.New(v, engine.Options{HashMB: spec.HashMB, Threads: spec.Threads, Seed: seed, Table: table, Eval: ev})
	if err != nil {
		return nil, err
	}
	return &EnginePlayer{e: e, lim: spec.Limits, name: name, threads: max(spec.Threads, 1)}, nil
}

// Name returns the player's spec, as "engine:nodes=20000".
func (p *EnginePlayer) Name() string { return p.name }

// Meter is MeterThread for one search thread, which runs on the caller's
// goroutine; with more, the helper threads run on goroutines of their own
// (engine.Search's Lazy SMP), so the process's CPU is read (MeterProcess:
// exact with one game at a time).
func (p *EnginePlayer) Meter() Meter {
	if p.threads == 1 {
		return MeterThread
	}
	return MeterProcess
}

// Choose returns the engine's move.
func (p *EnginePlayer) Choose(pos *env.Position) (env.Move, error) {
	return p.ChooseContext(context.Background(), pos)
}

// ChooseContext returns the engine's move, or ctx's error soon after ctx
// ends.
func (p *EnginePlayer) ChooseContext(ctx context.Context, pos *env.Position) (env.Move, error) {
	res, err := p.e.Search(ctx, pos, p.lim, nil)
	if err != nil {
		return env.NoMove, err
	}
	if ctx.Err() != nil {
		return env.NoMove, ctx.Err()
	}
	p.last = res
	return res.Move, nil
}

// Last returns the result of the player's last search.
func (p *EnginePlayer) Last() engine.Result { return p.last }

// Analyze returns the engine's n best moves (MultiPV), best first, with
// their scores in pawns and principal variations.
func (p *EnginePlayer) Analyze(pos *env.Position, n int) ([]Candidate, error) {
	if n < 1 {
		return nil, nil
	}
	if err := p.e.SetMultiPV(min(n, engine.MaxMultiPV)); err != nil {
		return nil, err
	}
	res, err := p.e.Search(context.Background(), pos, p.lim, nil)
	if err2 := p.e.SetMultiPV(1); err == nil {
		err = err2
	}
	if err != nil {
		return nil, err
	}
	p.last = res
	out := make([]Candidate, 0, len(res.Lines))
	for _, l := range res.Lines {
		note := fmt.Sprintf("%+.2f", float64(l.Score)/100)
		if m := engine.MateMoves(l.Score); m > 0 {
			note = fmt.Sprintf("mate in %d", m)
		} else if m < 0 {
			note = fmt.Sprintf("mated in %d", -m)
		}
		out = append(out, Candidate{Move: l.PV[0], Score: float64(l.Score) / 100, PV: l.PV, Note: note})
	}
	return out, nil
}
