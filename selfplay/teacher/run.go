package teacher

import (
	"context"
	"fmt"

	"bomberzero/env"
	"bomberzero/selfplay"
)

// Progress is a snapshot of a run for a progress display.
type Progress = selfplay.Progress

// Summary is what a run wrote.
type Summary = selfplay.Summary

// Run plays cfg.Games teacher games on cfg.Workers goroutines and writes
// them to cfg.Out: datasets chunks in the directory itself, one game
// record per game in its "records" subdirectory (each record before the
// chunk holding its game), through self-play's driver (selfplay.Driver)
// with the teacher (Config.Player) as its player. progress, if not nil, is
// called about twice a second and at the end. Cancelling ctx stops the
// run after writing the games already finished; games in progress are
// dropped.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (*Summary, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		return nil, fmt.Errorf("teacher: variant %s: %w", cfg.Variant, err)
	}
	tb, err := newTeacherBase(&cfg, v)
	if err != nil {
		return nil, fmt.Errorf("teacher: %w", err)
	}
	index := env.NewMoveIndex(v)
	d := selfplay.Driver{Out: cfg.Out, Games: cfg.Games, Workers: cfg.workers(), Writer: cfg.Writer,
		FlushGames: cfg.FlushGames, FlushEvery: cfg.FlushEvery, Skip: cfg.SkipGames}
	sum, err := d.Run(ctx, func(int) (selfplay.Player, error) { return newPlayer(&cfg, v, index, tb), nil }, progress)
	if err != nil {
		return sum, fmt.Errorf("teacher: %w", err)
	}
	return sum, nil
}

// Play plays the games w hands out one after the other until none is left
// or ctx ends (the game in progress is then dropped).
func (p *player) Play(ctx context.Context, w *selfplay.Worker) error {
	for {
		k, ok := w.Claim()
		if !ok {
			return nil
		}
		g, err := p.play(ctx, k)
		if err != nil {
			if ctx.Err() != nil {
				return nil // stopped: the game in progress is dropped
			}
			return err
		}
		w.Searched(len(g.rec.Positions))
		if err := w.Done(selfplay.Finished{Rec: &g.rec, Moves: g.moves}); err != nil {
			return err
		}
	}
}
