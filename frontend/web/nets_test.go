package web

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bomberzero/agent"
	"bomberzero/engine/nnue"
	"bomberzero/env"
)

// smallNet is the file form of a small net for variant name that counts
// material (nnue.Net.SetMaterial), so that it plays sensibly.
func smallNet(t *testing.T, name string) []byte {
	t.Helper()
	return smallNetWith(t, name, nnue.Options{})
}

// smallNetWith is smallNet over the feature set with options o.
func smallNetWith(t *testing.T, name string, o nnue.Options) []byte {
	t.Helper()
	v, err := env.LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := nnue.NewFeatureSetWith(v, o)
	if err != nil {
		t.Fatal(err)
	}
	n := nnue.NewNet(fs, 8, 4, 1)
	table, err := agent.DefaultValues().Table(v)
	if err != nil {
		t.Fatal(err)
	}
	n.SetMaterial(fs, table)
	b, err := nnue.Encode(n)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// netFixture is a server whose --models holds a net for fbgc, a
// file-mirrored one with king buckets, one for chess, a net whose weights
// are damaged (its header reads), a file that is no net and a file named as
// a checkpoint that is none.
func netFixture(t *testing.T) fixture {
	t.Helper()
	models := t.TempDir()
	damaged := smallNet(t, "fbgc")
	damaged[len(damaged)-100] ^= 0xff // a weight: the header reads, the checksum fails
	for name, data := range map[string][]byte{
		"fbgc.nnue":          smallNet(t, "fbgc"),
		"more/chess.nnue":    smallNet(t, "chess"),
		"mirrored.nnue":      smallNetWith(t, "fbgc", nnue.Options{Kings: nnue.KingBuckets{Files: 2, Ranks: 2}, Mirror: true}),
		"damaged.nnue":       damaged,
		"garbage.nnue":       []byte("not a net at all"),
		"fbgc.safetensors":   []byte("not a checkpoint: listed unplayable"),
		"notes/fbgc.nnue.md": []byte("a card"),
	} {
		p := filepath.Join(models, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return newFixture(t, Config{Models: models, MaxTime: 5 * time.Second})
}

func TestPlayersOfferTheEngineWithEveryNetOfModels(t *testing.T) {
	f := netFixture(t)
	var ps struct {
		Engines []EngineInfo
		Models  []ModelInfo
	}
	if code, msg := call(t, "GET", f.url+"/api/players", "", &ps); code != 200 {
		t.Fatal(code, msg)
	}
	got := map[string]EngineInfo{}
	for _, e := range ps.Engines {
		got[e.Spec] = e
	}
	if len(ps.Engines) != 6 || ps.Engines[0].Spec != "engine" || ps.Engines[0].Variant != "" || !strings.Contains(ps.Engines[0].Label, "classical") {
		t.Fatalf("engines %+v: want the classical engine first, then 5 nets", ps.Engines)
	}
	for _, c := range []struct {
		spec, variant, label, err string
	}{
		{"engine:eval=models/fbgc.nnue", "fbgc", "net models/fbgc.nnue (learned, fbgc, 8x4)", ""},
		{"engine:eval=models/more/chess.nnue", "chess", "net models/more/chess.nnue (learned, chess, 8x4)", ""},
		{"engine:eval=models/mirrored.nnue", "fbgc", "net models/mirrored.nnue (learned, king buckets 2x2, file-mirrored, fbgc, 8x4)", ""},
		{"engine:eval=models/damaged.nnue", "fbgc", "net models/damaged.nnue", ""}, // its header reads: found at use
		{"engine:eval=models/garbage.nnue", "", "damaged", "net file models/garbage.nnue: not a bomberzero net file"},
	} {
		e, ok := got[c.spec]
		if !ok || e.Variant != c.variant || !strings.Contains(e.Label, c.label) || !strings.HasPrefix(e.Error, c.err) || (c.err == "") != (e.Error == "") {
			t.Errorf("%s: %+v (listed %v); want variant %q, a label with %q, error %q", c.spec, e, ok, c.variant, c.label, c.err)
		}
	}
	for _, m := range ps.Models {
		if strings.HasSuffix(m.Name, ".nnue") {
			t.Errorf("models list the net %q: nets are engines' evaluations, not search models", m.Name)
		}
	}
}

func TestTheEngineWithANetAnalysesPlaysAndRefusesBadNets(t *testing.T) {
	f := netFixture(t)
	mate := `"start":"k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1"`
	var rep analyseReply
	if code, msg := call(t, "POST", f.url+"/api/analyse", `{"variant":"fbgc",`+mate+`,"model":"engine:eval=models/fbgc.nnue","top":3,"movetime_ms":300}`, &rep); code != 200 {
		t.Fatal(code, msg)
	}
	if rep.Best != "e1-e10" || rep.Score != "mate 1" || rep.Model != "engine:eval=models/fbgc.nnue" || len(rep.Top) != 3 || len(rep.Top[1].PV) == 0 || rep.Top[1].Score == "" {
		t.Errorf("the net's analysis of a mate in one: %+v, want e1-e10, mate 1, 3 lines with scores, the model named", rep.Report)
	}
	// The spec's own limit, without movetime_ms.
	if code, msg := call(t, "POST", f.url+"/api/analyse", `{"variant":"fbgc","model":"engine:depth=2:eval=models/fbgc.nnue","top":2}`, &rep); code != 200 || rep.Depth != 2 || len(rep.Top) != 2 {
		t.Errorf("depth 2 with the net: %d %s, depth %d, %d lines", code, msg, rep.Depth, len(rep.Top))
	}
	for _, player := range []string{"engine:nodes=3000:eval=models/fbgc.nnue", "engine:movetime=50ms", "engine"} {
		var out agentReply
		if code, msg := call(t, "POST", f.url+"/api/agent", fmt.Sprintf(`{"variant":"fbgc","moves":["e2-e4"],"player":%q}`, player), &out); code != 200 {
			t.Fatalf("%s: %d %s", player, code, msg)
		}
		v, _ := env.LoadVariant("fbgc")
		if _, err := env.PlayMoves(v.NewPosition(), "e2-e4 "+out.Move.Text); err != nil || len(out.State.Moves) != 2 {
			t.Errorf("%s played %q: %v", player, out.Move.Text, err)
		}
	}
	if code, msg := call(t, "POST", f.url+"/api/analyse", `{"variant":"chess","model":"engine:eval=models/more/chess.nnue","movetime_ms":100}`, &rep); code != 200 || rep.Best == "" {
		t.Errorf("the chess net on chess: %d %s %+v", code, msg, rep.Report)
	}
	for _, c := range []struct {
		path, body string
		code       int
		says       []string
	}{
		{"/api/analyse", `{"variant":"chess","model":"engine:eval=models/fbgc.nnue"}`, 400, []string{"models/fbgc.nnue", "variant fbgc", "chess"}},
		{"/api/agent", `{"variant":"fbgc","player":"engine:eval=models/more/chess.nnue"}`, 400, []string{"variant chess", "fbgc"}},
		{"/api/analyse", `{"model":"engine:eval=models/damaged.nnue"}`, 422, []string{"models/damaged.nnue", "damaged: checksum mismatch"}},
		{"/api/agent", `{"player":"engine:eval=models/garbage.nnue"}`, 422, []string{"models/garbage.nnue", "not a bomberzero net file"}},
		{"/api/analyse", `{"model":"engine:eval=models/nosuch.nnue"}`, 404, []string{"models/nosuch.nnue", "--models"}},
		{"/api/analyse", `{"model":"engine:eval=models/../../secret.txt"}`, 400, []string{"path"}},
		{"/api/analyse", `{"model":"engine:eval=/etc/passwd"}`, 400, []string{"eval=/etc/passwd", "models/PATH"}},
		{"/api/analyse", `{"model":"engine:eval=models/more"}`, 404, []string{"no such net file"}},
		{"/api/analyse", `{"model":"engine:hash=4096"}`, 400, []string{"hash", "not taken"}},
		{"/api/agent", `{"player":"engine:weights=w.json"}`, 400, []string{"weights", "not taken"}},
		{"/api/analyse", `{"model":"engine:eval=models/fbgc.nnue:eval=classical"}`, 400, []string{"given twice"}},
		{"/api/analyse", `{"model":"engine:colour=blue"}`, 400, []string{"unknown key", "colour"}},
		{"/api/agent", `{"player":"engine:nodes=0"}`, 400, []string{"nodes", "want a whole number"}},
	} {
		code, msg := call(t, "POST", f.url+c.path, c.body, nil)
		ok := code == c.code
		for _, s := range c.says {
			ok = ok && strings.Contains(msg, s)
		}
		if !ok {
			t.Errorf("%s %s: %d %q, want %d saying %q", c.path, c.body, code, msg, c.code, c.says)
		}
	}
}

// TestTheShippedNetsAreOffered is the case: serve --models models
// lists every shipped net with its variant, and the fbgc net plays.
func TestTheShippedNetsAreOffered(t *testing.T) {
	models := filepath.Join("..", "..", "models")
	nets, err := filepath.Glob(filepath.Join(models, "*.nnue"))
	if err != nil || len(nets) == 0 {
		t.Fatalf("no shipped net in %s (%v)", models, err)
	}
	f := newFixture(t, Config{Models: models})
	var ps struct{ Engines []EngineInfo }
	call(t, "GET", f.url+"/api/players", "", &ps)
	for _, p := range nets {
		name := "models/" + filepath.Base(p)
		n, err := nnue.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range ps.Engines {
			if e.Net == name {
				found = true
				if e.Variant != n.Variant || e.Error != "" || e.Spec != "engine:eval="+name {
					t.Errorf("%s listed as %+v; want variant %s, no error", name, e, n.Variant)
				}
			}
		}
		if !found {
			t.Errorf("%s is not offered: %+v", name, ps.Engines)
		}
	}
	var out agentReply
	if code, msg := call(t, "POST", f.url+"/api/agent", `{"variant":"fbgc","player":"engine:nodes=2000:eval=models/fbgc.nnue"}`, &out); code != 200 || out.Move.Text == "" {
		t.Errorf("the shipped fbgc net: %d %s", code, msg)
	}
}
