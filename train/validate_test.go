package train

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/nn"
	"bomberzero/setup"
)

// TestNewRunWithBadBaselineIsRefusedBeforeAnyWork reproduces finding 7: a
// bad eval.baselines entry was refused only after self-play and training.
// Now Run refuses it before writing a config, checkpoint or game.
func TestNewRunWithBadBaselineIsRefusedBeforeAnyWork(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Eval.Baselines = []string{"random", "alphabeta:99"}
	dir := t.TempDir()
	_, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 1})
	if err == nil || !strings.Contains(err.Error(), "eval.baselines[1]") {
		t.Fatalf("error %v, want one naming eval.baselines[1]", err)
	}
	for _, name := range []string{configName, "state.json", dataDir, ckptDir} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was written before the config was refused", name)
		}
	}
}

// TestResumeOfAnInvalidSavedConfigNamesTheKeyAndSetRepairsIt reproduces
// the stuck runs of finding 7: a run whose config.toml holds a value that
// is no longer valid (NaN written by an older version, a baseline that no
// longer parses) must say which key and how to repair it, and a resume
// with --set (Options.Sets) must repair it, saving the fix.
func TestResumeOfAnInvalidSavedConfigNamesTheKeyAndSetRepairsIt(t *testing.T) {
	skipUnderRace(t)
	base := tinyConfig(t)
	base.Train.ValueMix = 0.5 // the value the first edit breaks
	for _, c := range []struct {
		edit, key, set string
	}{
		{"value_mix = 0.5", "train.value_mix", "train.value_mix=0.25"},
		{"momentum = 0.9", "train.momentum", "train.momentum=0.5"},
		{"l2 = 0.0001", "train.l2", "train.l2=0.001"},
		{`baselines = ["random"]`, "eval.baselines", `eval.baselines=["greedy"]`},
	} {
		dir := t.TempDir()
		if _, err := Run(context.Background(), Options{Dir: dir, Config: base, Generations: 1}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, configName)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bad := strings.Replace(c.edit, "0.5", "nan", 1)
		bad = strings.Replace(bad, "0.9", "nan", 1)
		bad = strings.Replace(bad, "0.0001", "nan", 1)
		bad = strings.Replace(bad, `"random"`, `"alphabeta:0"`, 1)
		if !strings.Contains(string(data), c.edit) {
			t.Fatalf("config.toml has no %q:\n%s", c.edit, data)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(data), c.edit, bad, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = Run(context.Background(), Options{Dir: dir, Generations: 2})
		if err == nil || !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), "--set "+c.key+"=") {
			t.Fatalf("%s: resume error %v, want it to name %s and the --set that repairs it", c.key, err, c.key)
		}
		rep, err := Run(context.Background(), Options{Dir: dir, Generations: 2, Sets: []string{c.set}})
		if err != nil || rep.Generations != 2 {
			t.Fatalf("%s: resume with --set %s: %v %+v", c.key, c.set, err, rep)
		}
		saved, err := setup.LoadConfig(path, setup.Config{})
		if err != nil {
			t.Fatalf("%s: the repaired config.toml: %v", c.key, err)
		}
		want := base
		if err := want.Set(c.set); err != nil {
			t.Fatal(err)
		}
		if err := want.Validate(); err != nil {
			t.Fatal(err)
		}
		if enc1, _ := saved.Encode(); true {
			enc2, _ := want.Encode()
			if string(enc1) != string(enc2) {
				t.Errorf("%s: config.toml after the repair:\n%s\nwant:\n%s", c.key, enc1, enc2)
			}
		}
	}
}

// TestResumeSetCannotChangeWhatTheRunIsMadeOf checks that --set on a
// resume refuses the variant, the network's shape and the optimizer, which
// the run's checkpoints and data are made for, and leaves config.toml as
// it was.
func TestResumeSetCannotChangeWhatTheRunIsMadeOf(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run(context.Background(), Options{Dir: dir, Config: tinyConfig(t), Generations: 1}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, configName))
	for _, set := range []string{"variant=chess", "net.filters=16", "train.optimizer=adam"} {
		_, err := Run(context.Background(), Options{Dir: dir, Generations: 2, Sets: []string{set}})
		if err == nil || !strings.Contains(err.Error(), "cannot change") {
			t.Errorf("--set %s on resume: %v, want it refused", set, err)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, configName)); string(after) != string(before) {
		t.Error("a refused --set changed config.toml")
	}
}

// TestDivergedTrainingStopsBeforeACheckpointAndResumesWithALowerRate
// reproduces finding 7's learning_rate = 1e6 (which saved NaN weights and
// failed on every resume) within the valid range: a learning rate of 10
// with an L2 of 1 multiplies the weights by -19 each step. Training must
// stop at the first non-finite loss or weight without writing a
// checkpoint of it, name the kept checkpoint, leave every checkpoint on
// disk finite, and resume with a lower rate (--set) to a complete run.
func TestDivergedTrainingStopsBeforeACheckpointAndResumesWithALowerRate(t *testing.T) {
	cfg := tinyConfig(t)
	cfg.Train.LearningRate, cfg.Train.L2, cfg.Train.MaxSteps = setup.MaxLearningRate, 1, 40
	// Checkpoints every 20 steps: the weights blow up within a few steps,
	// so the kept checkpoint is the initial network, which a lower rate
	// trains from.
	cfg.Train.CheckpointSteps = 20
	dir := t.TempDir()
	_, runErr := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 1})
	if runErr == nil || !strings.Contains(runErr.Error(), "diverged") || !strings.Contains(runErr.Error(), "not finite") {
		t.Fatalf("error %v, want training to stop as diverged", runErr)
	}
	st, err := loadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(runErr.Error(), st.Checkpoint) || st.Steps >= int64(cfg.Train.MaxSteps) {
		t.Fatalf("error %v: want it to name the state's checkpoint %s (step %d)", runErr, st.Checkpoint, st.Steps)
	}
	ckpts, _ := filepath.Glob(filepath.Join(dir, ckptDir, "*.safetensors"))
	for _, p := range ckpts {
		c, err := nn.ReadCheckpoint(p)
		if err != nil {
			t.Fatal(err)
		}
		if c.Step > st.Steps {
			t.Errorf("%s: step %d was saved after the kept step %d", p, c.Step, st.Steps)
		}
		for name, tensor := range c.Tensors {
			for _, x := range tensor.Data {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					t.Fatalf("%s: tensor %s holds %v", p, name, x)
				}
			}
		}
	}
	if _, err := os.Stat(GenCheckpoint(dir, 1)); err == nil {
		t.Error("a generation checkpoint was written from the diverged training")
	}
	// The repair the message suggests: a lower rate.
	rep, err := Run(context.Background(), Options{Dir: dir, Generations: 1, Sets: []string{"train.learning_rate=0.02", "train.l2=0.0001"}})
	if err != nil || rep.Generations != 1 {
		t.Fatalf("resume with a lower rate: %v %+v", err, rep)
	}
	fixed := cfg
	fixed.Train.LearningRate, fixed.Train.L2 = 0.02, 0.0001
	checkRunComplete(t, dir, fixed, 1)
}

// TestTeacherPlanCannotChangeUpToTheGenerationInProgress checks that a
// resume's --set of the teacher keys is refused when it changes a
// generation already played or in progress (which generations teach,
// their games, their steps), naming the generation, and allowed when it
// changes only later ones.
func TestTeacherPlanCannotChangeUpToTheGenerationInProgress(t *testing.T) {
	saved := setup.TeacherConfig{}
	saved.Enabled, saved.Games, saved.FirstGames, saved.TrainSteps, saved.FirstSteps, saved.RoundCount = true, 1000, 100, 2000, 500, 10
	for _, c := range []struct {
		name string
		set  func(*setup.TeacherConfig)
		gen  int
		want string // "" when allowed
	}{
		{"nothing changed", func(*setup.TeacherConfig) {}, 12, ""},
		{"fewer rounds, the in-progress one dropped", func(c *setup.TeacherConfig) { c.RoundCount = 3 }, 4, "generation 1 is played"},
		{"more games, a played round's share changes", func(c *setup.TeacherConfig) { c.Games = 2000 }, 2, "generation 1 is played"},
		{"more rounds after self-play began", func(c *setup.TeacherConfig) { c.RoundCount = 20 }, 11, "generation 1 is played"},
		{"the teacher off during its first round", func(c *setup.TeacherConfig) { c.Enabled = false }, 0, "a self-play generation"},
		{"the first round's steps, once it is in progress", func(c *setup.TeacherConfig) { c.FirstSteps = 600 }, 0, "generation 0 is played"},
		{"a worker without state: nothing to keep", func(c *setup.TeacherConfig) { c.RoundCount = 3 }, -1, ""},
	} {
		got := saved
		c.set(&got)
		err := sameTeacherPlan(saved, got, c.gen)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want it allowed", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "--set teacher")):
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
	// Growing a teacher phase in progress, the rounds after the current
	// one only: the first round's 100 games and 500 steps and nothing
	// else played yet, so the later rounds may be redrawn.
	grown := saved
	grown.Games, grown.TrainSteps = 1900, 3500 // rounds 2-10: 200 games, 333-334 steps each, were 100 and 166-167
	if err := sameTeacherPlan(saved, grown, 0); err != nil {
		t.Errorf("growing the later rounds during the first: %v", err)
	}
	if err := sameTeacherPlan(saved, grown, 1); err == nil {
		t.Error("growing a round in progress was allowed")
	}
}
