package learn

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"bomberzero/engine"
	"bomberzero/env"
	"bomberzero/internal/atomicfile"
)

// WorkerConfig is a stateless self-play job: chunks FirstChunk to
// FirstChunk+Chunks-1 of a generation, written to Dir. Chunk c holds games
// c*ChunkGames to (c+1)*ChunkGames-1 (fewer in the last, up to Games), each
// seeded from Seed, Generation and its number only, so any number of
// workers on any machines, each given its own chunks, write the chunks one
// process would.
type WorkerConfig struct {
	Variant *env.Variant
	Table   []int32
	// Net is the net file the engine plays, "" the classical evaluation;
	// Trainer loads it (nil: NNUE).
	Net     string
	Trainer Trainer
	Dir     string
	// Generation labels the chunks and seeds the games.
	Generation         int
	Games, ChunkGames  int
	FirstChunk, Chunks int
	Play               PlayConfig
	Workers            int
	Seed               uint64
	// Progress, if not nil, is told the games done among the job's: first,
	// before any game, those of the chunks already in Dir (a resumed job's;
	// progress.Bar.ResumeFunc takes it so), then after each game.
	Progress   func(done, total int)
	AfterGame  func(gen, game int)
	AfterChunk func(chunk int) error
}

// Worker plays the job's chunks that are not in Dir yet, in order, each
// written atomically once its games are done. A chunk already there is
// kept once its footer checks out (ReadChunkMeta: a truncated or foreign
// file is an error naming it; its rows are verified by whatever reads
// them), so a killed worker run again loses only the games of the chunk it
// was playing, and starts in seconds over thousands of chunks.
func Worker(ctx context.Context, cfg WorkerConfig) error {
	if err := cfg.Play.Validate(); err != nil {
		return err
	}
	if cfg.Variant == nil || cfg.Dir == "" || cfg.Games < 1 || cfg.ChunkGames < 1 || cfg.FirstChunk < 0 || cfg.Chunks < 1 || cfg.Workers < 1 {
		return errors.New("learn worker: want a variant, a directory, games, chunk games, chunks and workers")
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return err
	}
	var ev engine.Evaluator
	if cfg.Net != "" {
		t := cfg.Trainer
		if t == nil {
			t = NNUE{}
		}
		var err error
		if ev, err = t.Evaluator(cfg.Variant, cfg.Table, cfg.Net); err != nil {
			return err
		}
	}
	// A process killed while writing a chunk leaves its temporary file;
	// one worker writes a chunk, so it goes.
	if tmps, err := filepath.Glob(filepath.Join(cfg.Dir, atomicfile.TempPrefix+"chunk-*")); err == nil {
		for _, t := range tmps {
			os.Remove(t)
		}
	}
	var todo []int
	done, total := 0, 0
	last := min(cfg.FirstChunk+cfg.Chunks, (cfg.Games+cfg.ChunkGames-1)/cfg.ChunkGames)
	for c := cfg.FirstChunk; c < last; c++ {
		games := min((c+1)*cfg.ChunkGames, cfg.Games) - c*cfg.ChunkGames
		total += games
		path := chunkIn(cfg.Dir, c)
		if !exists(path) {
			todo = append(todo, c)
			continue
		}
		m, err := ReadChunkMeta(path)
		if err != nil {
			return fmt.Errorf("%w (delete it to play its games again)", err)
		}
		if m.Generation != cfg.Generation || m.Variant != cfg.Variant.Name || m.Games != games {
			return fmt.Errorf("chunk %s: %d games of generation %d of %s, want %d of generation %d of %s", path, m.Games, m.Generation, m.Variant, games, cfg.Generation, cfg.Variant.Name)
		}
		done += m.Games
	}
	progress := func() {
		if cfg.Progress != nil {
			cfg.Progress(done, total)
		}
	}
	progress()
	for _, c := range todo {
		lo, hi := c*cfg.ChunkGames, min((c+1)*cfg.ChunkGames, cfg.Games)
		rows, meta, err := playChunk(ctx, cfg, ev, lo, hi, func() { done++; progress() })
		if err != nil {
			return err
		}
		meta.Variant, meta.Generation = cfg.Variant.Name, cfg.Generation
		if err := WriteChunk(chunkIn(cfg.Dir, c), meta, rows); err != nil {
			return err
		}
		if cfg.AfterChunk != nil {
			if err := cfg.AfterChunk(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// chunkIn returns the path of chunk c in directory dir.
func chunkIn(dir string, c int) string {
	return filepath.Join(dir, fmt.Sprintf("chunk-%04d.parquet", c))
}

// SortChunkPaths sorts paths of chunks (chunk-NNNN.parquet) by folder and,
// in a folder, in the order of their numbers: chunk-9999 before
// chunk-10000, which a sort by name would put after chunk-1000. Below
// 10,000 chunks a folder it is the order by name.
func SortChunkPaths(paths []string) {
	slices.SortFunc(paths, func(a, b string) int {
		if c := strings.Compare(filepath.Dir(a), filepath.Dir(b)); c != 0 {
			return c
		}
		a, b = filepath.Base(a), filepath.Base(b)
		if len(a) != len(b) {
			return len(a) - len(b) // more digits, a larger number
		}
		return strings.Compare(a, b)
	})
}

// playChunk plays games lo to hi-1 on the workers and returns their rows
// in game order.
func playChunk(ctx context.Context, cfg WorkerConfig, ev engine.Evaluator, lo, hi int, finished func()) ([]Row, ChunkMeta, error) {
	type game struct {
		rows []Row
		st   GameStats
		err  error
	}
	out := make([]game, hi-lo)
	next := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(cfg.Workers, hi-lo) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var e engine.Evaluator
			if ev != nil {
				e = ev.Fork()
			}
			for g := range next {
				rows, gs, err := PlayGame(ctx, cfg.Variant, cfg.Table, e, cfg.Play, gameSeed(cfg.Seed, cfg.Generation, g), g)
				out[g-lo] = game{rows, gs, err}
				mu.Lock()
				finished()
				if cfg.AfterGame != nil {
					cfg.AfterGame(cfg.Generation, g)
				}
				mu.Unlock()
			}
		}()
	}
	for g := lo; g < hi && ctx.Err() == nil; g++ {
		next <- g
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, ChunkMeta{}, err
	}
	var rows []Row
	var meta ChunkMeta
	for i := range out {
		if out[i].err != nil {
			return nil, ChunkMeta{}, fmt.Errorf("generation %d game %d: %w", cfg.Generation, lo+i, out[i].err)
		}
		rows = append(rows, out[i].rows...)
		meta.add(out[i].st)
	}
	return rows, meta, nil
}
