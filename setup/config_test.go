package setup

import (
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"bomberzero/configs"
	"bomberzero/env"
	"bomberzero/eval"
	"bomberzero/mcts"
)

func TestEmbeddedDefaultsLoadForEveryBuiltInVariant(t *testing.T) {
	files, err := fs.Glob(configs.Training(), "*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no embedded training defaults: %v", err)
	}
	for _, name := range env.VariantNames() {
		c, err := DefaultConfig(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if c.Variant != name {
			t.Errorf("%s: config variant %q", name, c.Variant)
		}
	}
	for _, f := range files {
		base := strings.TrimSuffix(f, ".toml")
		if base == "default" {
			continue
		}
		if _, err := env.LoadVariant(base); err != nil {
			t.Errorf("configs/training/%s names no built-in variant: %v", f, err)
		}
	}
}

func TestConfigEncodeThenLoadRoundTrips(t *testing.T) {
	c, err := DefaultConfig("fbgc+superpower")
	if err != nil {
		t.Fatal(err)
	}
	c.Eval.Baselines = []string{"random", "alphabeta:2"}
	c.Train.ValueMix = 0.125
	data, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadConfig(path, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("round trip changed the config:\n got %+v\nwant %+v", got, c)
	}
}

func TestConfigFileOverridesOnlyTheKeysItSets(t *testing.T) {
	base, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c.toml")
	os.WriteFile(path, []byte("[train]\nmax_steps = 7\n"), 0o644)
	got, err := LoadConfig(path, base)
	if err != nil {
		t.Fatal(err)
	}
	want := base
	want.Train.MaxSteps = 7
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestBadConfigErrorsNameTheKey(t *testing.T) {
	base, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ text, want string }{
		{"[train]\nmax_step = 7\n", `unknown key "train.max_step"`},
		{"[train]\nbatch = 0\n", "train.batch = 0: want 1 to 8192"},
		{"[selfplay]\nfirst_model = \"gnu\"\n", `selfplay.first_model = "gnu": want net or a network-free model`},
		{"[train]\nsample_ratio = -1\n", "train.sample_ratio = -1: want a finite number above 0"},
		{"[train]\noptimizer = \"lion\"\n", `train.optimizer = "lion": want sgd or adam`},
		{"[eval]\nsims = 0\n", "eval.sims = 0: want 1 to"},
		{"[eval]\nleaf_material_mix = 2\n", "eval.leaf_material_mix = 2: want a finite number from 0 to 1"},
		{"[selfplay]\nleaf_material_mix = -1\n", "selfplay.leaf_material_mix = -1: want a finite number from 0 to 1"},
		{"[selfplay]\nleaf_material_scale = 0\n", "selfplay.leaf_material_scale = 0: want a finite number above 0"},
		{"[train]\nmoves_left_weight = -0.5\n", "train.moves_left_weight = -0.5: want a finite number from 0 to 100"},
		{"[selfplay]\nsims = 0\n", "selfplay.sims = 0: want 1 to"},
		{"[selfplay]\ncpuct_base = -1\n", "selfplay.cpuct_base = -1: want a finite number above 0"},
		{"[selfplay]\nseed = 3\n", `unknown key "selfplay.seed"`},
		{"[net]\nfilters = \"many\"\n", "c.toml"},
		{"variant = \n", "c.toml"},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), "c.toml")
		os.WriteFile(path, []byte(c.text), 0o644)
		_, err := LoadConfig(path, base)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to mention %q", c.text, err, c.want)
		}
	}
}

func FuzzConfigParse(f *testing.F) {
	for _, name := range []string{configs.DefaultTraining, "testdata/run-v1-config.toml"} {
		data, err := fs.ReadFile(configs.Training(), name)
		if err != nil {
			data, err = os.ReadFile(name)
		}
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("[train]\nbatch = -3\n"))
	f.Add([]byte("[[net]]\n"))
	f.Add([]byte("seed = -1\n"))
	f.Add([]byte("[train]\nvalue_mix = nan\nsample_ratio = inf\n"))
	f.Add([]byte("[net]\nfilters = 100000\n"))
	f.Add([]byte("[eval]\nbaselines = [\"\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseConfig("fuzz.toml", data, Config{})
		if err != nil {
			return
		}
		if c.Validate() != nil {
			return
		}
		// A valid config encodes and reads back unchanged.
		out, err := c.Encode()
		if err != nil {
			t.Fatal(err)
		}
		back, err := parseConfig("again", out, Config{})
		if err != nil {
			t.Fatalf("re-reading an encoded config: %v\n%s", err, out)
		}
		// A valid config holds no NaN, so it compares equal to itself.
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("round trip changed the config:\n%+v\n%+v\n%s", c, back, out)
		}
		// The memory estimate of any valid config is a finite number.
		m := c.MemoryBytes(eval.Shape{Channels: 40, Height: 16, Width: 15, PolicySize: 240 * 80})
		if tot := m.Total(); !(tot > 0) || math.IsInf(tot, 0) {
			t.Fatalf("memory estimate %v of %+v", tot, c)
		}
	})
}

func TestPlayerSearchIsSelfPlaysWithTheEvalMix(t *testing.T) {
	// The embedded defaults: self-play searches with the network alone,
	// every searching player of a match with half the leaf material
	// (docs/RESULTS.md measured both); the rest of the search is shared.
	c, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	if c.SelfPlay.Search.LeafMaterialMix != 0 || c.Eval.LeafMaterialMix != 0.5 {
		t.Errorf("embedded mixes: selfplay %g, eval %g; want 0 and 0.5", c.SelfPlay.Search.LeafMaterialMix, c.Eval.LeafMaterialMix)
	}
	// And self-play follows the network's policy as it is, the players at
	// policy temperature 1.5 (docs/RESULTS.md, "A policy temperature for
	// the players").
	if c.SelfPlay.Search.PolicyTemp != 1 || c.Eval.PolicyTemp != 1.5 {
		t.Errorf("embedded policy temperatures: selfplay %g, eval %g; want 1 and 1.5", c.SelfPlay.Search.PolicyTemp, c.Eval.PolicyTemp)
	}
	for _, mix := range []float64{0, 0.25, 1} {
		c.Eval.LeafMaterialMix = mix
		want := c.SelfPlay.Search
		want.LeafMaterialMix = mix
		want.PolicyTemp = c.Eval.PolicyTemp
		if got := c.PlayerSearch(); got != want {
			t.Errorf("eval mix %g: PlayerSearch %+v, want %+v", mix, got, want)
		}
	}
	// The policy temperature is the players' own too, self-play's left alone.
	c.SelfPlay.Search.PolicyTemp = 1
	for _, temp := range []float64{0, 1, 1.6} {
		c.Eval.PolicyTemp = temp
		if got := c.PlayerSearch().PolicyTemp; got != temp {
			t.Errorf("eval.policy_temp %g: PlayerSearch's policy_temp %g", temp, got)
		}
		if c.SelfPlay.Search.PolicyTemp != 1 {
			t.Errorf("eval.policy_temp %g changed self-play's to %g", temp, c.SelfPlay.Search.PolicyTemp)
		}
	}
	// A run directory's config written before the key loads as it ran:
	// every search without the mix.
	old, err := LoadConfig(filepath.Join("testdata", "run-v1-config.toml"), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if old.PlayerSearch().LeafMaterialMix != 0 {
		t.Errorf("an old run's config plays matches with mix %g, want 0", old.PlayerSearch().LeafMaterialMix)
	}
	if p := old.PlayerSearch().PolicyTemp; p != 0 && p != 1 {
		t.Errorf("an old run's config plays matches at policy_temp %g, want the priors as they are (0 or 1)", p)
	}
}

// TestRunConfigWrittenBeforeTheSearchKeysStillLoads reads a run's
// config.toml as the code before the embedded search config wrote it (no
// cpuct_init, noise_fraction and the like): it must load, keep every key it
// sets, and take the search defaults for the rest, as that code did.
func TestRunConfigWrittenBeforeTheSearchKeysStillLoads(t *testing.T) {
	c, err := LoadConfig(filepath.Join("testdata", "run-v1-config.toml"), Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := mcts.DefaultConfig()
	want.Sims, want.CheapSims, want.CheapShare, want.Gumbel, want.TempPlies = 40, 12, 0.5, false, 16
	if c.SelfPlay.Search != want {
		t.Errorf("search %+v, want %+v", c.SelfPlay.Search, want)
	}
	if c.Variant != "chess" || c.Seed != 7 || c.SelfPlay.Games != 32 || c.SelfPlay.FirstModel != "material" ||
		c.SelfPlay.MaxPlies != 160 || c.Eval.Sims != 16 || c.Train.Batch != 128 {
		t.Errorf("keys of the file lost: %+v", c)
	}
}

func TestVariantDefaultsOverrideTheDefaultFile(t *testing.T) {
	// Every variant's embedded defaults are default.toml with the keys of
	// the variant's own file (if any) on top: a variant without a file gets
	// default.toml exactly.
	def, err := DefaultConfig("chess")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range env.VariantNames() {
		c, err := DefaultConfig(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fs.Stat(configs.Training(), name+".toml"); err == nil {
			continue
		}
		c.Variant = def.Variant
		if !reflect.DeepEqual(c, def) {
			t.Errorf("%s: defaults differ from default.toml without a file of their own", name)
		}
	}
}

func TestSetOverridesOneKeyOrNamesItsError(t *testing.T) {
	base, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set  string
		want func(*Config)
		err  string
	}{
		{set: "selfplay.sims=64", want: func(c *Config) { c.SelfPlay.Sims = 64 }},
		{set: "selfplay.cpuct_init = 2.5", want: func(c *Config) { c.SelfPlay.CPUCTInit = 2.5 }},
		{set: "train.optimizer=adam", want: func(c *Config) { c.Train.Optimizer = "adam" }},
		{set: `eval.baselines=["random"]`, want: func(c *Config) { c.Eval.Baselines = []string{"random"} }},
		{set: "seed=9", want: func(c *Config) { c.Seed = 9 }},
		{set: "selfplay.gumbel=true", want: func(c *Config) { c.SelfPlay.Gumbel = true }},
		{set: "selfplay.simz=64", err: "selfplay.simz"},
		{set: "selfplay.sims=many", err: "selfplay.sims"},
		{set: "selfplay.sims", err: "KEY=VALUE"},
		{set: "Selfplay.Sims=3", err: "not a config key"},
		{set: "selfplay.sims=1\nseed=3", err: "selfplay.sims"},
	} {
		got := base
		err := got.Set(c.set)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Set(%q): error %v, want one naming %q", c.set, err, c.err)
			}
			continue
		}
		want := base
		c.want(&want)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Set(%q): %v\n got %+v\nwant %+v", c.set, err, got, want)
		}
	}
}

func FuzzSet(f *testing.F) {
	for _, s := range []string{"selfplay.sims=64", "train.optimizer=adam", "x=", "=", "eval.baselines=[1]", "seed=-1"} {
		f.Add(s)
	}
	base, err := DefaultConfig("fbgc")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := base
		c.Eval.Baselines = slices.Clone(base.Eval.Baselines)
		if err := c.Set(s); err != nil {
			if !reflect.DeepEqual(c.Eval.Baselines, base.Eval.Baselines) || c.Seed != base.Seed {
				t.Fatalf("failed Set(%q) changed the config", s)
			}
		}
	})
}

// TestConfigReaderRefusesDevicesFifosAndHugeFiles is finding 1 of issue
// 34: --config /dev/zero grew memory until the process died, a FIFO blocked
// forever and a 3 GB config was read whole.
func TestConfigReaderRefusesDevicesFifosAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.toml")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, MaxConfigBytes+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	base, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, says string }{
		{"/dev/zero", "not a regular file (a character device)"},
		{fifo, "not a regular file (a named pipe)"},
		{huge, "more than the 1048576 this reader accepts"},
	} {
		done := make(chan error, 1)
		go func() { _, err := LoadConfig(tc.path, base); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.path) || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("LoadConfig(%s) = %v; want an error naming the file saying %q", tc.path, err, tc.says)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("LoadConfig(%s) still running after 10 s", tc.path)
		}
	}
}
