package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bomberzero/engine"
	"bomberzero/engine/nnue"
	"bomberzero/env"
	"bomberzero/frontend"
)

func TestAnalyseFindsTheMateInOneAsAProvenWin(t *testing.T) {
	// White's rook mates on e10 (playMateIn1): at any playout count, with
	// PUCT and Gumbel and any network-free model, best is the mate, the
	// value +1 and proven, the PV starts with it, and the top list puts
	// it first.
	for _, args := range [][]string{
		{"--model", "uniform:1"},
		{"--model", "material:2", "--gumbel"},
		{"--model", "none:64"},
		{"--model", "rollout:8", "--gumbel"},
	} {
		var out, errb bytes.Buffer
		all := append([]string{"--fen", playMateIn1, "--json"}, args...)
		if code := run(append([]string{"analyse"}, all...), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		var rep struct {
			Best   string   `json:"best"`
			Value  *float64 `json:"value"`
			Proven bool     `json:"proven"`
			PV     []string `json:"pv"`
			Top    []struct {
				Move   string   `json:"move"`
				Visits *int     `json:"visits"`
				Prior  *float64 `json:"prior"`
				Q      *float64 `json:"q"`
			} `json:"top"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
		if rep.Best != "e1-e10" || rep.Value == nil || *rep.Value != 1 || !rep.Proven {
			t.Errorf("%v: best %q value %v proven %v, want the mate e1-e10, +1, proven", args, rep.Best, rep.Value, rep.Proven)
		}
		if len(rep.PV) == 0 || rep.PV[0] != rep.Best {
			t.Errorf("%v: PV %v does not start with the best move", args, rep.PV)
		}
		if len(rep.Top) == 0 || rep.Top[0].Move != "e1-e10" {
			t.Fatalf("%v: top %+v, want the mate first", args, rep.Top)
		}
		for _, m := range rep.Top {
			if m.Visits == nil || m.Prior == nil || *m.Prior < 0 || *m.Prior > 1 || (m.Q != nil && (*m.Q < -1 || *m.Q > 1)) {
				t.Errorf("%v: top entry %+v: want visits, a prior in [0, 1] and q in [-1, 1] or null", args, m)
			}
		}
	}
}

func TestAnalyseWithoutTheSolverCanMissTheMate(t *testing.T) {
	// The control: the same position at one playout without the solver
	// plays whatever the uniform prior's tie-break gives, not a proven win.
	var out, errb bytes.Buffer
	if code := run([]string{"analyse", "--fen", playMateIn1, "--model", "uniform:1", "--solver=false", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.Contains(out.String(), `"proven":true`) && strings.Contains(out.String(), `"best":"e1-e10","value":1`) {
		t.Errorf("without the solver the search still proved the mate:\n%s", out.String())
	}
}

func TestAnalyseTextOutputNamesBestValueAndPV(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"analyse", "--model", "material:30", "--top", "3"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := out.String()
	for _, want := range []string{"model material:30, 30 playouts", "best ", "value ", "pv ", "visits"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "\n"); n != 5+3 {
		t.Errorf("%d lines, want 5 header lines and 3 moves:\n%s", n, s)
	}
}

func TestAnalyseRejectsBadInputWithExitTwo(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"malformed fen", []string{"--fen", "k9/pp8 x"}, "--fen"},
		{"unknown variant", []string{"--variant", "nosuchvariant"}, "nosuchvariant"},
		{"bad sims", []string{"--model", "uniform:0"}, "playouts"},
		{"bad sims text", []string{"--model", "uniform:many"}, "playouts"},
		{"missing checkpoint", []string{"--model", "no/such.safetensors:5"}, "no such checkpoint"},
		{"illegal move", []string{"--moves", "a1-a9"}, "a1-a9"},
		{"game over", []string{"--fen", "k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1", "--moves", "e1-e10"}, "over"},
		{"stray argument", []string{"extra"}, "usage"},
		{"no model name", []string{"--model", ":5"}, "empty"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"analyse"}, c.args...), &out, &errb); code != 2 {
			t.Errorf("%s: exit %d, want 2 (stderr %q)", c.name, code, errb.String())
		}
		if !strings.Contains(errb.String(), c.want) {
			t.Errorf("%s: error %q does not mention %q", c.name, errb.String(), c.want)
		}
	}
}

func TestAnalyseWithTheEngineListsItsBestLinesWithScores(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"analyse", "--fen", playMateIn1, "--model", "engine:depth=3", "--top", "3", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep struct {
		Best, Score string
		Value       float64
		Proven      bool
		Depth       int
		Top         []struct {
			Move, Score string
			PV          []string
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if rep.Best != "e1-e10" || rep.Score != "mate 1" || rep.Value != 1 || !rep.Proven || rep.Depth != 3 {
		t.Errorf("%+v: want the mate e1-e10 scored mate 1 at depth 3", rep)
	}
	if len(rep.Top) != 3 || rep.Top[0].Move == rep.Top[1].Move || rep.Top[1].Move == rep.Top[2].Move || rep.Top[0].Move == rep.Top[2].Move {
		t.Errorf("top %+v, want 3 lines with distinct first moves", rep.Top)
	}
	for _, m := range rep.Top {
		if !strings.HasPrefix(m.Score, "cp ") && !strings.HasPrefix(m.Score, "mate ") || len(m.PV) == 0 || m.PV[0] != m.Move {
			t.Errorf("line %+v: want a score and a pv starting with its move", m)
		}
	}

	// The engine is the default model; the text lists --top lines.
	out.Reset()
	if code := run([]string{"analyse", "--model", "engine:nodes=20000", "--top", "2"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "model engine:nodes=20000, depth ") || strings.Count(s, "\n") != 5+2 || !strings.Contains(s, "score") {
		t.Errorf("text output:\n%s", s)
	}
	for _, c := range []struct{ args []string }{{[]string{"--model", "engine:depth=0"}}, {[]string{"--model", "engine:hash=0"}}, {[]string{"--model", "engine:colour=red"}}, {[]string{"--top", "1000"}}} {
		errb.Reset()
		if code := run(append([]string{"analyse"}, c.args...), &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", c.args, code, errb.String())
		}
	}
}

// analyse --model engine:eval=FILE searches with the learned net; a net of
// another variant is refused naming the file and both variants.
func TestAnalyseWithALearnedNet(t *testing.T) {
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	net := filepath.Join(t.TempDir(), "fbgc.nnue")
	if err := nnue.WriteFile(net, nnue.NewNet(nnue.NewFeatureSet(v), 8, 4, 1)); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"analyse", "--fen", playMateIn1, "--model", "engine:depth=2:eval=" + net}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "e1-e10") {
		t.Errorf("the mate in one with a learned net:\n%s", out.String())
	}
	errb.Reset()
	code := run([]string{"analyse", "--variant", "chess", "--model", "engine:depth=2:eval=" + net}, &out, &errb)
	if e := errb.String(); code == 0 || !strings.Contains(e, net) || !strings.Contains(e, "fbgc") || !strings.Contains(e, "chess") {
		t.Errorf("a fbgc net on chess: exit %d, %s; want an error naming the file and both variants", code, e)
	}
}

// TestAnalyseDefaultsToTheEngine runs analyse with no --model: the issue
// found it searching with material:400; the strongest player the project
// ships is the alpha-beta engine, and it finds the mate.
func TestAnalyseDefaultsToTheEngine(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"analyse", "--fen", playMateIn1}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "model engine, depth ") || !strings.Contains(s, "best e1-e10, mate 1") {
		t.Errorf("analyse without --model:\n%s", s)
	}
}

// TestAnalyseSpecReadsTheLimitFromTheOptionsNotTheText: analyse searches
// DefaultAnalysisNodes nodes unless the spec names a limit, and a limit is a
// depth, nodes or movetime key. The review found a net's path holding
// "nodes=" (eval=/data/nodes=3/fbgc.nnue) taken for a limit, which left
// ParseSpec's 20,000 nodes in place of the analysis's default.
func TestAnalyseSpecReadsTheLimitFromTheOptionsNotTheText(t *testing.T) {
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "nodes=3", "depth=2", "movetime=1s")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	net := filepath.Join(dir, "fbgc.nnue")
	if err := nnue.WriteFile(net, nnue.NewNet(nnue.NewFeatureSet(v), 8, 4, 1)); err != nil {
		t.Fatal(err)
	}
	def := engine.Limits{Nodes: frontend.DefaultAnalysisNodes}
	for _, c := range []struct {
		spec string
		want engine.Limits
		net  bool
	}{
		{"", def, false},
		{"hash=8", def, false},
		{"eval=" + net, def, true},
		{"eval=" + net + ":hash=8", def, true},
		{"depth=4", engine.Limits{Depth: 4}, false},
		{"nodes=5000", engine.Limits{Nodes: 5000}, false},
		{"nodes=20000", engine.Limits{Nodes: 20000}, false}, // ParseSpec's default, given: kept
		{"movetime=100ms", engine.Limits{MoveTime: 100 * time.Millisecond}, false},
		{"eval=" + net + ":depth=5", engine.Limits{Depth: 5}, true},
		{" nodes=700 :eval=" + net, engine.Limits{Nodes: 700}, true},
	} {
		es, err := analyseSpec(c.spec)
		if err != nil {
			t.Errorf("%q: %v", c.spec, err)
			continue
		}
		if es.Limits != c.want || (es.Net != nil) != c.net {
			t.Errorf("%q: limits %+v, a net %v; want %+v, a net %v", c.spec, es.Limits, es.Net != nil, c.want, c.net)
		}
	}
	if _, err := analyseSpec("eval=" + net + ":nodes=0"); err == nil || !strings.Contains(err.Error(), "nodes") {
		t.Errorf("nodes=0: %v, want ParseSpec's error naming nodes", err)
	}
}
