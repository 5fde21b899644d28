package selfplay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
)

// Progress is a snapshot of a run for a progress display.
type Progress struct {
	Games     int           // games finished and on disk
	Target    int           // games the run will finish
	Positions int64         // positions searched so far (all workers)
	Elapsed   time.Duration // since the run started
}

// Summary is what a finished run did.
type Summary struct {
	Games        int // games written
	Positions    int // positions recorded in them
	WhiteWins    int
	Draws        int
	BlackWins    int
	Resignations int
	LengthCaps   int // games drawn by reaching MaxPlies
	// Adjudications counts games stopped at MaxPlies and won on material.
	Adjudications int
	TotalPlies    int
	Elapsed       time.Duration
}

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
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	records := filepath.Join(cfg.Out, "records")
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t0 := time.Now()
	var (
		claimed   atomic.Int64
		positions atomic.Int64
		mu        sync.Mutex
		sum       Summary
	)
	claim := func() bool {
		if ctx.Err() != nil {
			return false
		}
		if claimed.Add(1) > int64(cfg.Games) {
			claimed.Add(-1)
			return false
		}
		return true
	}
	written := func(games []finished) {
		mu.Lock()
		defer mu.Unlock()
		for _, g := range games {
			sum.Games++
			sum.Positions += g.positions
			sum.TotalPlies += g.length
			switch g.result {
			case 1:
				sum.WhiteWins++
			case -1:
				sum.BlackWins++
			default:
				sum.Draws++
			}
			switch g.termination {
			case env.Resignation:
				sum.Resignations++
			case env.LengthCap:
				sum.LengthCaps++
			case env.Adjudication:
				sum.Adjudications++
			}
		}
	}
	report := func() {
		if progress == nil {
			return
		}
		mu.Lock()
		games := sum.Games
		mu.Unlock()
		progress(Progress{Games: games, Target: cfg.Games, Positions: positions.Load(), Elapsed: time.Since(t0)})
	}
	writer := cfg.Writer
	if writer == "" {
		host, _ := os.Hostname()
		writer = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	workers := cfg.WorkerCount()
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for id := 0; id < workers; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := runWorker(ctx, id, &cfg, r, m, records, fmt.Sprintf("%s-w%d", writer, id),
				claim, func(n int) { positions.Add(int64(n)) }, written)
			if err != nil {
				errs[id] = fmt.Errorf("worker %d: %w", id, err)
				cancel()
			}
		}()
	}
	stop := make(chan struct{})
	ticker := time.NewTicker(500 * time.Millisecond)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-ticker.C:
				report()
			}
		}
	}()
	wg.Wait()
	ticker.Stop()
	close(stop)
	report()
	sum.Elapsed = time.Since(t0)
	if err := errors.Join(errs...); err != nil {
		return &sum, err
	}
	return &sum, nil
}

// flushEvery bounds how long a finished game waits in a worker's buffer.
const flushEvery = 20 * time.Second

// runWorker runs one worker until no game is left to claim and its games
// are finished (or ctx is cancelled), then writes what it buffered.
func runWorker(ctx context.Context, id int, cfg *Config, r *agent.Rules, m *agent.Model, records, name string,
	claim func() bool, searched func(int), written func([]finished)) error {
	maxBatch := cfg.Slots * max(1, cfg.Search.LeavesPerGame)
	ev, err := m.NewEvaluator(maxBatch, cfg.Seed+uint64(id)*7919)
	if err != nil {
		return err
	}
	out, err := datasets.NewChunkWriter(cfg.Out, datasets.ChunkMeta{Writer: name})
	if err != nil {
		return err
	}
	w, err := newWorker(id, cfg, r, m.Name, ev, out, records)
	if err != nil {
		return err
	}
	w.claim, w.searched, w.written = claim, searched, written
	run := func() error {
		if err := w.fill(); err != nil {
			return err
		}
		for w.active > 0 && ctx.Err() == nil {
			if err := w.step(); err != nil {
				return err
			}
			if len(w.pending) > 0 && time.Since(w.lastFlush) > flushEvery {
				if err := w.flush(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err = run()
	if ferr := w.flush(); ferr != nil && err == nil {
		err = ferr
	}
	if cerr := out.Close(); cerr != nil && err == nil {
		err = cerr
	}
	return err
}
