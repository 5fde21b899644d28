package train

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"bomberzero/internal/keys"
	"bomberzero/setup"
)

// loadRunConfig reads the config.toml of the run in dir, applies sets
// (Options.Sets) and validates the result. It reports whether sets
// changed the config. An invalid config's error says how to repair it
// with --set; sets may not change what the run's checkpoints and data are
// made for (the variant, the net table, train.optimizer).
func loadRunConfig(dir string, sets []string) (setup.Config, bool, error) {
	path := filepath.Join(dir, configName)
	saved, err := setup.ReadConfig(path, setup.Config{})
	if err != nil {
		return setup.Config{}, false, err
	}
	c := saved
	c.Eval.Baselines = slices.Clone(saved.Eval.Baselines)
	for _, s := range sets {
		if err := c.Set(s); err != nil {
			return setup.Config{}, false, err
		}
	}
	switch {
	case c.Variant != saved.Variant:
		return setup.Config{}, false, fmt.Errorf("train: --set variant: a run's variant cannot change (its data and checkpoints are %s's)", saved.Variant)
	case c.Net.Init != saved.Net.Init:
		return setup.Config{}, false, fmt.Errorf("train: --set net.init: a run's starting weights are read once, when it is created; to start from %q, start a new run", c.Net.Init)
	case c.Net != saved.Net:
		return setup.Config{}, false, fmt.Errorf("train: --set net: a run's network shape cannot change (its checkpoints have the saved one)")
	case c.Train.Optimizer != saved.Train.Optimizer:
		return setup.Config{}, false, fmt.Errorf("train: --set train.optimizer: a run's optimizer cannot change (its checkpoints hold %s's state)", saved.Train.Optimizer)
	}
	if err := c.Validate(); err != nil {
		return setup.Config{}, false, repairHint(dir, err)
	}
	return c, !reflect.DeepEqual(c, saved), nil
}

// repairHint wraps the error of a resumed run's invalid config with the
// file and how to repair it: resume with --set KEY=VALUE.
func repairHint(dir string, err error) error {
	var ke *keys.KeyError
	if !errors.As(err, &ke) {
		return fmt.Errorf("%s: %w", filepath.Join(dir, configName), err)
	}
	key := ke.Key
	if i := strings.IndexByte(key, '['); i >= 0 {
		key = key[:i] // eval.baselines[1]: set the whole list
	}
	return fmt.Errorf("%s: %w; resume with a valid value to repair it: train --run %s --set %s=VALUE",
		filepath.Join(dir, configName), err, dir, key)
}
