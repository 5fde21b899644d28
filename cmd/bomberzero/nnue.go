package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"bomberzero/engine/learn"
	"bomberzero/engine/nnue/fit"
	"bomberzero/stats"
)

// nnueUsage is the help text of "bomberzero nnue".
const nnueUsage = `usage: bomberzero nnue --dir RUN [--variant V] [--generations N] [flags]
       bomberzero nnue worker --out DIR --games N [flags]   (see nnue worker --help)
       bomberzero nnue fit --data DIR --out NET [flags]      (see nnue fit --help)

Trains the engine's learned (NNUE) evaluation by self-play, in generations.
Generation k: the engine (generation 0 with the classical evaluation, later
with the best net so far) plays --games games against itself at --nodes a
move, opened by --random-plies random moves and then --diverse-plies moves
picked at random among the --multipv best within --margin centipawns; every
searched position not in check whose best move is no capture or promotion is
written with its search score, the game's result and its ply to Parquet
chunks of --chunk-games games in RUN/data/gen-KKKK/. A net is then trained on
the positions of the last --window generations (the newest --max-positions),
written to RUN/nets/gen-KKKK.nnue, and played against the best at the same
nodes, at most --gate-games games from random openings, stopped early by the
--sprt test; it becomes the best when the test accepts it or, undecided, when
it scored over one half. RUN/metrics.jsonl gets one line a generation
(positions, games, losses, the gate's W/D/L, Elo and ms a move, accepted).
The nets are trained by the sparse trainer (--trainer gorgonia: the
reference Gorgonia graph, the same arithmetic, many times slower).

The run resumes where it stopped (Ctrl-C, kill -9): finished chunks are kept
and the games of the unfinished one are played again, the same as an unbroken
run's; a training stopped resumes after its last finished epoch (from
RUN/nets/gen-KKKK.train-checkpoint, removed once the net is written). Run it
again with a larger --generations to go on; the data settings (--seed,
--games, --chunk-games, --nodes, the piece table --values) stay those of
the run: a resume takes the recorded ones for the flags left out and
refuses another value. The nets'
settings (--hidden, --l2, --residual, --king-buckets, --mirror, --lambda,
--epochs, --batch, --lr, --lr-final, --window, --max-positions) are recorded
in RUN/state.json at the start and printed with the plan: a resume takes
the recorded ones for the flags left out and refuses a flag given another
value, so that the run's nets stay one experiment (start a new --dir to try
others); --workers, --threads, --trainer and the gate's flags may change.
Play a net with the player engine:eval=RUN/nets/gen-KKKK.nnue.
docs/engine.md explains the loop.`

// runNNUE implements "bomberzero nnue".
func runNNUE(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "worker" {
		return runNNUEWorker(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "fit" {
		return runNNUEFit(args[1:], stdout, stderr)
	}
	fs := newFlagSet("nnue", nnueUsage, stderr)
	def := learn.DefaultConfig()
	fc := fit.DefaultConfig()
	variant := variantFlag(fs)
	dir := fs.String("dir", "", "run directory (required): state.json, metrics.jsonl, data/, nets/")
	gens := fs.Int("generations", def.Generations, "generations the run has when this command ends")
	games := fs.Int("games", def.Games, "self-play games a generation")
	chunk := fs.Int("chunk-games", def.ChunkGames, "games a data chunk (the unit a resume keeps)")
	play := playFlags(fs, def.Play, "node limit of each move, in self-play and in the gate")
	over := tableFlag(fs)
	workers := fs.Int("workers", def.Workers, "games played at once")
	seed := fs.Uint64("seed", def.Seed, "seed of the run")
	window := fs.Int("window", def.Window, "generations of positions the next net trains on")
	maxPos := fs.Int("max-positions", def.MaxPositions, "most positions a net trains on (the newest)")
	gateGames := fs.Int("gate-games", def.Gate.Games, "most games of the gate match")
	gatePlies := fs.Int("gate-plies", def.Gate.OpeningPlies, "random plies of the gate's openings (each played with both colours)")
	sprt := fs.String("sprt", "0,20,0.05,0.05", "the gate's test elo0,elo1,alpha,beta")
	applyFit := fitFlags(fs, &fc)
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		return fmt.Errorf("%w: nnue needs --dir RUN", errUsage)
	}
	test, err := stats.ParseSPRT(*sprt)
	if err != nil {
		return fmt.Errorf("%w: --sprt: %v", errUsage, err)
	}
	if err := applyFit(); err != nil {
		return err
	}
	// The run's state, when it has one that loads, is read once here for
	// both resume helpers (one that does not load, learn.Run names).
	st, ok, err := learn.LoadState(*dir)
	if err != nil || !ok {
		st = nil
	}
	if err := resumeNetSettings(fs, st, *dir, &fc, window, maxPos, stderr); err != nil {
		return err
	}
	v, table, err := variantTable(*variant, *over)
	if err != nil {
		return err
	}
	if st != nil && st.Table != nil && !set(fs, "values") {
		table = st.Table // a resume keeps the run's table
	}
	if err := fitVariant(v, table, &fc); err != nil {
		return err
	}
	cfg := def
	cfg.Variant, cfg.Table, cfg.Dir, cfg.Trainer = v, fc.Table, *dir, learn.NNUE{Fit: fc}
	cfg.Generations, cfg.Games, cfg.ChunkGames, cfg.Workers, cfg.Seed = *gens, *games, *chunk, *workers, *seed
	cfg.Play = play()
	cfg.Window, cfg.MaxPositions = *window, *maxPos
	cfg.Gate.Games, cfg.Gate.OpeningPlies, cfg.Gate.SPRT = *gateGames, *gatePlies, test
	resumeDataSettings(fs, st, &cfg)
	cfg.Progress = progressTo(stderr, *quiet)
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	ctx, stop := stopContext()
	defer stop()
	if err := learn.Run(ctx, cfg); err != nil {
		if errors.Is(err, ctx.Err()) && ctx.Err() != nil {
			fmt.Fprintf(stderr, "stopped; run the same command to resume %s\n", *dir)
		}
		return err
	}
	recs, err := learn.ReadMetrics(*dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%-4s %7s %9s %9s %9s %-13s %7s %s\n", "gen", "games", "positions", "loss", "val loss", "gate W-D-L", "Elo", "best")
	for _, r := range recs {
		fmt.Fprintf(stdout, "%-4d %7d %9d %9.5f %9.5f %-13s %+7.0f %s\n", r.Generation, r.Games, r.Positions, r.Train.TrainLoss, r.Train.ValidationLoss,
			fmt.Sprintf("%d-%d-%d", r.Gate.Wins, r.Gate.Draws, r.Gate.Losses), r.Gate.Elo, r.Best)
	}
	return nil
}

// resumeDataSettings gives a resumed run the data settings recorded in its
// state st (--seed, --games, --chunk-games, --nodes) for those of the flags
// left out, so that a run started under older defaults resumes without
// naming them; one given another value is refused by learn.Run, naming
// both. A new run (st nil) is left alone.
func resumeDataSettings(fs *flag.FlagSet, st *learn.State, cfg *learn.Config) {
	if st == nil {
		return
	}
	if !set(fs, "seed") {
		cfg.Seed = st.Seed
	}
	if !set(fs, "games") {
		cfg.Games = st.Games
	}
	if !set(fs, "chunk-games") {
		cfg.ChunkGames = st.ChunkGames
	}
	if !set(fs, "nodes") {
		cfg.Play.Nodes = st.Nodes
	}
}

// resumeNetSettings makes a resumed run's net settings the ones recorded in
// its state st (dir's): a flag of them left out takes the recorded value,
// and one given another value is a usage error naming the flag, both values
// and how to start a new run. A version-1 state, which has no record, keeps
// the command's settings (learn.Run records them), with a line on stderr. A
// new run, or a state that does not load (st nil; learn.Run names it), is
// left alone.
func resumeNetSettings(fs *flag.FlagSet, st *learn.State, dir string, fc *fit.Config, window, maxPos *int, stderr io.Writer) error {
	if st == nil {
		return nil
	}
	given := learn.NewNetSettings(*fc, *window, *maxPos)
	if st.Net == nil {
		fmt.Fprintf(stderr, "nnue run %s: its state (layout version 1) has no record of the nets' settings; recording this command's: %s\n", dir, given)
		return nil
	}
	run := st.Net.Settings()
	for i, g := range given.Settings() {
		if set(fs, g.Name) && g.Value != run[i].Value {
			return fmt.Errorf("--%s %s: the run in %s trains its nets with --%s %s (state %s); resume it without --%s or with that value, or start a new run with another --dir",
				g.Name, g.Value, dir, g.Name, run[i].Value, learn.StatePath(dir), g.Name)
		}
	}
	if err := st.Net.Apply(fc); err != nil {
		return fmt.Errorf("state %s: %w", learn.StatePath(dir), err)
	}
	*window, *maxPos = st.Net.Window, st.Net.MaxPositions
	if err := fc.Validate(); err != nil {
		return fmt.Errorf("%w: the run's net settings (state %s) with this command's: %v", errUsage, learn.StatePath(dir), err)
	}
	return nil
}
