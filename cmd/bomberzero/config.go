package main

import (
	"context"
	"flag"
	"fmt"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/match/external"
	"bomberzero/setup"
)

// configFlags are the --config and --set flags of every command that reads
// the knobs of the training config: each knob's default is the embedded
// defaults (configs/training), a --config file's keys replace them, and each
// --set KEY=VALUE replaces one key after that.
type configFlags struct {
	file string
	sets []string
}

// addConfigFlags defines --config and the repeatable --set on fs.
func addConfigFlags(fs *flag.FlagSet) *configFlags {
	c := &configFlags{}
	fs.StringVar(&c.file, "config", "", "TOML file whose keys replace the embedded defaults (docs/training.md)")
	fs.Func("set", "override one config key, as selfplay.sims=64 (repeatable)", func(s string) error {
		c.sets = append(c.sets, s)
		return nil
	})
	return c
}

// load returns the config for variant: the embedded defaults, the --config
// file over them, then every --set in order, validated. Errors name the file
// or key.
func (c *configFlags) load(variant string) (setup.Config, error) {
	cfg, err := c.loadUnchecked(variant)
	if err != nil {
		return setup.Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return setup.Config{}, err
	}
	return cfg, nil
}

// loadUnchecked is load without the final validation, for a command whose
// own flags still change the config.
func (c *configFlags) loadUnchecked(variant string) (setup.Config, error) {
	cfg, err := setup.DefaultConfig(variant)
	if err != nil {
		return setup.Config{}, err
	}
	if c.file != "" {
		if cfg, err = setup.LoadConfig(c.file, cfg); err != nil {
			return setup.Config{}, err
		}
	}
	for _, s := range c.sets {
		if err := cfg.Set(s); err != nil {
			return setup.Config{}, err
		}
	}
	return cfg, nil
}

// set reports whether the command line gave flag name.
func set(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// usageErr marks err as a command-line mistake (exit status 2).
func usageErr(err error) error { return fmt.Errorf("%w: %v", errUsage, err) }

// matchFlags are the knobs of every command that plays or searches with
// match players (match, play, imbalance, compare, analyse): --config and
// --set over the embedded training defaults, as train's, and --sims and
// --max-plies, the flags of eval.sims and eval.max_plies, which win over
// both when given. A searching player's search is the match preset
// (agent.MatchSearch) of the config's [selfplay] search.
type matchFlags struct {
	*configFlags
	fs             *flag.FlagSet
	sims, maxPlies *int
}

// addMatchFlags defines --config, --set, --sims and, with maxPlies,
// --max-plies on fs; the help shows the embedded defaults.
func addMatchFlags(fs *flag.FlagSet, maxPlies bool) *matchFlags {
	def, _ := setup.DefaultConfig("fbgc") // the embedded file: setup.TestEmbeddedDefaultsLoadForEveryBuiltInVariant checks it reads
	m := &matchFlags{configFlags: addConfigFlags(fs), fs: fs}
	m.sims = fs.Int("sims", def.Eval.Sims, "playouts per move of a searching player whose spec gives no :SIMS (config key eval.sims)")
	if maxPlies {
		m.maxPlies = fs.Int("max-plies", def.Eval.MaxPlies, "a game reaching this many plies is a draw (config key eval.max_plies; negative: no cap)")
	}
	return m
}

// load returns the config for variant (as configFlags.load) with --sims and
// --max-plies applied when given, validated; a negative --max-plies leaves
// Eval.MaxPlies -1 (no cap) after the validation.
func (m *matchFlags) load(variant string) (setup.Config, error) {
	cfg, err := m.loadUnchecked(variant)
	if err != nil {
		return setup.Config{}, err
	}
	if set(m.fs, "sims") {
		cfg.Eval.Sims = *m.sims
	}
	noCap := m.maxPlies != nil && set(m.fs, "max-plies") && *m.maxPlies < 0
	if m.maxPlies != nil && set(m.fs, "max-plies") && !noCap {
		cfg.Eval.MaxPlies = *m.maxPlies
	}
	if err := cfg.Validate(); err != nil {
		return setup.Config{}, err
	}
	if noCap {
		cfg.Eval.MaxPlies = -1
	}
	return cfg, nil
}

// setup returns what the match and play commands start from: the config
// for variant (load), the start position (setupPosition of variant, fen
// and moves) and the player options with piece values text values; every
// error is a usage error.
func (m *matchFlags) setup(variant, fen, moves, values string) (setup.Config, *env.Position, match.Options, error) {
	tc, err := m.load(variant)
	if err != nil {
		return setup.Config{}, nil, match.Options{}, usageErr(err)
	}
	start, err := setupPosition(variant, fen, moves)
	if err != nil {
		return setup.Config{}, nil, match.Options{}, err
	}
	opt, err := playerOptions(tc, values)
	if err != nil {
		return setup.Config{}, nil, match.Options{}, fmt.Errorf("%w: --values: %v", errUsage, err)
	}
	return tc, start, opt, nil
}

// playerOptions returns what match.Parse needs to build players under cfg:
// piece values (text as "G=2.5,I=8", or empty) and the loader of searching
// players (eval.sims playouts over the [selfplay] search) and of outside
// engines ("uci:PATH[:OPTIONS]").
func playerOptions(cfg setup.Config, values string) (match.Options, error) {
	opt := match.Options{Models: match.SearchLoader(cfg.PlayerSearch(), cfg.Eval.Sims, cfg.Eval.LeafEngine), Engines: external.Loader(context.Background())}
	if values != "" {
		v, err := agent.ParseValues(values)
		if err != nil {
			return opt, err
		}
		opt.Values = v
	}
	return opt, nil
}
