package train

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"bomberzero/configs"
	"bomberzero/env"
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
		{"[train]\nbatch = 0\n", "train.batch: want >= 1"},
		{"[selfplay]\nfirst_model = \"gnu\"\n", "selfplay.first_model: want material, uniform or net"},
		{"[train]\nsample_ratio = -1\n", "train.sample_ratio: want > 0"},
		{"[train]\noptimizer = \"lion\"\n", "train.optimizer: want sgd or adam"},
		{"[eval]\nsims = 0\n", "eval.sims: want >= 1"},
		{"[train]\nmoves_left_weight = -0.5\n", "train.moves_left_weight: want a finite weight >= 0"},
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
	for _, name := range []string{"fbgc.toml", "default.toml"} {
		data, err := fs.ReadFile(configs.Training(), name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("[train]\nbatch = -3\n"))
	f.Add([]byte("[[net]]\n"))
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
		if !reflect.DeepEqual(back, c) && !hasNaN(c) {
			t.Fatalf("round trip changed the config:\n%+v\n%+v", c, back)
		}
	})
}

// hasNaN reports a float field that compares unequal to itself.
func hasNaN(c Config) bool {
	fs := []float64{c.SelfPlay.CheapShare, c.SelfPlay.ResignThreshold, c.SelfPlay.ResignOffShare,
		c.Train.SampleRatio, c.Train.LearningRate, c.Train.Momentum, c.Train.L2, c.Train.ValueMix}
	for _, f := range fs {
		if f != f {
			return true
		}
	}
	return false
}
