package selfplay

import (
	"context"
	"fmt"
	"time"

	"bomberzero/agent"
	"bomberzero/env"
)

// Run plays cfg.Games games of self-play with cfg.Model and writes them to
// cfg.Out: Parquet chunks (package datasets) in the directory itself and one
// game record per game in its "records" subdirectory. progress, if not nil,
// is called about twice a second and at the end. Cancelling ctx stops the
// run after writing the games already finished; games in progress are
// dropped.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (*Summary, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		return nil, fmt.Errorf("variant %s: %w", cfg.Variant, err)
	}
	r := agent.NewRules(v, cfg.MaxPlies)
	if cfg.Start != "" {
		if _, err := v.ParsePosition(cfg.Start); err != nil {
			return nil, fmt.Errorf("start position %q: %w", cfg.Start, err)
		}
	}
	m, err := agent.LoadModel(cfg.Model, r)
	if err != nil {
		return nil, err
	}
	return RunModel(ctx, cfg, r, m, progress)
}

// RunModel is Run with the rules and model already built (cfg.Variant and
// cfg.Model are not read), for callers that hold a network in memory.
func RunModel(ctx context.Context, cfg Config, r *agent.Rules, m *agent.Model, progress func(Progress)) (*Summary, error) {
	cfg.Variant, cfg.Model = r.Variant.Name, m.Name
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	d := Driver{Out: cfg.Out, Games: cfg.Games, First: cfg.FirstGame, Skip: cfg.SkipGames, Workers: cfg.WorkerCount(),
		Writer: cfg.Writer, Start: cfg.Start, FlushGames: cfg.FlushGames, FlushEvery: flushEvery}
	return d.Run(ctx, func(id int) (Player, error) {
		ev, err := m.NewEvaluator(cfg.Slots*max(1, cfg.Search.LeavesPerGame), cfg.Seed+uint64(id)*7919)
		if err != nil {
			return nil, err
		}
		return newMCTSPlayer(id, &cfg, r, m.Name, ev)
	}, progress)
}

// flushEvery bounds how long a finished game waits in a worker's buffer.
const flushEvery = 20 * time.Second
