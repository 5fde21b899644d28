package main

import (
	"flag"
	"fmt"

	"bomberzero/train"
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
func (c *configFlags) load(variant string) (train.Config, error) {
	cfg, err := c.loadUnchecked(variant)
	if err != nil {
		return train.Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return train.Config{}, err
	}
	return cfg, nil
}

// loadUnchecked is load without the final validation, for a command whose
// own flags still change the config.
func (c *configFlags) loadUnchecked(variant string) (train.Config, error) {
	cfg, err := train.DefaultConfig(variant)
	if err != nil {
		return train.Config{}, err
	}
	if c.file != "" {
		if cfg, err = train.LoadConfig(c.file, cfg); err != nil {
			return train.Config{}, err
		}
	}
	for _, s := range c.sets {
		if err := cfg.Set(s); err != nil {
			return train.Config{}, err
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
