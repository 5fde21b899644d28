package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/internal/progress"
	"bomberzero/match"
	"bomberzero/setup"
	"bomberzero/study/compare"
	"bomberzero/study/values"
)

// valuesUsage is the help text of "bomberzero values".
const valuesUsage = `usage: bomberzero values (--data DIR | --run DIR | --engine-data DIR | --player PLAYER --variant V) [flags]

Fits piece values on self-play games: the game's result regressed on the
difference in piece counts per type from the side to move's view (logistic on
decisive games, tanh with draws; with --model also on the model's value of
each sampled position), with 95% intervals from a bootstrap over whole games.
A run directory keeps its training data in RUN/data; the engine's self-play
chunks ("bomberzero nnue" RUN/data, or "nnue worker" --out) are read with
--engine-data, whose positions are quiet by the engine's own search.
docs/values.md explains the method.`

// runValues implements "bomberzero values": piece values fitted on a run's
// self-play games, with bootstrap intervals (package values).
func runValues(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("values", valuesUsage, stderr)
	def := values.DefaultSampleConfig()
	dataDir := fs.String("data", "", "directory of training-data chunks")
	runDir := fs.String("run", "", "run directory; its training data is read from RUN/data")
	engineDir := fs.String("engine-data", "", "directory of the engine's self-play chunks (bomberzero nnue's RUN/data or a generation in it, nnue worker's --out), read with its subdirectories: the positions the engine recorded (not in check, the move played neither a capture nor a promotion)")
	enginePlayer := fs.String("engine-player", "", "with --engine-data: the player spec that played those games (as engine:nodes=1500:eval=models/chess.nnue), named in the report and its calibration line")
	posFile := fs.String("positions", "", "instead of data: a positions file (--write-positions), the sampled positions of an earlier fit; the sampling flags (--skip, --quiet-plies, --with-captures, --spacing, --per-game) were applied when it was written")
	writePos := fs.String("write-positions", "", "also write the positions the sampling keeps, with their games' results, to FILE: a small file that --positions FILE fits as these games fit (the chess calibration's test data)")
	player := fs.String("player", "", "instead of data: play this match player (alphabeta:2, a checkpoint...) against itself --games games in --variant and fit its games")
	games := fs.Int("games", 1000, "with --player: games to play")
	workers := fs.Int("workers", 0, "with --player: games played at once (0: one per core)")
	book := fs.Int("book", 0, "with --player: start the games from N random openings of --book-plies plies, game i from opening i mod N (a player that is deterministic at a node or depth limit, as engine:nodes=N, plays one game over and over without it); 0: the start position")
	bookPlies := fs.Int("book-plies", compare.DefaultBookPlies, "with --book: the openings' length in plies")
	table := fs.String("values", "", "with --player: piece values replacing the default table's for greedy, alpha-beta and the engine, e.g. N=5,Q=6 (a deliberately wrong table, as echo-test --table plays it)")
	saveGames := fs.String("save-games", "", "with --player: also write the games, those the length cap stopped included, as training-data chunks to DIR, so later fits read them with --data DIR instead of playing them again (runs with different seeds may share DIR)")
	variant := fs.String("variant", "", "use only this variant's games (needed when the data hold several)")
	withTeacher := fs.Bool("include-teacher", false, "keep the games of a search teacher (left out by default: they carry the teacher's piece table)")
	withCapped := fs.Bool("include-capped", false, "keep the games the length cap stopped, drawn or adjudicated (left out by default: their results are censored)")
	skip := fs.Int("skip", def.SkipPlies, "leave out positions before this ply (the opening)")
	quietPlies := fs.Int("quiet-plies", def.QuietPlies, "leave out positions within this many plies after a capture")
	withCaptures := fs.Bool("with-captures", !def.NoCaptures, "keep positions where the side to move has a capture (left out by default, material being about to change, except with --engine-data, whose positions the engine's search found quiet; --with-captures=false leaves them out there too). Leaving them out keeps mostly endgames, where the pawn weighs more against the pieces (the report's phase line); --with-captures --quiet-plies 2 samples the whole game")
	spacing := fs.Int("spacing", def.Spacing, "keep positions at least this many plies apart (0 keeps neighbours)")
	perGame := fs.Int("per-game", def.MaxPerGame, "keep at most this many positions per game, drawn at random (0 keeps all)")
	maxPly := fs.Int("max-ply", 0, "leave out positions at this ply and later (0: none); with --skip, one phase of the game by ply")
	officersFlag := fs.String("officers", "", "keep only positions with LO-HI officers (N, B, R, Q and the family's other non-pawn, non-royal pieces) on the board, both sides together: a phase by material left (chess starts with 14); or a phase by name: middlegame (at least half the start's officers, the values Tomašev and Kaufman quote; 7-28 in chess) or endgame (fewer)")
	equalGames := fs.Bool("equal-games", false, "weigh every game alike in the fits, whatever its number of sampled positions (default: every position alike)")
	sums := fs.String("sums", "", "also print signed sums of values with their intervals, comma-separated, as R+R-Q,B+P-R: the v(Y) - v(X) that an imbalance match (bomberzero imbalance --white-without X --black-without Y) reads, to set beside it")
	phaseBins := fs.Int("phase-bins", 0, fmt.Sprintf("fit one set of values with a scale on the material term per game phase: up to N bins by the officers on the board, at their quantiles (2 to %d; 0 or 1: one scale)", values.MaxPhaseBins))
	fits := fs.String("fits", "", "comma-separated fits: logistic, tanh, search (the recorded search values), value (needs --model); default logistic,tanh, plus value with --model")
	model := fs.String("model", "", "model whose value output the value fit uses: "+agent.SpecHelp)
	unit := fs.String("unit", values.DefaultUnit, "piece letter the values are normalised to")
	boot := fs.Int("bootstrap", values.DefaultBootstrap, "bootstrap replicates B")
	seed := fs.Uint64("seed", 1, "seed of the bootstrap and of the per-game draw")
	ridge := fs.Float64("ridge", values.DefaultRidge, "ridge penalty λ on the piece coefficients")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	quiet := quietFlag(fs)
	plotFile := fs.String("plot", "", "also draw the values as a bar chart with error bars to FILE.png or FILE.svg")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	sumExprs, sumsErr := parseSums(*sums)
	switch {
	case len(pos) > 0:
		return fmt.Errorf("%w: unexpected argument %q; give the data with --data DIR or --run DIR", errUsage, pos[0])
	case btoi(*dataDir != "")+btoi(*runDir != "")+btoi(*engineDir != "")+btoi(*player != "")+btoi(*posFile != "") != 1:
		return fmt.Errorf("%w: give exactly one of --data DIR, --run DIR, --engine-data DIR, --player PLAYER and --positions FILE", errUsage)
	case *enginePlayer != "" && *engineDir == "":
		return fmt.Errorf("%w: --engine-player names the player of --engine-data; give --engine-data DIR", errUsage)
	case *engineDir != "" && (*withTeacher || *withCapped):
		return fmt.Errorf("%w: --include-teacher and --include-capped do not apply to --engine-data: its chunks hold no teacher games and do not mark the capped ones (they count as draws)", errUsage)
	case *posFile != "" && *writePos != "":
		return fmt.Errorf("%w: --positions and --write-positions: the file holds sampled positions already", errUsage)
	case *player != "" && *variant == "":
		return fmt.Errorf("%w: --player needs --variant V", errUsage)
	case *player != "" && *games < 1:
		return fmt.Errorf("%w: --games %d: want at least 1", errUsage, *games)
	case *book < 0 || *bookPlies < 1:
		return fmt.Errorf("%w: --book %d --book-plies %d: want a book of 0 or more openings of 1 or more plies", errUsage, *book, *bookPlies)
	case sumsErr != nil:
		return fmt.Errorf("%w: --sums: %v", errUsage, sumsErr)
	case *book > 0 && *player == "":
		return fmt.Errorf("%w: --book needs --player", errUsage)
	case *table != "" && *player == "":
		return fmt.Errorf("%w: --values needs --player (it is the player's table)", errUsage)
	case *saveGames != "" && *player == "":
		return fmt.Errorf("%w: --save-games needs --player (the games of --data or --run are on disk already)", errUsage)
	case *phaseBins < 0 || *phaseBins > values.MaxPhaseBins:
		return fmt.Errorf("%w: --phase-bins %d, want 0 to %d", errUsage, *phaseBins, values.MaxPhaseBins)
	case *boot <= 0:
		return fmt.Errorf("%w: --bootstrap %d, want a positive number of replicates", errUsage, *boot)
	case *ridge <= 0:
		return fmt.Errorf("%w: --ridge %v, want a positive penalty", errUsage, *ridge)
	}
	if *plotFile != "" {
		if ext := strings.ToLower(filepath.Ext(*plotFile)); ext != ".png" && ext != ".svg" {
			return fmt.Errorf("%w: --plot %s: want a .png or .svg file name", errUsage, *plotFile)
		}
	}
	minOff, maxOff, phase, err := parseOfficers(*officersFlag)
	if err != nil {
		return fmt.Errorf("%w: --officers: %v", errUsage, err)
	}
	if *fits == "" {
		*fits = "logistic,tanh"
		if *model != "" {
			*fits += ",value"
		}
	}
	var methods []values.Method
	for _, name := range strings.Split(*fits, ",") {
		m, err := values.ParseMethod(strings.TrimSpace(name))
		if err != nil {
			return fmt.Errorf("%w: --fits: %v", errUsage, err)
		}
		if m == values.Value && *model == "" {
			return fmt.Errorf("%w: --fits value needs a network: give --model CKPT (or a network-free one: --model material)", errUsage)
		}
		methods = append(methods, m)
	}
	dir := *dataDir
	if *runDir != "" {
		dir = values.RunDataDir(*runDir)
	}

	sample := values.SampleConfig{SkipPlies: *skip, QuietPlies: *quietPlies, NoCaptures: !*withCaptures, Spacing: *spacing, MaxPerGame: *perGame, Seed: *seed,
		MaxPly: *maxPly, MinOfficers: minOff, MaxOfficers: maxOff, EqualGames: *equalGames}
	if *engineDir != "" && !set(fs, "with-captures") {
		// The engine recorded only positions whose move played was quiet:
		// its own search says no capture is worth making there.
		sample.NoCaptures = false
	}
	var ds *values.Dataset
	var loadRep values.LoadReport
	if *posFile != "" {
		// The file's positions are a sample already: the rules that read a
		// position's neighbours cannot be applied again.
		var again []string
		fs.Visit(func(f *flag.Flag) {
			if slices.Contains([]string{"skip", "quiet-plies", "with-captures", "spacing", "per-game", "include-teacher", "include-capped"}, f.Name) {
				again = append(again, "--"+f.Name)
			}
		})
		if len(again) > 0 {
			return fmt.Errorf("%w: %s with --positions: the file holds the positions its writer's sampling kept, which cannot be sampled again (--max-ply, --officers and --equal-games still apply)", errUsage, strings.Join(again, ", "))
		}
		dir = *posFile
		if ds, err = values.ReadPositions(*posFile); err != nil {
			return err
		}
		sample = values.NoFilter()
		sample.MaxPly, sample.MinOfficers, sample.MaxOfficers, sample.EqualGames = *maxPly, minOff, maxOff, *equalGames
	} else if *player != "" {
		dir = *player + "'s games"
		if ds, loadRep.CappedGames, err = playerGames(*variant, *player, *table, *games, *seed, *workers, *book, *bookPlies, *withCapped, *saveGames, stderr, *quiet); err != nil {
			return err
		}
	} else if *engineDir != "" {
		dir = *engineDir
		if ds, loadRep, err = values.LoadEngine(dir, *enginePlayer, chunkProgress(progressTo(stderr, *quiet))); err != nil {
			return err
		}
	} else if ds, loadRep, err = values.LoadWith(dir, values.LoadOptions{IncludeTeacher: *withTeacher, IncludeCapped: *withCapped, Progress: chunkProgress(progressTo(stderr, *quiet))}); err != nil {
		return err
	}
	for _, p := range loadRep.Problems {
		fmt.Fprintf(stderr, "skipped: %s\n", p)
	}
	if loadRep.TeacherGames > 0 {
		fmt.Fprintf(stderr, "left out %d games of a search teacher (--include-teacher keeps them)\n", loadRep.TeacherGames)
	}
	if loadRep.CappedGames > 0 {
		fmt.Fprintf(stderr, "left out %d games stopped by the length cap, drawn or adjudicated (--include-capped keeps them)\n", loadRep.CappedGames)
	}
	if *variant != "" {
		ds = ds.OfVariant(*variant)
		if len(ds.Games) == 0 {
			return fmt.Errorf("no game of variant %q in %s", *variant, dir)
		}
	} else if vs := ds.Variants(); len(vs) > 1 {
		return fmt.Errorf("%w: %s holds games of %d variants (%s): pick one with --variant", errUsage, dir, len(vs), strings.Join(vs, ", "))
	}
	if phase != "" {
		// A named phase is a share of the variant's own start.
		start, err := values.StartOfficers(ds.Variants()[0])
		if err == nil {
			minOff, maxOff, err = values.PhaseBounds(phase, start)
		}
		if err != nil {
			return fmt.Errorf("--officers %s: %w", phase, err)
		}
		sample.MinOfficers, sample.MaxOfficers, sample.Phase = minOff, maxOff, phase
	}

	if *writePos != "" {
		if err := sample.Validate(); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if err := values.WritePositions(*writePos, sample.Sampled(ds)); err != nil {
			return err
		}
	}
	var valueFn values.ValueFunc
	if slices.Contains(methods, values.Value) {
		if valueFn, err = modelValue(ds.Variants()[0], *model); err != nil {
			return err
		}
	}
	rep, err := values.PieceValues(ds, values.Config{
		Sample:    sample,
		Methods:   methods,
		Value:     valueFn,
		Unit:      *unit,
		Ridge:     *ridge,
		Bootstrap: *boot,
		Seed:      *seed,
		PhaseBins: *phaseBins,
		Progress:  progress.Func(progressTo(stderr, *quiet), "bootstrap", "resamples", 0),
	})
	if err != nil {
		// The player's standing matters most when its games could not be
		// fitted at all: say it before the error.
		players := []string{*player}
		if *player == "" {
			players, _ = ds.Players()
		}
		for _, p := range players {
			if w := values.UncalibratedPlayer(p, sample.FitPhase()); w != "" {
				fmt.Fprintf(stderr, "warning: %s\n", w)
			}
		}
		if errors.Is(err, values.ErrNoDecisive) || strings.Contains(err.Error(), "no position left") {
			return fmt.Errorf("%w: %s", err, values.NoFitAdvice(len(ds.Games), err))
		}
		return err
	}
	if len(sumExprs) > 0 {
		for i := range rep.Fits {
			f := &rep.Fits[i]
			if !f.Normalised {
				continue
			}
			for _, expr := range sumExprs {
				sm, err := f.Sum(expr)
				if err != nil {
					return fmt.Errorf("%w: --sums: %v", errUsage, err)
				}
				f.Sums = append(f.Sums, sm)
			}
		}
	}
	rep.PositionsFile = *posFile
	if *player != "" {
		rep.NamePlayers([]string{*player}, 0)
	} else {
		rep.NamePlayers(ds.Players())
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if *plotFile != "" {
		chart := rep.ValuesChart()
		if len(chart.Series) == 0 {
			fmt.Fprintf(stderr, "no chart drawn: no fit has values relative to %s (see the notes)\n", rep.Unit)
		} else if err := chart.Save(*plotFile); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	return rep.WriteText(stdout)
}

// modelValue returns the value function of a model spec (a checkpoint, or a
// network-free evaluator: see agent.ParseSpec) for positions of variant:
// win minus loss probability for the side to move, one position a call.
func modelValue(variant, model string) (values.ValueFunc, error) {
	v, err := env.LoadVariant(variant)
	if err != nil {
		return nil, fmt.Errorf("variant of the data: %w", err)
	}
	m, err := agent.LoadModel(model, agent.NewRules(v, 0))
	if err != nil {
		return nil, err
	}
	return m.ValueFunc()
}

// playerGames plays spec (with the piece table entries table, agent.Values
// syntax, over the default table) against itself games times from variant's start
// position (the length cap of eval.max_plies) and returns the games, those
// the cap stopped left out unless withCapped, and how many were. With
// saveDir it also writes every game to saveDir as one training-data chunk,
// game IDs naming the seed (game-seed<seed>-<index>) so that runs with
// different seeds can share the directory.
func playerGames(variant, spec, table string, games int, seed uint64, workers, book, bookPlies int, withCapped bool, saveDir string, stderr io.Writer, quiet bool) (*values.Dataset, int, error) {
	tc, err := setup.DefaultConfig(variant)
	if err != nil {
		return nil, 0, usageErr(err)
	}
	v, err := env.LoadVariant(variant)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: --variant: %v", errUsage, err)
	}
	opt, err := playerOptions(tc, table)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: --values: %v", errUsage, err)
	}
	p, err := match.Parse(spec, v, opt)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: --player: %v", errUsage, err)
	}
	var starts []*env.Position
	if book > 0 {
		openings, err := match.RandomBook([]*env.Variant{v}, book, bookPlies, seed)
		if err != nil {
			return nil, 0, fmt.Errorf("--book: %w", err)
		}
		if starts, err = match.BookPositions(v, openings); err != nil {
			return nil, 0, fmt.Errorf("--book: %w", err)
		}
	}
	ctx, stop := stopContext()
	defer stop()
	ds, recs, err := compare.SelfPlayGames(ctx, v, p, games, tc.Eval.MaxPlies, seed, workers, starts, fmt.Sprintf("game-seed%d", seed),
		progress.Func(progressTo(stderr, quiet), spec+" games", "games", 0))
	if err != nil {
		return nil, 0, err
	}
	if saveDir != "" {
		path, err := saveRecords(saveDir, spec, recs)
		if err != nil {
			return nil, 0, fmt.Errorf("--save-games %s: %w", saveDir, err)
		}
		fmt.Fprintf(stderr, "kept %d games in %s\n", len(recs), path)
	}
	if n := distinctGames(ds); n < len(ds.Games)/2 {
		fmt.Fprintf(stderr, "warning: only %d of %d games differ: %s plays alike from one start; give --book N for N random openings\n", n, len(ds.Games), spec)
	}
	if withCapped {
		return ds, 0, nil
	}
	ds, n := ds.WithoutCapped()
	return ds, n, nil
}

// parseOfficers reads --officers: a phase's name (values.PhaseMiddlegame or
// values.PhaseEndgame, returned as phase, its bounds set once the variant
// is known) or "LO-HI" (two counts, LO <= HI); "" is no range (0, 0).
func parseOfficers(s string) (lo, hi int, phase string, err error) {
	if s == values.PhaseMiddlegame || s == values.PhaseEndgame {
		return 0, 0, s, nil
	}
	lo, hi, err = parseRange(s)
	return lo, hi, "", err
}

// parseRange reads "LO-HI" (two counts, LO <= HI); "" is no range (0, 0).
func parseRange(s string) (lo, hi int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "-")
	if ok {
		lo, err = strconv.Atoi(a)
		if err == nil {
			hi, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || lo < 0 || hi < lo || hi == 0 {
		return 0, 0, fmt.Errorf("%q: want LO-HI, two counts with 0 <= LO <= HI and HI > 0, e.g. 0-6, or %s or %s", s, values.PhaseMiddlegame, values.PhaseEndgame)
	}
	return lo, hi, nil
}

// saveRecords writes recs to dir as one training-data chunk (written
// atomically by datasets.ChunkWriter) and returns its path.
func saveRecords(dir, writer string, recs []datasets.GameRecord) (string, error) {
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: writer})
	if err != nil {
		return "", err
	}
	for i := range recs {
		if err := w.AddGame(&recs[i]); err != nil {
			return "", err
		}
	}
	path, err := w.Flush()
	if err != nil {
		return "", err
	}
	return path, w.Close()
}

// distinctGames counts the games of ds whose recorded moves differ.
func distinctGames(ds *values.Dataset) int {
	seen := map[string]bool{}
	for i := range ds.Games {
		var b strings.Builder
		for _, p := range ds.Games[i].Positions {
			b.WriteString(p.Text)
			b.WriteString(p.Played)
			b.WriteByte('|')
		}
		seen[b.String()] = true
	}
	return len(seen)
}

// parseSums reads --sums: comma-separated signed sums of piece letters.
func parseSums(list string) ([]string, error) {
	if list == "" {
		return nil, nil
	}
	var out []string
	for _, expr := range strings.Split(list, ",") {
		if _, err := values.ParseSum(expr); err != nil {
			return nil, err
		}
		out = append(out, strings.TrimSpace(expr))
	}
	return out, nil
}
