package main

import (
	"flag"
	"fmt"

	"bomberzero/agent"
	"bomberzero/engine/learn"
	"bomberzero/engine/nnue"
	"bomberzero/engine/nnue/fit"
	"bomberzero/env"
)

// fitFlags declares on fs the flags of a net's training (bomberzero nnue
// and nnue fit), fc's values their defaults. The returned function copies
// the parsed flags into fc and checks them with fit.Config.Validate, one
// flag at a time, so that a bad value's usage error names its flag.
func fitFlags(fs *flag.FlagSet, fc *fit.Config) func() error {
	hidden := fs.Int("hidden", fc.Hidden, "hidden units a perspective of a new net")
	l2 := fs.Int("l2", fc.L2, "units of a new net's second layer")
	epochs := fs.Int("epochs", fc.Epochs, "training epochs")
	batch := fs.Int("batch", fc.Batch, "training batch size")
	lr := fs.Float64("lr", fc.LearningRate, "learning rate")
	lrFinal := fs.Float64("lr-final", fc.LearningRateFinal, "learning rate of the last step, reached along a half cosine from --lr (0: the rate stays --lr)")
	lambda := fs.Float64("lambda", fc.Lambda, "weight of the search score against the game result in the target (1: score only)")
	trainer := fs.String("trainer", fit.TrainerSparse, "trainer: sparse (hand-written, resumes mid-training) or gorgonia (the reference, many times slower)")
	threads := fs.Int("threads", 0, "goroutines the sparse trainer splits a batch over (0: all CPUs)")
	residual := fs.Bool("residual", fc.Residual, "train a new net as a correction added to the classical evaluation (its untrained net is the classical engine)")
	kings := fs.String("king-buckets", fc.KingBuckets.String(), "input features of a new net by zones of the own king's square, FILESxRANKS (e.g. 3x2), or none")
	mirror := fs.Bool("mirror", fc.Mirror, "file-mirrored input features of a new net: a side whose king is on the left half sees the board reflected a<->j (with --king-buckets, its file zones divide the right half)")
	return func() error {
		kb, err := nnue.ParseKingBuckets(*kings)
		if err != nil {
			return fmt.Errorf("%w: --king-buckets: %v", errUsage, err)
		}
		flags := []struct {
			name string
			set  func(*fit.Config)
		}{
			{"hidden", func(c *fit.Config) { c.Hidden = *hidden }},
			{"l2", func(c *fit.Config) { c.L2 = *l2 }},
			{"epochs", func(c *fit.Config) { c.Epochs = *epochs }},
			{"batch", func(c *fit.Config) { c.Batch = *batch }},
			{"lr", func(c *fit.Config) { c.LearningRate = *lr }},
			{"lr-final", func(c *fit.Config) { c.LearningRateFinal = *lrFinal }},
			{"lambda", func(c *fit.Config) { c.Lambda = *lambda }},
			{"trainer", func(c *fit.Config) { c.Trainer = *trainer }},
			{"threads", func(c *fit.Config) { c.Threads = *threads }},
			{"residual", func(c *fit.Config) { c.Residual = *residual }},
			{"king-buckets", func(c *fit.Config) { c.KingBuckets = kb }},
			{"mirror", func(c *fit.Config) { c.Mirror = *mirror }},
		}
		for _, f := range flags {
			c := fit.DefaultConfig()
			f.set(&c)
			if err := c.Validate(); err != nil {
				return fmt.Errorf("%w: --%s: %v", errUsage, f.name, err)
			}
			f.set(fc)
		}
		if err := fc.Validate(); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		return nil
	}
}

// playFlags declares on fs the flags of how an engine self-play game is
// played (bomberzero nnue and nnue worker), def's values their defaults,
// nodesHelp the help of --nodes; the returned function gives the parsed
// settings (learn.PlayConfig.Validate checks them).
func playFlags(fs *flag.FlagSet, def learn.PlayConfig, nodesHelp string) func() learn.PlayConfig {
	nodes := fs.Int64("nodes", def.Nodes, nodesHelp)
	random := fs.Int("random-plies", def.RandomPlies, "uniformly random moves that open each game")
	diverse := fs.Int("diverse-plies", def.DiversePlies, "moves after those picked at random among the near-best lines")
	multipv := fs.Int("multipv", def.MultiPV, "lines searched for the near-best pick")
	margin := fs.Int("margin", int(def.Margin), "centipawns a line may trail the best and still be picked")
	maxPlies := fs.Int("max-plies", def.MaxPlies, "game length cap, a draw")
	return func() learn.PlayConfig {
		return learn.PlayConfig{Nodes: *nodes, RandomPlies: *random, DiversePlies: *diverse, MultiPV: *multipv, Margin: int32(*margin), MaxPlies: *maxPlies}
	}
}

// fitVariant readies fc for a net's training on variant v (variantTable's):
// it puts table in fc for a new net's material path and checks fc's king
// buckets and file mirror against v's board.
func fitVariant(v *env.Variant, table []int32, fc *fit.Config) error {
	if _, err := nnue.NewBucketedFeatureSet(v, fc.KingBuckets); err != nil {
		return fmt.Errorf("%w: --king-buckets: %v", errUsage, err)
	}
	if fc.Mirror {
		// The buckets fit the board: what is left to refuse is the
		// mirror's (a board not symmetric file-wise, too many file zones
		// for the kings' half).
		if _, err := nnue.NewFeatureSetWith(v, nnue.Options{Kings: fc.KingBuckets, Mirror: true}); err != nil {
			return fmt.Errorf("%w: --mirror: %v", errUsage, err)
		}
	}
	fc.Table = table
	return nil
}

// variantTable loads the variant named by --variant and the project's piece
// table for it (agent.DefaultValues) with over's entries in place of its
// own (--values, agent.ParseValues syntax; "" changes nothing): the table
// the engine's classical evaluation counts, its search orders and prunes
// by, and a new net's material path starts from.
func variantTable(name, over string) (*env.Variant, []int32, error) {
	v, err := env.LoadVariant(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: --variant: %v", errUsage, err)
	}
	vals := agent.DefaultValues()
	if over != "" {
		o, err := agent.ParseValues(over)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: --values: %v", errUsage, err)
		}
		vals = vals.With(o)
	}
	table, err := vals.Table(v)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: --values: %v", errUsage, err)
	}
	return v, table, nil
}

// tableFlag declares --values, the piece values that replace entries of
// the project's table for the engine (variantTable).
func tableFlag(fs *flag.FlagSet) *string {
	return fs.String("values", "", "piece values replacing the project's table's for the engine, as N=5,Q=6: the classical evaluation counts them, the search orders and prunes by them, a new net's material path starts from them (a deliberately wrong table, for the echo test)")
}
