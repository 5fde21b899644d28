package teacher

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
	"bomberzero/match"
	"bomberzero/selfplay"
)

// Progress is a snapshot of a run for a progress display.
type Progress struct {
	Games     int           // games finished and on disk
	Target    int           // games the run will finish
	Positions int64         // positions searched so far (all workers)
	Elapsed   time.Duration // since the run started
}

// Summary is what a run wrote.
type Summary struct {
	Games      int // games written
	Positions  int // positions recorded in them
	WhiteWins  int
	Draws      int
	BlackWins  int
	TotalPlies int
	// Ends counts the games by how they ended.
	Ends    map[env.Termination]int
	Elapsed time.Duration
}

// Decisive returns the share of the games won by either side.
func (s *Summary) Decisive() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.WhiteWins+s.BlackWins) / float64(s.Games)
}

// MeanPlies returns the games' mean length in plies.
func (s *Summary) MeanPlies() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.TotalPlies) / float64(s.Games)
}

// add counts one written game.
func (s *Summary) add(g *game) {
	s.Games++
	s.Positions += len(g.rec.Positions)
	s.TotalPlies += g.rec.Length
	switch g.rec.Result {
	case 1:
		s.WhiteWins++
	case -1:
		s.BlackWins++
	default:
		s.Draws++
	}
	if s.Ends == nil {
		s.Ends = map[env.Termination]int{}
	}
	s.Ends[g.rec.Termination]++
}

// Run plays cfg.Games teacher games on cfg.Workers goroutines and writes
// them to cfg.Out: datasets chunks in the directory itself, one game
// record per game in its "records" subdirectory (each record before the
// chunk holding its game). progress, if not nil, is called about twice a
// second and at the end. Cancelling ctx stops the run after writing the
// games already finished; games in progress are dropped.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (*Summary, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		return nil, fmt.Errorf("teacher: variant %s: %w", cfg.Variant, err)
	}
	if _, err := match.NewAlphaBeta(v, cfg.Depth, agent.DefaultValues(), 0); err != nil {
		return nil, fmt.Errorf("teacher: %w", err)
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, fmt.Errorf("teacher: output directory: %w", err)
	}
	index := env.NewMoveIndex(v)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	t0 := time.Now()
	var (
		claimed   atomic.Int64
		positions atomic.Int64
		mu        sync.Mutex
		sum       Summary
	)
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
	n := cfg.workers()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for id := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &worker{cfg: &cfg, p: newPlayer(&cfg, v, index), records: filepath.Join(cfg.Out, "records"),
				written: func(games []*game) {
					mu.Lock()
					defer mu.Unlock()
					for _, g := range games {
						sum.add(g)
					}
				}}
			err := w.run(ctx, fmt.Sprintf("%s-w%d", writer, id), func() (int, bool) {
				k := claimed.Add(1) - 1
				return int(k), k < int64(cfg.Games)
			}, func(n int) { positions.Add(int64(n)) })
			if err != nil {
				errs[id] = fmt.Errorf("teacher: worker %d: %w", id, err)
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
	return &sum, errors.Join(errs...)
}

// worker plays games one after the other and writes them in chunks.
type worker struct {
	cfg       *Config
	p         *player
	records   string
	out       *datasets.ChunkWriter
	pending   []*game
	lastFlush time.Time
	written   func([]*game)
}

// run plays the games claim hands out until none is left or ctx ends,
// then writes what it buffered.
func (w *worker) run(ctx context.Context, name string, claim func() (int, bool), searched func(int)) error {
	out, err := datasets.NewChunkWriter(w.cfg.Out, datasets.ChunkMeta{Writer: name})
	if err != nil {
		return err
	}
	w.out, w.lastFlush = out, time.Now()
	err = func() error {
		for ctx.Err() == nil {
			k, ok := claim()
			if !ok {
				return nil
			}
			g, err := w.p.play(ctx, k)
			if err != nil {
				if ctx.Err() != nil {
					return nil // stopped: the game in progress is dropped
				}
				return err
			}
			searched(len(g.rec.Positions))
			if err := w.add(g); err != nil {
				return err
			}
		}
		return nil
	}()
	if ferr := w.flush(); ferr != nil && err == nil {
		err = ferr
	}
	if cerr := out.Close(); cerr != nil && err == nil {
		err = cerr
	}
	return err
}

// add writes g's game record and buffers its rows, flushing when the
// buffer is full or old.
func (w *worker) add(g *game) error {
	text := selfplay.GameText{ID: g.rec.ID, Variant: g.rec.Variant, Model: g.rec.Model, Generation: g.rec.Generation,
		Result: g.res.String(), Termination: g.rec.Termination.String(), Moves: g.moves}
	if _, err := selfplay.WriteRecord(w.records, &text); err != nil {
		return err
	}
	if err := w.out.AddGame(&g.rec); err != nil {
		return fmt.Errorf("game %s: %w", g.rec.ID, err)
	}
	w.pending = append(w.pending, g)
	if len(w.pending) >= w.cfg.FlushGames || time.Since(w.lastFlush) >= w.cfg.FlushEvery {
		return w.flush()
	}
	return nil
}

// flush writes the buffered games as one chunk and reports them.
func (w *worker) flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	if _, err := w.out.Flush(); err != nil {
		return fmt.Errorf("writing %d finished games: %w", len(w.pending), err)
	}
	w.written(w.pending)
	w.pending = nil
	w.lastFlush = time.Now()
	return nil
}
