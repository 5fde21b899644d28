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
//
// gen is the generation in progress (-1 when the caller has no state, as
// a self-play worker): the teacher's plan of the generations up to it
// cannot change either, since their games and steps are made or being
// made.
func loadRunConfig(dir string, sets []string, gen int) (setup.Config, bool, error) {
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
	if err := sameTeacherPlan(saved.Teacher, c.Teacher, gen); err != nil {
		return setup.Config{}, false, err
	}
	return c, !reflect.DeepEqual(c, saved), nil
}

// sameTeacherPlan refuses a change of the teacher's keys that changes
// which of the generations 0 to gen the teacher plays, or its games or
// steps in one of them: those generations' games are played (or being
// played) to the saved plan, and a changed one would count a teacher
// generation's chunks as self-play's or the reverse. Later generations
// may change (a long teacher phase may grow before it ends).
func sameTeacherPlan(saved, c setup.TeacherConfig, gen int) error {
	for g := 0; g <= gen; g++ {
		if saved.Teaches(g) == c.Teaches(g) && saved.GamesIn(g) == c.GamesIn(g) && saved.StepsIn(g) == c.StepsIn(g) {
			continue
		}
		return fmt.Errorf("train: --set teacher: generation %d is played to the saved teacher plan "+
			"(%s), and this change makes it %s; a run's teacher keys may change only the generations after the one in progress (%d)",
			g, teacherRound(saved, g), teacherRound(c, g), gen)
	}
	return nil
}

// teacherRound describes generation g under the teacher plan c.
func teacherRound(c setup.TeacherConfig, g int) string {
	if !c.Teaches(g) {
		return "a self-play generation"
	}
	return fmt.Sprintf("teacher round %d of %d: %d games, %d steps", g+1, c.Rounds(), c.GamesIn(g), c.StepsIn(g))
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
