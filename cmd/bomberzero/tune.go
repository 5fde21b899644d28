package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"bomberzero/engine"
	"bomberzero/internal/progress"
)

// tuneUsage is the help text of "bomberzero tune".
const tuneUsage = `usage: bomberzero tune --variant V --out weights.json [flags]

Tunes the engine's classical evaluation by Texel's method: plays --games fast
engine self-play games (a node limit a move, random opening plies, the same
games for the same --seed), keeps their quiet positions (not in check, the
quiescence score within --quiet-margin of the static evaluation) with the
game's result, fits the scale K of the expected result 1/(1+10^(-K*eval/400))
and then the weights that minimise its mean squared error, prints the loss
before and after and the weights, and writes them to --out. Play them with
the player engine:weights=FILE. docs/engine.md explains the method.`

// runTune implements "bomberzero tune".
func runTune(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tune", tuneUsage, stderr)
	def := engine.DefaultTuneConfig()
	variant := variantFlag(fs)
	games := fs.Int("games", def.Games, "self-play games to play")
	nodes := fs.Int64("nodes", def.Nodes, "node limit of each move")
	random := fs.Int("random-plies", def.RandomPlies, "uniformly random moves that open each game")
	maxPlies := fs.Int("max-plies", def.MaxPlies, "game length cap; a capped game's positions are left out")
	margin := fs.Int("quiet-margin", int(def.QuietMargin), "most centipawns between quiescence and static scores for a quiet position")
	from := fs.String("from", "", "weights file the self-play engine plays and the fit starts from (default: the built-in weights)")
	seed := fs.Uint64("seed", def.Seed, "seed of the games")
	workers := fs.Int("workers", 1, "games played at once")
	ridge := fs.Float64("ridge", 0, "penalty holding the weights near the starting ones (0: none; 1 is strong)")
	out := fs.String("out", "", "weights file to write (required)")
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%w: tune needs --out FILE", errUsage)
	}
	if *ridge < 0 {
		return fmt.Errorf("%w: --ridge %v: want 0 or more", errUsage, *ridge)
	}
	if *workers < 1 {
		return fmt.Errorf("%w: --workers %d: want at least 1", errUsage, *workers)
	}
	v, table, err := variantTable(*variant, "")
	if err != nil {
		return err
	}
	cfg := engine.TuneConfig{Games: *games, Nodes: *nodes, RandomPlies: *random, MaxPlies: *maxPlies, QuietMargin: int32(*margin), Weights: engine.DefaultWeights(), Seed: *seed, Workers: *workers}
	if *from != "" {
		f, err := engine.ReadWeightsFile(*from)
		if err != nil {
			return fmt.Errorf("--from: %w", err)
		}
		if f.Variant != "" && f.Variant != v.Name {
			return fmt.Errorf("--from: weights file %s: tuned on variant %s, not %s", *from, f.Variant, v.Name)
		}
		cfg.Weights = f.Weights
	}
	bar := progress.New(progressTo(stderr, *quiet), *games, "self-play", "games")
	ctx, stop := stopContext()
	defer stop()
	began := time.Now()
	samples, st, err := engine.SelfPlaySamples(ctx, v, table, cfg, bar.Set)
	if err != nil {
		bar.Stop()
		return err
	}
	bar.Finish()
	played := time.Since(began)
	fmt.Fprintf(stdout, "%s: %d games at %d nodes a move in %s: %d-%d-%d (white-black-draw), %d capped; %d positions, %d quiet ones fitted\n",
		v.Name, st.Games, cfg.Nodes, played.Round(time.Second), st.WhiteWins, st.BlackWins, st.Draw, st.Capped, st.Positions, st.Quiet)
	w, rep, err := engine.TuneWeights(samples, cfg.Weights, *ridge)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "scale K %.4f; mean squared error %.6f before, %.6f after (ridge %g)\n", rep.K, rep.LossBefore, rep.LossAfter, rep.Ridge)
	fmt.Fprint(stdout, weightsTable(cfg.Weights, w))
	if err := engine.WriteWeightsFile(*out, engine.WeightsFile{Variant: v.Name, Weights: w, Fit: &rep, Games: st.Games, Nodes: cfg.Nodes, Seed: cfg.Seed}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s; play it as engine:weights=%s\n", *out, *out)
	return nil
}

// weightsTable prints the weights before and after, one term a line.
func weightsTable(before, after engine.Weights) string {
	var b strings.Builder
	x, y := before.Vector(), after.Vector()
	fmt.Fprintf(&b, "%-15s %7s %7s\n", "term", "before", "after")
	for i, name := range engine.TermNames {
		fmt.Fprintf(&b, "%-15s %7.0f %7.0f\n", name, x[i], y[i])
	}
	return b.String()
}
