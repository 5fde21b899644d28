package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/setup"
)

func TestMatchCommandReportsPerColourAndJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"match", "--a", "alphabeta:1", "--b", "random", "--games", "4", "--max-plies", "300", "--workers", "2"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"alphabeta:1 (A) vs random (B) on fbgc, 4 games", "A with White: +", "A with Black: +", "Elo A-B:", "LOS"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	code = run([]string{"match", "--a", "random", "--b", "greedy", "--games", "3", "--max-plies", "10", "--json", "--sprt", "0,10,0.05,0.05"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r match.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if r.A != "random" || r.B != "greedy" || r.AWhite.Games() != 2 || r.ABlack.Games() != 1 || r.Reasons[env.LengthCap] != 3 || r.Decision != "continue" {
		t.Fatalf("json result %+v", r)
	}
}

func TestMatchCommandRejectsBadSpecsWithUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"match", "--a", "alphabta:2", "--b", "random"},
		{"match", "--a", "random"},
		{"match", "--a", "random", "--b", "random", "--sprt", "1,2"},
		{"match", "--a", "random", "--b", "random", "--games", "0"},
		{"match", "--a", "greedy", "--b", "random", "--values", "x"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestMatchCommandsReadTheConfigsMatchKnobs checks that the match commands
// take their playouts and ply cap from the config keys eval.sims and
// eval.max_plies (--set, --config, the flags named after them) and refuse
// an unknown key by name.
func TestMatchCommandsReadTheConfigsMatchKnobs(t *testing.T) {
	def, err := setup.DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(t.TempDir(), "knobs.toml")
	if err := os.WriteFile(cfgFile, []byte("[eval]\nsims = 5\nmax_plies = 6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args      []string
		name      string
		maxLength float64
	}{
		{nil, fmt.Sprintf("material:%d", def.Eval.Sims), float64(def.Eval.MaxPlies)},
		{[]string{"--set", "eval.sims=7", "--set", "eval.max_plies=8"}, "material:7", 8},
		{[]string{"--config", cfgFile}, "material:5", 6},
		{[]string{"--config", cfgFile, "--set", "eval.sims=9", "--max-plies", "4"}, "material:9", 4},
		{[]string{"--sims", "3", "--set", "eval.sims=9"}, "material:3", float64(def.Eval.MaxPlies)},
	}
	for _, c := range cases {
		args := append([]string{"match", "--a", "material", "--b", "random", "--games", "2", "--workers", "1", "--json"}, c.args...)
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errb.String())
		}
		var r match.Result
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%v: %v:\n%s", c.args, err, out.String())
		}
		if r.A != c.name || r.MeanPlies > c.maxLength {
			t.Errorf("%v: player %q, mean length %.1f; want %q and at most %v plies", c.args, r.A, r.MeanPlies, c.name, c.maxLength)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"match", "--a", "random", "--b", "random", "--set", "nope=1"}, "nope"},
		{[]string{"match", "--a", "random", "--b", "random", "--set", "eval.sims=0"}, "eval.sims"},
		{[]string{"match", "--a", "random", "--b", "random", "--max-plies", "0"}, "eval.max_plies"},
		{[]string{"imbalance", "--white-without", "Q", "--black-without", "Q", "--set", "eval.nope=1"}, "eval.nope"},
		{[]string{"analyse", "--set", "nope=1"}, "nope"},
		{[]string{"play", "--set", "nope=1"}, "nope"},
		{[]string{"compare", "--variants", "fbgc,chess", "--out", t.TempDir(), "--set", "nope=1"}, "nope"},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and an error naming %q", c.args, code, errb.String(), c.want)
		}
	}
}

func TestLadderPlaysEachAnchorAndPrintsOneTable(t *testing.T) {
	code, out, errs := runCmd(t, "ladder", "--model", "greedy", "--anchors", "random,alphabeta:1", "--games", "4", "--max-plies", "40", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| random |") || strings.HasPrefix(line, "| alphabeta:1 |") {
			rows++
		}
	}
	if rows != 2 || !strings.Contains(out, "greedy on fbgc: 4 games an anchor") {
		t.Errorf("want a table with one row per anchor:\n%s", out)
	}
	code, out, errs = runCmd(t, "ladder", "--model", "greedy", "--anchors", "random", "--games", "2", "--max-plies", "20", "--json", "--quiet")
	var got []struct {
		Anchor string `json:"anchor"`
		Result struct {
			Total struct{ Wins, Draws, Losses int } `json:"total"`
		} `json:"result"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || len(got) != 1 || got[0].Anchor != "random" ||
		got[0].Result.Total.Wins+got[0].Result.Total.Draws+got[0].Result.Total.Losses != 2 {
		t.Errorf("--json: exit %d, %q, %s", code, errs, out)
	}
	for _, bad := range [][]string{{"ladder"}, {"ladder", "--model", "greedy", "--anchors", "nosuch"}, {"ladder", "--model", "greedy", "--games", "0"}} {
		if code, _, _ := runCmd(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}
