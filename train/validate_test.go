package train

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/internal/keys"
	"bomberzero/nn"
)

// TestConfigRefusesTheValuesOfIssue16 sets each value issue 16 (findings 5,
// 7 and 8) found accepted, on the embedded defaults as "--set" does: each
// must be refused by Validate or, for what needs the variant, by Check,
// with an error naming the key. Each of these once crashed, hung, trained
// nothing or made a run that could not be resumed.
func TestConfigRefusesTheValuesOfIssue16(t *testing.T) {
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set, want string
	}{
		// Finding 5: no upper bounds, out of memory.
		{"net.filters=100000", "net.filters = 100000: want 1 to 512"},
		{"net.blocks=100000", "net.blocks = 100000: want 0 to 64"},
		{"net.policy_filters=100000", "net.policy_filters = 100000"},
		{"net.value_filters=100000", "net.value_filters = 100000"},
		{"net.value_hidden=100000000", "net.value_hidden = 100000000"},
		{"train.batch=10000000", "train.batch = 10000000"},
		{"selfplay.workers=100000", "selfplay.workers = 100000"},
		{"selfplay.slots=1000000", "selfplay.slots = 1000000"},
		{"train.window=1000000000", "train.window = 1000000000"},
		{"selfplay.cache_entries=1000000000", "selfplay.cache_entries = 1000000000"},
		{"selfplay.sims=100000000", "selfplay.sims = 100000000"},
		// Finding 7: NaN passed validation and broke the run later; a
		// learning rate of 1e6 saved NaN weights.
		{"train.value_mix=nan", "train.value_mix = NaN: want a finite number"},
		{"train.momentum=nan", "train.momentum = NaN"},
		{"train.l2=nan", "train.l2 = NaN"},
		{"train.learning_rate=nan", "train.learning_rate = NaN"},
		{"train.learning_rate=1e6", "train.learning_rate = 1e+06: want a finite number above 0, at most 10"},
		{"train.moves_left_weight=inf", "train.moves_left_weight = +Inf"},
		{`eval.baselines=["alphabeta:99"]`, "eval.baselines[0]"},
		{`eval.baselines=["random", "nosuchplayer"]`, "eval.baselines[1]"},
		{`eval.baselines=[""]`, "eval.baselines[0]"},
		// Finding 8: silently accepted nonsense.
		{"train.sample_ratio=inf", "train.sample_ratio = +Inf"},
		{"train.window=1", "train.window = 1: want at least train.batch and train.min_positions"},
		{"train.max_steps=0", "train.max_steps = 0"},
		{"seed=-1", "seed = -1: want 0 to 9223372036854775807"},
		{"selfplay.temp=nan", "selfplay.temp = NaN"},
		{"selfplay.final_temp=inf", "selfplay.final_temp = +Inf"},
		{"selfplay.cheap_share=nan", "selfplay.cheap_share = NaN"},
		{"selfplay.resign_threshold=nan", "selfplay.resign_threshold = NaN"},
		{"selfplay.resign_off_share=nan", "selfplay.resign_off_share = NaN"},
		{"selfplay.cpuct_init=nan", "selfplay.cpuct_init = NaN"},
		{"selfplay.cpuct_base=inf", "selfplay.cpuct_base = +Inf"},
		{"selfplay.fpu_reduction=nan", "selfplay.fpu_reduction = NaN"},
		{"selfplay.dirichlet_total=inf", "selfplay.dirichlet_total = +Inf"},
		{"selfplay.noise_fraction=nan", "selfplay.noise_fraction = NaN"},
		{"selfplay.gumbel_c_visit=nan", "selfplay.gumbel_c_visit = NaN"},
		// Issue 11's keys: adjudication, the rate decay, the rating cadence.
		{"selfplay.adjudicate_margin=-1", "selfplay.adjudicate_margin = -1: want a finite number from 0 to 1000"},
		{"selfplay.adjudicate_margin=nan", "selfplay.adjudicate_margin = NaN"},
		{"train.lr_decay_share=1.5", "train.lr_decay_share = 1.5"},
		{"train.lr_decay_final=0", "train.lr_decay_final = 0: want a finite number above 0, at most 1"},
		{"eval.every=0", "eval.every = 0: want 1 to 1000000"},
		{"selfplay.gumbel_c_scale=-inf", "selfplay.gumbel_c_scale = -Inf"},
		{"generations=-1", "generations = -1"},
	} {
		cfg, err := DefaultConfig("fbgc")
		if err != nil {
			t.Fatal(err)
		}
		err = cfg.Set(c.set)
		if err == nil {
			err = cfg.Validate()
		}
		if err == nil {
			err = cfg.Check(v, 1<<40)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--set %s: error %v, want one saying %q", c.set, err, c.want)
		}
	}
}

// TestSeedRangeIsExactlyWhatTOMLCanHold checks both ends of the seed: the
// largest TOML integer is accepted and round-trips, a seed beyond it (set
// in Go) is refused rather than written as a file no reader accepts.
func TestSeedRangeIsExactlyWhatTOMLCanHold(t *testing.T) {
	cfg, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Set("seed=9223372036854775807"); err != nil || cfg.Validate() != nil || cfg.Seed != math.MaxInt64 {
		t.Fatalf("the largest seed: %v, %v, seed %d", err, cfg.Validate(), cfg.Seed)
	}
	data, err := cfg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := parseConfig("again", data, baseConfig())
	if err != nil || back.Seed != cfg.Seed {
		t.Fatalf("round trip: %v, seed %d", err, back.Seed)
	}
	cfg.Seed = math.MaxInt64 + 1
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "seed = 9223372036854775808") {
		t.Errorf("seed 2^63: %v", err)
	}
}

// TestKeyErrorsCarryTheKey checks that a validation error is a
// *keys.KeyError whose Key is the full dotted key, which the resume hint
// builds its --set from.
func TestKeyErrorsCarryTheKey(t *testing.T) {
	cfg, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	cfg.SelfPlay.Search.Temp = math.NaN()
	var ke *keys.KeyError
	if err := cfg.Validate(); !errors.As(err, &ke) || ke.Key != "selfplay.temp" {
		t.Fatalf("error %v: want a KeyError on selfplay.temp", err)
	}
}

// TestMemoryEstimateBoundsATrainingStep measures what one training step of
// a small network allocates and checks that the estimate is not below it
// (the estimate's job is to refuse what cannot fit, so it must not
// undercount), and that the defaults fit in 2 GiB while the largest
// network at the largest batch does not fit in 64 GiB.
func TestMemoryEstimateBoundsATrainingStep(t *testing.T) {
	cfg, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		t.Fatal(err)
	}
	shape := agent.NewRules(v, cfg.SelfPlay.MaxPlies).Shape()
	cfg.Net = NetConfig{Blocks: 3, Filters: 24, PolicyFilters: 8, ValueFilters: 2, ValueHidden: 16}
	cfg.Train.Batch = 48
	nc := nn.Config{Channels: shape.Channels, Height: shape.Height, Width: shape.Width, PolicyPlanes: shape.PolicySize / (shape.Height * shape.Width),
		Blocks: cfg.Net.Blocks, Filters: cfg.Net.Filters, PolicyFilters: cfg.Net.PolicyFilters, ValueFilters: cfg.Net.ValueFilters, ValueHidden: cfg.Net.ValueHidden}
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	net, err := nn.New(nc, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := nn.NewTrainer(net, nn.DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	b := nn.NewTrainBatch(nc, cfg.Train.Batch)
	for i := range cfg.Train.Batch {
		b.WDL[3*i] = 1
	}
	if _, err := tr.TrainStep(b); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	measured := float64(m1.TotalAlloc - m0.TotalAlloc)
	m := cfg.MemoryBytes(shape)
	if est := m.Weights + m.Training; est < measured {
		t.Errorf("estimated %.1f MB for the weights and a training step, measured %.1f MB allocated", est/1e6, measured/1e6)
	}
	t.Logf("training step: estimated %.1f MB, allocated %.1f MB", (m.Weights+m.Training)/1e6, measured/1e6)

	def, _ := DefaultConfig("fbgc")
	if err := def.CheckMemory(shape, 2<<30); err != nil {
		t.Errorf("the defaults do not fit in 2 GiB: %v", err)
	}
	big := def
	big.Net = NetConfig{Blocks: MaxBlocks, Filters: MaxFilters, PolicyFilters: MaxFilters, ValueFilters: MaxFilters, ValueHidden: MaxValueHidden}
	big.Train.Batch = MaxBatch
	if err := big.Validate(); err != nil {
		t.Fatalf("each key at its bound is valid alone: %v", err)
	}
	err = big.CheckMemory(shape, 64<<30)
	var ke *keys.KeyError
	if !errors.As(err, &ke) || ke.Key != "train.batch" || !strings.Contains(err.Error(), "GiB") {
		t.Errorf("the largest network at the largest batch: %v, want it refused naming train.batch", err)
	}
}

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
		saved, err := LoadConfig(path, Config{})
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
	cfg.Train.LearningRate, cfg.Train.L2, cfg.Train.MaxSteps = MaxLearningRate, 1, 40
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
