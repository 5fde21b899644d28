package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"

	"bomberzero/engine/learn"
	"bomberzero/internal/progress"
)

// nnueWorkerUsage is the help text of "bomberzero nnue worker".
const nnueWorkerUsage = `usage: bomberzero nnue worker --out DIR --games N [--first-chunk C --chunks K] [--net FILE] [flags]

Plays a share of one generation's self-play games of "bomberzero nnue" and
writes their Parquet chunks to DIR, as the loop's own self-play does: chunk
c holds games c*--chunk-games to (c+1)*--chunk-games-1 of the --games,
each game seeded from --seed, --generation and its number only, so workers
on any machines, each given other chunks, write together the chunks one
"bomberzero nnue" run with the same settings writes to RUN/data/gen-KKKK/.
The engine plays with the classical evaluation, or with --net FILE. A chunk
already in DIR is verified and kept; a killed worker run again loses only
the games of the chunk it was playing. The data settings (--seed,
--generation, --games, --chunk-games, --nodes and the openings) must be the
same on every worker of a generation.`

// runNNUEWorker implements "bomberzero nnue worker".
func runNNUEWorker(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("nnue worker", nnueWorkerUsage, stderr)
	def := learn.DefaultConfig()
	variant := variantFlag(fs)
	out := fs.String("out", "", "directory the chunks are written to (required)")
	net := fs.String("net", "", "net file the engine plays (empty: the classical evaluation)")
	gen := fs.Int("generation", 0, "generation the games belong to (labels the chunks, seeds the games)")
	games := fs.Int("games", 0, "games of the whole generation (required)")
	chunk := fs.Int("chunk-games", def.ChunkGames, "games a chunk")
	first := fs.Int("first-chunk", 0, "first chunk this worker plays")
	chunks := fs.Int("chunks", 1<<20, "chunks this worker plays (default: all from --first-chunk on)")
	playConfig := playFlags(fs, def.Play, "node limit of each move")
	over := tableFlag(fs)
	workers := fs.Int("workers", def.Workers, "games played at once (0: one per core; the games do not depend on it)")
	seed := fs.Uint64("seed", def.Seed, "seed of the run")
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *out == "":
		return fmt.Errorf("%w: nnue worker needs --out DIR", errUsage)
	case *games < 1:
		return fmt.Errorf("%w: --games %d: want the generation's games, at least 1", errUsage, *games)
	case *chunk < 1:
		return fmt.Errorf("%w: --chunk-games %d: want at least 1", errUsage, *chunk)
	case *first < 0 || *first*(*chunk) >= *games:
		return fmt.Errorf("%w: --first-chunk %d: want 0 to %d (the generation has %d chunks)", errUsage, *first, (*games-1) / *chunk, (*games+*chunk-1) / *chunk)
	case *chunks < 1:
		return fmt.Errorf("%w: --chunks %d: want at least 1", errUsage, *chunks)
	case *gen < 0:
		return fmt.Errorf("%w: --generation %d: want 0 or more", errUsage, *gen)
	case *workers < 0:
		return fmt.Errorf("%w: --workers %d: want 0 (one per core) or more", errUsage, *workers)
	}
	if *workers == 0 {
		*workers = runtime.GOMAXPROCS(0)
	}
	v, table, err := variantTable(*variant, *over)
	if err != nil {
		return err
	}
	play := playConfig()
	if err := play.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *net != "" {
		if _, err := learn.LoadNet(v, *net); err != nil {
			return fmt.Errorf("--net: %w", err)
		}
	}
	cfg := learn.WorkerConfig{Variant: v, Table: table, Net: *net, Dir: *out, Generation: *gen, Games: *games, ChunkGames: *chunk,
		FirstChunk: *first, Chunks: *chunks, Play: play, Workers: *workers, Seed: *seed}
	last := min(*first+*chunks, (*games+*chunk-1) / *chunk)
	total := min(last*(*chunk), *games) - *first*(*chunk)
	bar := progress.New(progressTo(stderr, *quiet), total, fmt.Sprintf("nnue worker gen %d chunks %d-%d", *gen, *first, last-1), "games")
	cfg.Progress = bar.ResumeFunc()
	ctx, stop := stopContext()
	defer stop()
	if err := learn.Worker(ctx, cfg); err != nil {
		bar.Stop()
		if errors.Is(err, ctx.Err()) && ctx.Err() != nil {
			fmt.Fprintf(stderr, "stopped; run the same command to go on writing %s\n", *out)
		}
		return err
	}
	bar.Finish()
	fmt.Fprintf(stdout, "chunks %d to %d of generation %d in %s\n", *first, last-1, *gen, *out)
	return nil
}
