package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"bomberzero/study/compare"
	"bomberzero/study/values"
)

// runCompare compares two or more variants side by side and writes a
// report folder.
func runCompare(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", "usage: bomberzero compare --variants A,B[,...] --out DIR [--runs R1,R2 | --models M1,M2 | --budget D] [flags]\n\nCompares variants' games side by side (White's score, draws, lengths, endings,\nopening diversity, piece values, each with its 95% interval), says which\ndifferences are within noise and how many games would resolve them, plays\ntrained models against fixed anchors (matched strength) and each other\n(cross-play), and writes DIR/report.md with its charts.", stderr)
	variants := fs.String("variants", "", "comma-separated variants to compare, e.g. fbgc,fbgc-superpower")
	runs := fs.String("runs", "", "comma-separated run (or training-data) directories, one per variant, whose games are compared")
	models := fs.String("models", "", "comma-separated trained checkpoints, one per variant (e.g. the shipped models): each plays itself --games games at --sims playouts, and those games are compared")
	budget := fs.Duration("budget", 0, "without --runs or --models: train each variant this long with the same embedded defaults and seed (e.g. 30m)")
	player := fs.String("player", compare.DefaultPlayer, "without --runs, --models or --budget: the baseline player that plays itself in each variant")
	games := fs.Int("games", 200, "baseline games per variant, and games per cross-play match")
	seed := fs.Uint64("seed", 1, "random seed of games, training, bootstraps and cross-play")
	boot := fs.Int("bootstrap", values.DefaultBootstrap, "bootstrap resamples behind every interval")
	noValues := fs.Bool("no-values", false, "skip the piece-value fits")
	withTeacher := fs.Bool("include-teacher", false, "keep the games of a search teacher found in --runs (left out by default: they carry the teacher's piece table)")
	workers := fs.Int("workers", 0, "games played at once (0: one per core)")
	levels := fs.String("levels", "", "comma-separated playout counts at which each trained model also plays --games games against itself, e.g. 64,512: the comparison at each level")
	ruleEffects := fs.Bool("rule-effects", false, "with trained models: each model also plays itself --games games on every other variant's rules, so each difference between the rule sets is also measured with the network held fixed")
	book := fs.Int("book", 100, "openings in the shared book of random openings every variant's games start from: self-play game i from opening i mod N, a match between two players each opening with both colours; each --imbalance pair draws its own book of up to N openings (one a game of each colour arrangement) on its start positions, the pieces gone, the same in every variant (0: the start position for all)")
	bookPlies := fs.Int("book-plies", compare.DefaultBookPlies, "plies of each book opening")
	anchors := fs.String("anchors", strings.Join(compare.DefaultAnchors, ","), "fixed players each trained model meets (--games games) to show matched strength; \"none\" for none")
	imbalances := fs.String("imbalance", "", "comma-separated imbalances X:Y (side A without X, side B without Y), e.g. F:R,F:B,F:N: each variant's agent plays each against itself, read in the variant's own pawns and compared between variants")
	imbalanceGames := fs.Int("imbalance-games", 0, "games of each imbalance match, half with each colour arrangement, game j of each from opening j of the pair's own book (0: --games)")
	vals := fs.String("values", "", "piece values for greedy and alpha-beta baselines, e.g. G=2.5,I=8")
	out := fs.String("out", "", "report folder (report.md, PNG charts, comparison.json); required")
	mf := addMatchFlags(fs, true) // --sims: the trained models' playouts in cross-play
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%w: compare needs --out DIR for the report folder", errUsage)
	}
	vs := splitList(*variants)
	if len(vs) == 0 {
		return fmt.Errorf("%w: compare needs --variants A,B[,...]", errUsage)
	}
	tc, err := mf.load(vs[0])
	if err != nil {
		return usageErr(err)
	}
	opt, err := playerOptions(tc, *vals)
	if err != nil {
		return fmt.Errorf("%w: --values: %v", errUsage, err)
	}
	cfg := compare.Config{Variants: vs, Runs: splitList(*runs), Models: splitList(*models), Budget: *budget, RunsDir: filepath.Join(*out, "runs"),
		Player: *player, PlayerOptions: opt, Games: *games, Sims: tc.Eval.Sims, MaxPlies: tc.Eval.MaxPlies, Search: tc.PlayerSearch(),
		Training: mf.load, Seed: *seed, Anchors: []string{}, Book: *book, BookPlies: *bookPlies,
		Bootstrap: *boot, NoValues: *noValues, IncludeTeacher: *withTeacher, Workers: *workers, Log: stderr, Bars: stderr,
		ImbalanceGames: *imbalanceGames, RuleEffects: *ruleEffects, Command: "bomberzero compare " + strings.Join(args, " ")}
	if *imbalances != "" {
		if cfg.Imbalances, err = compare.ParseImbalancePairs(*imbalances); err != nil {
			return fmt.Errorf("%w: --imbalance: %v", errUsage, err)
		}
	}
	for _, f := range splitList(*levels) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return fmt.Errorf("%w: --levels %q: %q is not a playout count", errUsage, *levels, f)
		}
		cfg.Levels = append(cfg.Levels, n)
	}
	if *anchors != "none" {
		cfg.Anchors = splitList(*anchors)
	}
	if *quiet {
		cfg.Log, cfg.Bars = nil, nil
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	ctx, stop := stopContext()
	defer stop()
	res, err := compare.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if err := compare.Write(*out, res); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "report written to %s\n", filepath.Join(*out, values.ReportFile))
	return nil
}
