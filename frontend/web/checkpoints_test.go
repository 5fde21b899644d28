package web

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/nn"
)

// smallCheckpoint is the file form of a fresh 2-block, 8-filter network for
// variant name, saved by nn as training saves its checkpoints.
func smallCheckpoint(t *testing.T, name string) []byte {
	t.Helper()
	v, err := env.LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	s := agent.NewRules(v, 0).Shape()
	cfg := nn.TestConfig(s.Channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width))
	cfg.Blocks, cfg.Filters = 2, 8
	net, err := nn.New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := nn.NewTrainer(net, nn.DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "c.safetensors")
	if err := tr.Save(p, name); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGenerationOfReadsGenNNNN(t *testing.T) {
	for _, c := range []struct {
		name string
		gen  int
		ok   bool
	}{
		{"r1/checkpoints/gen-0003.safetensors", 3, true},
		{"r1/nets/gen-0012.nnue", 12, true},
		{"gen-0000.safetensors", 0, true},
		{"models/fbgc.safetensors", 0, false},
		{"r1/checkpoints/step-00000100.safetensors", 0, false},
		{"gen-.nnue", 0, false},
		{"gen-x1.nnue", 0, false},
		{"gen--1.nnue", 0, false},
		{"gen-0003/fbgc.nnue", 0, false},
	} {
		if g, ok := generationOf(c.name); g != c.gen || ok != c.ok {
			t.Errorf("%s: %d %v, want %d %v", c.name, g, ok, c.gen, c.ok)
		}
	}
}

// checkpointFixture is a server whose --models holds an fbgc checkpoint, a
// chess one in a subfolder, one cut short and a file that is none, and
// whose run r1 holds a generation's checkpoint, a run's nets (bomberzero
// nnue's layout, RUN/nets/gen-KKKK.nnue) and a broken net.
func checkpointFixture(t *testing.T) fixture {
	t.Helper()
	models := t.TempDir()
	fbgc := smallCheckpoint(t, "fbgc")
	f := newFixture(t, Config{Models: models, MaxTime: 5 * time.Second})
	for name, data := range map[string][]byte{
		filepath.Join(models, "fbgc.safetensors"):                          fbgc,
		filepath.Join(models, "more", "chess.safetensors"):                 smallCheckpoint(t, "chess"),
		filepath.Join(models, "cut.safetensors"):                           fbgc[:len(fbgc)/2],
		filepath.Join(models, "junk.safetensors"):                          []byte("junk"),
		filepath.Join(f.runs, "r1", "checkpoints", "gen-0002.safetensors"): fbgc,
		filepath.Join(f.runs, "r1", "nets", "gen-0003.nnue"):               smallNet(t, "fbgc"),
		filepath.Join(f.runs, "r1", "nets", "broken.nnue"):                 []byte("broken"),
		filepath.Join(f.runs, "r1", "data", "gen-0001", "x.nnue"):          []byte("not a run's net"),
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestPlayersLabelEachCheckpointWithItsVariantAndListTheRunsNets(t *testing.T) {
	f := checkpointFixture(t)
	var ps struct {
		Models  []ModelInfo
		Engines []EngineInfo
	}
	if code, msg := call(t, "GET", f.url+"/api/players", "", &ps); code != 200 {
		t.Fatal(code, msg)
	}
	models := map[string]ModelInfo{}
	for _, m := range ps.Models {
		models[m.Name] = m
	}
	gen2 := 2
	for _, c := range []struct {
		name, variant, label, err string
		gen                       *int
	}{
		{"models/fbgc.safetensors", "fbgc", "network models/fbgc.safetensors (fbgc, 2 blocks x 8 filters, step 0)", "", nil},
		{"models/more/chess.safetensors", "chess", "network models/more/chess.safetensors (chess, 2 blocks x 8 filters, step 0)", "", nil},
		{"models/cut.safetensors", "", "network models/cut.safetensors: damaged", "checkpoint models/cut.safetensors: checkpoint truncated: tensor", nil},
		{"models/junk.safetensors", "", "network models/junk.safetensors: damaged", "checkpoint models/junk.safetensors: checkpoint truncated: 4 bytes", nil},
		{"runs/r1/checkpoints/gen-0002.safetensors", "fbgc", "network runs/r1/checkpoints/gen-0002.safetensors (fbgc, 2 blocks x 8 filters, generation 2, step 0)", "", &gen2},
	} {
		m, ok := models[c.name]
		if !ok || m.Variant != c.variant || m.Label != c.label || !strings.HasPrefix(m.Error, c.err) || (c.err == "") != (m.Error == "") ||
			(m.Generation == nil) != (c.gen == nil) || c.gen != nil && *m.Generation != *c.gen || c.err == "" && (m.Blocks != 2 || m.Filters != 8) {
			t.Errorf("%s: %+v (listed %v); want variant %q, label %q, error %q, generation %v", c.name, m, ok, c.variant, c.label, c.err, c.gen)
		}
	}
	if len(ps.Models) != 5 {
		t.Errorf("models %+v: want the 5 checkpoints", ps.Models)
	}
	engines := map[string]EngineInfo{}
	for _, e := range ps.Engines {
		engines[e.Spec] = e
	}
	for _, c := range []struct{ spec, variant, label, err string }{
		{"engine:eval=runs/r1/nets/gen-0003.nnue", "fbgc", "engine, net runs/r1/nets/gen-0003.nnue (learned, fbgc, 8x4, generation 3)", ""},
		{"engine:eval=runs/r1/nets/broken.nnue", "", "engine, net runs/r1/nets/broken.nnue: damaged", "net file runs/r1/nets/broken.nnue: not a bomberzero net file"},
	} {
		e, ok := engines[c.spec]
		if !ok || e.Variant != c.variant || e.Label != c.label || e.Net != strings.TrimPrefix(c.spec, "engine:eval=") || !strings.HasPrefix(e.Error, c.err) || (c.err == "") != (e.Error == "") {
			t.Errorf("%s: %+v (listed %v); want variant %q, label %q, error %q", c.spec, e, ok, c.variant, c.label, c.err)
		}
	}
	if _, ok := engines["engine:eval=runs/r1/data/gen-0001/x.nnue"]; ok || len(ps.Engines) != 3 {
		t.Errorf("engines %+v: want the classical engine and the run's 2 nets (not a file outside RUN/nets)", ps.Engines)
	}

	// What is listed plays in its variant, and is refused in another
	// naming both.
	var out agentReply
	for _, body := range []string{
		`{"variant":"fbgc","player":"models/fbgc.safetensors:8"}`,
		`{"variant":"chess","player":"models/more/chess.safetensors:8"}`,
		`{"variant":"fbgc","player":"runs/r1/checkpoints/gen-0002.safetensors:8"}`,
		`{"variant":"fbgc","player":"engine:nodes=500:eval=runs/r1/nets/gen-0003.nnue"}`,
	} {
		if code, msg := call(t, "POST", f.url+"/api/agent", body, &out); code != 200 || out.Move.Text == "" {
			t.Errorf("%s: %d %s", body, code, msg)
		}
	}
	for _, c := range []struct {
		body string
		code int
		says []string
	}{
		{`{"variant":"chess","player":"models/fbgc.safetensors:8"}`, 400, []string{"models/fbgc.safetensors", `"fbgc"`, `"chess"`}},
		{`{"variant":"chess","player":"engine:eval=runs/r1/nets/gen-0003.nnue"}`, 400, []string{"runs/r1/nets/gen-0003.nnue", "variant fbgc", "chess"}},
		{`{"variant":"fbgc","player":"models/cut.safetensors:8"}`, 400, []string{"models/cut.safetensors", "truncated"}},
	} {
		code, msg := call(t, "POST", f.url+"/api/agent", c.body, nil)
		ok := code == c.code
		for _, s := range c.says {
			ok = ok && strings.Contains(msg, s)
		}
		if !ok {
			t.Errorf("%s: %d %q, want %d saying %q", c.body, code, msg, c.code, c.says)
		}
	}
}

// TestTheShippedCheckpointsAreListedWithTheirVariant: serve --models models
// lists every shipped checkpoint with the variant and size nn reads from
// the whole file.
func TestTheShippedCheckpointsAreListedWithTheirVariant(t *testing.T) {
	dir := filepath.Join("..", "..", "models")
	files, err := filepath.Glob(filepath.Join(dir, "*.safetensors"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped checkpoint in %s (%v)", dir, err)
	}
	f := newFixture(t, Config{Models: dir})
	var ps struct{ Models []ModelInfo }
	call(t, "GET", f.url+"/api/players", "", &ps)
	for _, p := range files {
		ck, err := nn.ReadCheckpoint(p)
		if err != nil {
			t.Fatal(err)
		}
		name := "models/" + filepath.Base(p)
		want := fmt.Sprintf("network %s (%s, %d blocks x %d filters, step %d)", name, ck.Variant, ck.Config.Blocks, ck.Config.Filters, ck.Step)
		found := false
		for _, m := range ps.Models {
			if m.Name == name {
				found = true
				if m.Variant != ck.Variant || m.Error != "" || m.Label != want {
					t.Errorf("%s listed as %+v; want %q, no error", name, m, want)
				}
			}
		}
		if !found {
			t.Errorf("%s is not listed: %+v", name, ps.Models)
		}
	}
}
