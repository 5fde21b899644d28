package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"bomberzero/engine/learn"
	"bomberzero/engine/nnue/fit"
	"bomberzero/internal/progress"
)

// nnueFitUsage is the help text of "bomberzero nnue fit".
const nnueFitUsage = `usage: bomberzero nnue fit --data DIR[,DIR...] --out NET [--init NET] [flags]

Trains a net on the Parquet chunks of "bomberzero nnue" runs or "nnue
worker"s, outside the loop: every chunk-*.parquet in each DIR and in its
subfolders two levels down (a run's data/gen-KKKK/), read in path order,
the newest --max-positions kept. The training is the loop's (learn.NNUE,
sparse trainer by default) with the same flags; it resumes after a kill
from NET's .train-checkpoint. Prints the positions, the losses and the
seconds.

--mirror gives a new net file-mirrored input features (Stockfish's
HalfKAv2_hm idea): a side whose own king stands on the left half of the
board (files a-e of 10, a-d of 8) sees the board reflected a<->j, so each
piece-square weight learns from both wings' positions and the first layer
has half the squares to fit. It combines with --king-buckets, whose file
zones then divide the right half (at most files - files/2 of them); a board
whose holes are not symmetric file-wise (claustrophobia) refuses it. A net
from --init keeps its own mirror and buckets.

--init may name the net of another variant with the same input layout (the
same board, cells and piece letters: fbgc's net for fbgc-superpower or
fbgc-superknights), to start a related variant's first net from what that one
learned; the net written is --variant's. The chunks must be --variant's.`

// runNNUEFit implements "bomberzero nnue fit".
func runNNUEFit(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("nnue fit", nnueFitUsage, stderr)
	fc := fit.DefaultConfig()
	variant := variantFlag(fs)
	dataDirs := fs.String("data", "", "directories of chunks, comma-separated (required)")
	out := fs.String("out", "", "net file to write (required)")
	init := fs.String("init", "", "net file to continue from (default: a new net)")
	maxPos := fs.Int("max-positions", 10_000_000, "most positions trained on (the newest chunks')")
	seed := fs.Uint64("seed", 1, "seed of the split, the order and a new net's weights")
	dedup := fs.Bool("dedup", true, "keep only the first of the positions equal but for their move counters (openings repeat)")
	applyFit := fitFlags(fs, &fc)
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dataDirs == "" || *out == "" {
		return fmt.Errorf("%w: nnue fit needs --data DIR and --out NET", errUsage)
	}
	if err := applyFit(); err != nil {
		return err
	}
	if *maxPos < 1 {
		return fmt.Errorf("%w: --max-positions %d: want at least 1", errUsage, *maxPos)
	}
	v, table, err := variantTable(*variant, "")
	if err != nil {
		return err
	}
	if err := fitVariant(v, table, &fc); err != nil {
		return err
	}
	var paths []string
	for _, d := range strings.Split(*dataDirs, ",") {
		found := 0
		for _, pat := range []string{"chunk-*.parquet", "*/chunk-*.parquet", "*/*/chunk-*.parquet"} {
			m, err := filepath.Glob(filepath.Join(d, pat))
			if err != nil {
				return fmt.Errorf("--data %s: %w", d, err)
			}
			found += len(m)
			paths = append(paths, m...)
		}
		if found == 0 {
			return fmt.Errorf("--data %s: no chunk-*.parquet in it or its subfolders", d)
		}
	}
	sort.Strings(paths)
	var rows []learn.Row
	for _, p := range paths {
		m, r, err := learn.ReadChunk(p)
		if err != nil {
			return err
		}
		if m.Variant != v.Name {
			// Another variant's positions may parse, so they would be
			// trained on with their scores under other rules.
			return fmt.Errorf("--data: chunk %s holds positions of variant %s, not %s (--variant)", p, m.Variant, v.Name)
		}
		rows = append(rows, r...)
	}
	read := len(rows)
	if *dedup {
		rows = dedupRows(rows)
	}
	if len(rows) > *maxPos {
		rows = rows[len(rows)-*maxPos:]
	}
	fmt.Fprintf(progressTo(stderr, *quiet), "nnue fit: %d positions from %d chunks (%d read), %s trainer\n", len(rows), len(paths), read, fc.Trainer)
	var bar *progress.Bar
	prog := func(step, total int) {
		if bar == nil {
			bar = progress.New(progressTo(stderr, *quiet), total, "nnue fit", "steps")
		}
		bar.Set(step)
	}
	ctx, stop := stopContext()
	defer stop()
	start := time.Now()
	ts, err := learn.NNUE{Fit: fc}.Train(ctx, v, rows, *init, *out, *seed, prog)
	if bar != nil {
		bar.Stop()
	}
	if err != nil {
		if errors.Is(err, ctx.Err()) && ctx.Err() != nil {
			fmt.Fprintf(stderr, "stopped; run the same command to resume from %s\n", learn.CheckpointPath(*out))
		}
		return err
	}
	if _, err := os.Stat(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d positions (%d trained on, %d validation), loss %.5f, validation loss %.5f, %.1f s\n",
		*out, len(rows), ts.Samples, ts.Validation, ts.TrainLoss, ts.ValidationLoss, time.Since(start).Seconds())
	return nil
}

// dedupRows returns rows without the repeats of a position: a row whose
// FEN, its last two fields (the move counters) left out, came before is
// dropped. The order is kept.
func dedupRows(rows []learn.Row) []learn.Row {
	seen := make(map[string]bool, len(rows))
	out := rows[:0:0]
	for _, r := range rows {
		key := r.FEN
		for range 2 {
			if i := strings.LastIndexByte(key, ' '); i > 0 {
				key = key[:i]
			}
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, r)
		}
	}
	return out
}
