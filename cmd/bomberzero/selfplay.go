package main

import (
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/schollz/progressbar/v3"

	"bomberzero/datasets"
	"bomberzero/dirlock"
	"bomberzero/selfplay"
)

// runSelfplay plays games of self-play and writes their training data and
// game records ("bomberzero selfplay --variant V --model CKPT|none --games N --out DIR").
func runSelfplay(args []string, stdout, stderr io.Writer) error {
	d := selfplay.DefaultConfig("fbgc")
	fs := newFlagSet("selfplay", "usage: bomberzero selfplay [flags]\n\nPlays games of self-play and writes Parquet chunks to --out and one Game Courier\nrecord per game to --out/records (bomberzero replay reads them).", stderr)
	c := d
	fs.StringVar(&c.Variant, "variant", d.Variant, variantHelp)
	fs.StringVar(&c.Model, "model", d.Model, "checkpoint file, or none for the network-free evaluator")
	fs.StringVar(&c.Evaluator, "evaluator", d.Evaluator, "network-free evaluator with --model none: material, uniform or rollout")
	fs.IntVar(&c.Generation, "generation", d.Generation, "training generation recorded with the games")
	fs.StringVar(&c.Start, "fen", d.Start, "start position text (default: the variant's start)")
	fs.IntVar(&c.Games, "games", d.Games, "games to play")
	fs.StringVar(&c.Out, "out", d.Out, "output directory: data chunks, and game records in DIR/records")
	fs.IntVar(&c.Workers, "workers", d.Workers, "worker goroutines (default: one per core)")
	fs.IntVar(&c.Slots, "slots", d.Slots, "games each worker plays at once (its batch size)")
	fs.IntVar(&c.Search.Sims, "sims", d.Search.Sims, "playouts of a full search")
	fs.IntVar(&c.Search.CheapSims, "cheap-sims", d.Search.CheapSims, "playouts of a cheap search (playout-cap randomization)")
	fs.Float64Var(&c.Search.CheapShare, "cheap-share", d.Search.CheapShare, "share of searches that are cheap (not trained on)")
	fs.BoolVar(&c.Search.Gumbel, "gumbel", d.Search.Gumbel, "Gumbel root search instead of PUCT")
	fs.IntVar(&c.Search.TempPlies, "temp-plies", d.Search.TempPlies, "plies played at temperature --temp for opening diversity")
	fs.Float64Var(&c.Search.Temp, "temp", d.Search.Temp, "move temperature of the opening plies")
	fs.IntVar(&c.MaxPlies, "max-plies", d.MaxPlies, "plies after which a game ends drawn (flagged length-cap)")
	fs.Float64Var(&c.ResignThreshold, "resign-threshold", d.ResignThreshold, "search value under which a move counts towards resigning")
	fs.IntVar(&c.ResignMoves, "resign-moves", d.ResignMoves, "consecutive moves under the threshold that make a side resign (0: never)")
	fs.Float64Var(&c.ResignOffShare, "resign-off", d.ResignOffShare, "share of games with resignation off, to measure false resignations")
	fs.IntVar(&c.FlushGames, "flush-games", d.FlushGames, "finished games per chunk a worker writes")
	seed := fs.Uint64("seed", d.Seed, "random seed")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c.Seed = *seed
	if err := c.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	lock, err := dirlock.Acquire(c.Out)
	if err != nil {
		return err
	}
	defer lock.Release()
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		c.Seed = dirSeed(c.Seed, c.Out)
	}
	ctx, stop := stopContext()
	defer stop()
	bar := progressbar.NewOptions(c.Games, progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription("games"), progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(), progressbar.OptionThrottle(200*time.Millisecond))
	sum, err := selfplay.Run(ctx, c, func(p selfplay.Progress) {
		rate := float64(p.Positions) / max(p.Elapsed.Seconds(), 1e-9)
		bar.Describe(fmt.Sprintf("games (%.1f positions/s)", rate))
		bar.Set(p.Games)
	})
	bar.Finish()
	fmt.Fprintln(stderr)
	if sum != nil {
		avg := 0.0
		if sum.Games > 0 {
			avg = float64(sum.TotalPlies) / float64(sum.Games)
		}
		fmt.Fprintf(stdout, "games %d (+%d =%d -%d), positions %d, average length %.1f plies, resignations %d, length-cap draws %d, %.1f positions/s, in %s\n",
			sum.Games, sum.WhiteWins, sum.Draws, sum.BlackWins, sum.Positions, avg, sum.Resignations, sum.LengthCaps,
			float64(sum.Positions)/max(sum.Elapsed.Seconds(), 1e-9), sum.Elapsed.Round(time.Second))
	}
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return &exitError{130, fmt.Errorf("interrupted: the %d games reported are on disk", sum.Games)}
	}
	return nil
}

// dirSeed is the seed of a selfplay run into dir without --seed: seed
// itself into a directory without chunks (so a fresh run repeats), else
// seed mixed with the names of the chunks already there, so that a second
// run into the same directory plays other games than the first rather
// than the same games under new IDs.
func dirSeed(seed uint64, dir string) uint64 {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if datasets.IsChunkName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return seed
	}
	slices.Sort(names)
	h := sha256.New()
	binary.Write(h, binary.LittleEndian, seed)
	for _, n := range names {
		h.Write([]byte(n))
		h.Write([]byte{0})
	}
	return binary.LittleEndian.Uint64(h.Sum(nil))
}
