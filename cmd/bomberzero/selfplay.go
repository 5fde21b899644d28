package main

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/internal/atomicfile"
	"bomberzero/internal/dirlock"
	"bomberzero/internal/progress"
	"bomberzero/internal/runstore"
	"bomberzero/selfplay"
	"bomberzero/setup"
	"bomberzero/train"
)

// selfplayUsage is the help text of "bomberzero selfplay".
const selfplayUsage = "usage: bomberzero selfplay [flags]\n       bomberzero selfplay --run URL --follow [--workers N] [--cache DIR]\n\nPlays games of self-play and writes Parquet chunks to --out and one Game Courier\nrecord per game to --out/records (bomberzero replay reads them). The knobs default\nto the [selfplay] table of the embedded training defaults; --config and --set\nchange them like train's, and a flag of a knob's name wins over both.\n\nWith --run URL --follow it is a stateless worker of a run in an object store:\nit plays the model the run's trainer publishes with the run's own settings and\nlands each finished game in the store, until interrupted (docs/scaling.md)."

// selfplayFlags defines the flags of "bomberzero selfplay" on fs, bound to c
// and defaulting to its values; each knob's flag is its config key with "-"
// for "_".
func selfplayFlags(fs *flag.FlagSet, c *selfplay.Config) *configFlags {
	fs.StringVar(&c.Variant, "variant", c.Variant, variantHelp)
	fs.StringVar(&c.Model, "model", c.Model, "model: "+agent.SpecHelp)
	fs.IntVar(&c.Generation, "generation", c.Generation, "training generation recorded with the games")
	fs.StringVar(&c.Start, "fen", c.Start, "start position text (default: the variant's start)")
	fs.StringVar(&c.Out, "out", c.Out, "output directory: data chunks, and game records in DIR/records")
	fs.IntVar(&c.FlushGames, "flush-games", c.FlushGames, "finished games per chunk a worker writes")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "random seed")
	fs.IntVar(&c.Games, "games", c.Games, "games to play")
	fs.IntVar(&c.Workers, "workers", c.Workers, "worker goroutines (0: one per core)")
	fs.IntVar(&c.Slots, "slots", c.Slots, "games each worker plays at once (its batch size)")
	fs.IntVar(&c.Search.Sims, "sims", c.Search.Sims, "playouts of a full search")
	fs.IntVar(&c.Search.CheapSims, "cheap-sims", c.Search.CheapSims, "playouts of a cheap search (playout-cap randomization)")
	fs.Float64Var(&c.Search.CheapShare, "cheap-share", c.Search.CheapShare, "share of searches that are cheap (not trained on)")
	fs.BoolVar(&c.Search.Gumbel, "gumbel", c.Search.Gumbel, "Gumbel root search instead of PUCT")
	fs.IntVar(&c.Search.TempPlies, "temp-plies", c.Search.TempPlies, "plies played at temperature --temp for opening diversity")
	fs.Float64Var(&c.Search.Temp, "temp", c.Search.Temp, "move temperature of the opening plies")
	fs.IntVar(&c.MaxPlies, "max-plies", c.MaxPlies, "plies after which a game ends: drawn (flagged length-cap) or adjudicated")
	fs.Float64Var(&c.AdjudicateMargin, "adjudicate-margin", c.AdjudicateMargin, "at the cap, a side this many pawns ahead wins by adjudication (0: a draw)")
	fs.Float64Var(&c.ResignThreshold, "resign-threshold", c.ResignThreshold, "search value under which a move counts towards resigning")
	fs.IntVar(&c.ResignMoves, "resign-moves", c.ResignMoves, "consecutive moves under the threshold that make a side resign (0: never)")
	fs.Float64Var(&c.ResignOffShare, "resign-off-share", c.ResignOffShare, "share of games with resignation off, to measure false resignations")
	return addConfigFlags(fs)
}

// runSelfplay plays games of self-play and writes their training data and
// game records ("bomberzero selfplay --variant V --model CKPT|none --games N --out DIR").
func runSelfplay(args []string, stdout, stderr io.Writer) error {
	d, err := selfplay.DefaultConfig("fbgc")
	if err != nil {
		return err
	}
	// First pass: find the variant, --config and --set.
	c := d
	fs := newFlagSet("selfplay", selfplayUsage, stderr)
	cf := selfplayFlags(fs, &c)
	quiet := quietFlag(fs)
	ff := addFollowFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *ff.follow || *ff.run != "" {
		return runFollow(fs, ff, c.Workers, stdout, progressTo(stderr, *quiet))
	}
	tc, err := cf.loadUnchecked(c.Variant)
	if err != nil {
		return usageErr(err)
	}
	// Second pass: the flags given win over the config.
	c = d
	c.Variant, c.Settings = tc.Variant, tc.SelfPlay.Settings
	if !set(fs, "seed") {
		c.Seed = tc.Seed
	}
	again := newFlagSet("selfplay", "", io.Discard)
	selfplayFlags(again, &c)
	quietFlag(again)
	addFollowFlags(again)
	if err := parseFlags(again, args); err != nil {
		return err
	}
	if err := c.Validate(); err != nil {
		return usageErr(err)
	}
	if need, limit := setup.SelfPlayPeak(&c.Settings), setup.MemoryLimit(); need > float64(limit) {
		return usageErr(fmt.Errorf("selfplay: it would need about %.1f GiB (workers x slots trees of up to sims playouts, and the caches, with the runtime and the collector's headroom), "+
			"over the limit of %.1f GiB (half this machine's memory): lower --slots, --workers, --sims or selfplay.cache_entries",
			need/(1<<30), float64(limit)/(1<<30)))
	}
	if strings.Contains(c.Out, "://") {
		// filepath.Abs would take it for a local directory named "s3:".
		return fmt.Errorf("%w: --out %q: an object store is not an output directory; a run in a store takes its games "+
			"from workers, bomberzero selfplay --run URL --follow, while its trainer holds the run's lease (docs/scaling.md)", errUsage, c.Out)
	}
	release, err := lockOut(c.Out)
	if err != nil {
		return err
	}
	defer release()
	if err := removeOutTemps(c.Out, stderr); err != nil {
		return err
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		c.Seed = dirSeed(c.Seed, c.Out)
	}
	ctx, stop := stopContext()
	defer stop()
	bar := progress.New(progressTo(stderr, *quiet), c.Games, "games", "games")
	sum, err := selfplay.Run(ctx, c, func(p selfplay.Progress) {
		rate := float64(p.Positions) / max(p.Elapsed.Seconds(), 1e-9)
		bar.Describe(fmt.Sprintf("games (%.1f positions/s)", rate))
		bar.Set(p.Games)
	})
	bar.Finish()
	if sum != nil {
		avg := 0.0
		if sum.Games > 0 {
			avg = float64(sum.TotalPlies) / float64(sum.Games)
		}
		fmt.Fprintf(stdout, "games %d (+%d =%d -%d), positions %d, average length %.1f plies, resignations %d, length-cap draws %d, adjudicated %d, %.1f positions/s, in %s\n",
			sum.Games, sum.WhiteWins, sum.Draws, sum.BlackWins, sum.Positions, avg, sum.Resignations, sum.LengthCaps, sum.Adjudications,
			float64(sum.Positions)/max(sum.Elapsed.Seconds(), 1e-9), sum.Elapsed.Round(time.Second))
	}
	if atomicfile.DiskFull(err) {
		return fmt.Errorf("%w; the disk is full (or the file size limit is reached): the chunks already in %s are whole, "+
			"the games of the chunk named are lost (their records in %s have no data); free some space and run again",
			err, c.Out, filepath.Join(c.Out, "records"))
	}
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return &exitError{130, fmt.Errorf("interrupted: the %d games reported are on disk", sum.Games)}
	}
	return nil
}

// lockOut takes the lock of the output directory out and of every
// directory above it that has a lock file: a run directory whose trainer
// owns out (selfplay --out RUN/data while train --run RUN runs is a second
// writer: its games would be trained on and its records quarantined). A
// lock held elsewhere is refused, naming its holder. release gives all up.
func lockOut(out string) (release func(), err error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil, fmt.Errorf("selfplay: --out %s: %w", out, err)
	}
	var locks []*dirlock.Lock
	release = func() {
		for i := len(locks) - 1; i >= 0; i-- {
			locks[i].Release()
		}
	}
	var above []string // the directories above out, outermost first
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		above = append([]string{d}, above...)
		if d == filepath.Dir(d) {
			break
		}
	}
	for _, d := range above {
		if _, err := os.Lstat(filepath.Join(d, dirlock.Name)); err != nil {
			continue
		}
		l, err := dirlock.Acquire(d)
		if err != nil {
			release()
			return nil, fmt.Errorf("selfplay: --out %s is inside %s, which has one writer: %w", out, d, err)
		}
		locks = append(locks, l)
	}
	l, err := dirlock.Acquire(out)
	if err != nil {
		release()
		return nil, err
	}
	locks = append(locks, l)
	return release, nil
}

// removeOutTemps deletes the temporary files that writes killed before
// their rename left in out and its records folder (a killed selfplay's
// half-written chunk or record), saying on stderr how many: out is
// locked, so no live writer owns one (as train does for a run).
func removeOutTemps(out string, stderr io.Writer) error {
	var all []string
	for _, d := range []string{out, filepath.Join(out, "records")} {
		removed, err := datasets.RemoveStaleTemps(d, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("selfplay: --out %s: %w", out, err)
		}
		all = append(all, removed...)
	}
	if len(all) > 0 {
		fmt.Fprintf(stderr, "selfplay: removed %d temporary files of writes killed before they finished: %s\n", len(all), strings.Join(all, ", "))
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

// followFlags are the flags of "bomberzero selfplay --run URL --follow".
type followFlags struct {
	run    *string
	follow *bool
	batch  *int
	store  *storeFlags
}

func addFollowFlags(fs *flag.FlagSet) *followFlags {
	return &followFlags{
		run:    fs.String("run", "", "with --follow: the run to play for, an object-store URL ("+runHelp+")"),
		follow: fs.Bool("follow", false, "be a self-play worker of --run: play its trainer's newest model until interrupted"),
		batch:  fs.Int("batch-games", 0, "with --follow: games between two looks for a newer model (0: one per slot of every worker)"),
		store:  addStoreFlags(fs),
	}
}

// runFollow runs a self-play worker of a run in a store until interrupted.
// Of the self-play flags only --workers applies: the rest come from the
// run's config, so that every worker plays as the trainer expects.
func runFollow(fs *flag.FlagSet, ff *followFlags, workers int, stdout, progress io.Writer) error {
	if err := checkLocation(*ff.run); err != nil {
		return err
	}
	if !*ff.follow || !runstore.IsURL(*ff.run) {
		return fmt.Errorf("%w: --run and --follow go together, with --run an object-store URL (docs/scaling.md)", errUsage)
	}
	var ignored []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "run", "follow", "cache", "workers", "quiet", "batch-games":
		default:
			ignored = append(ignored, "--"+f.Name)
		}
	})
	if len(ignored) > 0 {
		return fmt.Errorf("%w: %s: a worker plays with its run's own config; only --workers, --batch-games and --cache apply", errUsage, strings.Join(ignored, ", "))
	}
	if *ff.batch < 0 || workers < 0 {
		return fmt.Errorf("%w: --batch-games %d, --workers %d: want 0 or more", errUsage, *ff.batch, workers)
	}
	ctx, stop := stopContext()
	defer stop()
	s, err := openStore(ctx, *ff.run, progress)
	if err != nil {
		return err
	}
	defer s.Close()
	cache := ff.store.cacheFor(*ff.run, "worker")
	fmt.Fprintf(progress, "self-play worker of %s; scratch folder %s\n", s, cache)
	rep, err := train.Follow(ctx, train.FollowOptions{Store: s, Dir: cache, Workers: workers, Games: *ff.batch, Out: stdout, Progress: progress})
	if rep != nil {
		fmt.Fprintf(stdout, "worker of %s: %d games landed in %d chunks\n", s, rep.Games, rep.Chunks)
	}
	if err != nil {
		return err
	}
	return &exitError{code: 130}
}
