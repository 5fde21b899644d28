package learn

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"bomberzero/engine/nnue"
	"bomberzero/engine/nnue/fit"
)

// settingsRun plays and trains one generation of settingsConfig's run in a
// new directory (skipped under -short) and returns the directory and the
// config.
func settingsRun(t *testing.T) (string, Config) {
	t.Helper()
	if testing.Short() {
		t.Skip("plays a generation")
	}
	dir := t.TempDir()
	cfg := settingsConfig(t, dir)
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	return dir, cfg
}

// settingsConfig is tinyConfig for one generation with a fake trainer
// that carries fit settings (it ignores them: what is tested is that the
// run records and checks them).
func settingsConfig(t *testing.T, dir string) Config {
	cfg := tinyConfig(t, dir)
	f := fit.DefaultConfig()
	f.Hidden, f.L2, f.Mirror, f.KingBuckets = 8, 4, true, nnue.KingBuckets{Files: 2, Ranks: 2}
	cfg.Trainer = fakeTrainer{NNUE{Fit: f}}
	cfg.Generations, cfg.Gate.Games = 1, 2
	return cfg
}

// TestRunRecordsAndChecksNetSettings: a new run records its net settings;
// a resume with any of them changed is refused naming the state, the run's
// value and the given one, and writes nothing; the same settings resume.
func TestRunRecordsAndChecksNetSettings(t *testing.T) {
	dir, cfg := settingsRun(t)
	st, ok, err := LoadState(dir)
	if err != nil || !ok || st.Net == nil {
		t.Fatalf("state: %+v, %v, %v", st, ok, err)
	}
	if !slices.Equal(st.Table, cfg.Table) {
		t.Errorf("recorded table %v, want the run's %v", st.Table, cfg.Table)
	}
	if want := cfg.NetSettings(); *st.Net != want || st.Net.KingBuckets != "2x2" || !st.Net.Mirror || st.Version != stateVersion {
		t.Errorf("recorded version %d, %+v; want version %d, %+v", st.Version, *st.Net, stateVersion, want)
	}
	before, err := os.ReadFile(StatePath(dir))
	if err != nil {
		t.Fatal(err)
	}
	fitOf := func(c Config) fit.Config { return c.Trainer.(fakeTrainer).Fit }
	cases := []struct {
		name   string
		change func(*Config)
		want   string // "" resumes
	}{
		{"same", func(*Config) {}, ""},
		{"mirror", func(c *Config) { f := fitOf(*c); f.Mirror = false; c.Trainer = fakeTrainer{NNUE{Fit: f}} }, "--mirror true; resume it with the same settings (got --mirror false)"},
		{"hidden", func(c *Config) { f := fitOf(*c); f.Hidden = 16; c.Trainer = fakeTrainer{NNUE{Fit: f}} }, "--hidden 8; resume it with the same settings (got --hidden 16)"},
		{"buckets", func(c *Config) {
			f := fitOf(*c)
			f.KingBuckets = nnue.KingBuckets{}
			c.Trainer = fakeTrainer{NNUE{Fit: f}}
		}, "--king-buckets 2x2; resume"},
		{"lr", func(c *Config) { f := fitOf(*c); f.LearningRate = 5e-4; c.Trainer = fakeTrainer{NNUE{Fit: f}} }, "(got --lr 0.0005)"},
		{"window", func(c *Config) { c.Window = 5 }, "(got --window 5)"},
		{"max positions", func(c *Config) { c.MaxPositions = 100 }, "(got --max-positions 100)"},
		{"table", func(c *Config) { c.Table = slices.Clone(c.Table); c.Table[2] += 200 }, "the run was started with the piece table"},
	}
	for _, c := range cases {
		resumed := settingsConfig(t, dir)
		c.change(&resumed)
		err := Run(context.Background(), resumed)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), StatePath(dir))):
			t.Errorf("%s: %v; want an error naming the state and %q", c.name, err, c.want)
		}
		if after, err := os.ReadFile(StatePath(dir)); err != nil || !bytes.Equal(after, before) {
			t.Errorf("%s: the state changed (%v):\n%s", c.name, err, after)
		}
	}
}

// TestVersion1StateGetsTheRecord: a version-1 state (no net settings) is
// resumed and records the resuming call's settings as version 2.
func TestVersion1StateGetsTheRecord(t *testing.T) {
	dir, cfg := settingsRun(t)
	writeVersion1(t, dir)
	f := cfg.Trainer.(fakeTrainer).Fit
	f.Hidden, f.Mirror = 16, false
	cfg.Trainer = fakeTrainer{NNUE{Fit: f}}
	cfg.Generations = 2
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	st, _, err := LoadState(dir)
	if err != nil || st.Version != stateVersion || st.Net == nil || *st.Net != cfg.NetSettings() || st.Net.Hidden != 16 || st.Generation != 2 {
		t.Fatalf("after the resume: %+v (net %+v), %v; want version %d recording %+v", st, st.Net, err, stateVersion, cfg.NetSettings())
	}
}

// writeVersion1 rewrites dir's state.json as a version-1 build wrote it:
// version 1, no net settings.
func writeVersion1(t *testing.T, dir string) {
	editStateFile(t, dir, func(m map[string]any) {
		delete(m, "net")
		m["version"] = 1
	})
}

// editStateFile rewrites dir's state.json with edit applied to its fields.
func editStateFile(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(StatePath(dir))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(StatePath(dir), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadStateVersions: versions 1 and 2 load, each with its own layout;
// others, and a layout that does not match its version, are errors naming
// the file.
func TestLoadStateVersions(t *testing.T) {
	const head = `"kind": "bomberzero-nnue-run", "variant": "gardner", "seed": 1, "games": 4, "chunk_games": 2, "nodes": 200, "generation": 0, "phase": "selfplay", "best": "", "best_generation": -1`
	const net = `, "net": {"hidden": 8, "l2": 4, "king_buckets": "2x2", "mirror": true, "lambda": 1, "epochs": 1, "batch": 256, "lr": 0.001, "window": 3, "max_positions": 100}`
	cases := []struct {
		name, body string
		want       string // "" loads
		hasNet     bool
	}{
		{"version 1", `"version": 1, ` + head, "", false},
		{"version 2", `"version": 2, ` + head + net, "", true},
		{"version 2 without net", `"version": 2, ` + head, "without the nets' settings", false},
		{"version 1 with net", `"version": 1, ` + head + net, "layout version 1 with the nets' settings", false},
		{"version 3", `"version": 3, ` + head + net, "layout version 3, this build reads 1 to 2", false},
		{"version 0", `"version": 0, ` + head, "layout version 0", false},
		{"unknown net field", `"version": 2, ` + head + `, "net": {"hiden": 8}`, "unknown field", false},
	}
	for _, c := range cases {
		dir := t.TempDir()
		if err := os.WriteFile(StatePath(dir), []byte("{"+c.body+"}"), 0o644); err != nil {
			t.Fatal(err)
		}
		st, ok, err := LoadState(dir)
		if c.want == "" {
			if err != nil || !ok || (st.Net != nil) != c.hasNet {
				t.Errorf("%s: %+v, %v, %v; want it loaded, net recorded %v", c.name, st, ok, err, c.hasNet)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), StatePath(dir)) {
			t.Errorf("%s: %v; want an error naming the file and %q", c.name, err, c.want)
		}
	}
}

func TestNetSettingsApplyRoundTrip(t *testing.T) {
	cases := []fit.Config{fit.DefaultConfig(), {Hidden: 8, L2: 4, Residual: true, KingBuckets: nnue.KingBuckets{Files: 3, Ranks: 2}, Mirror: true,
		Lambda: 0.5, Epochs: 2, Batch: 64, LearningRate: 2e-3, LearningRateFinal: 1e-4}}
	for _, fc := range cases {
		s := NewNetSettings(fc, 2, 1000)
		var got fit.Config
		if err := s.Apply(&got); err != nil {
			t.Fatal(err)
		}
		if back := NewNetSettings(got, 2, 1000); back != s {
			t.Errorf("%+v: applied and read back %+v", s, back)
		}
		if want, have := s.Diff(s); want != "" || have != "" {
			t.Errorf("%+v differs from itself: %q %q", s, want, have)
		}
	}
	if err := (NetSettings{KingBuckets: "3"}).Apply(&fit.Config{}); err == nil || !strings.Contains(err.Error(), "king buckets") {
		t.Errorf("bad king buckets: %v", err)
	}
}

// TestStateWithoutTableGetsTheRecord: a state written before the table was
// recorded resumes and records the resuming call's table.
func TestStateWithoutTableGetsTheRecord(t *testing.T) {
	dir, cfg := settingsRun(t)
	editStateFile(t, dir, func(m map[string]any) { delete(m, "table") })
	cfg.Generations = 2
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	st, _, err := LoadState(dir)
	if err != nil || !slices.Equal(st.Table, cfg.Table) || st.Generation != 2 {
		t.Fatalf("after the resume: table %v generation %d, %v; want %v recorded", st.Table, st.Generation, err, cfg.Table)
	}
}
