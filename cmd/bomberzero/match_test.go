package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"bomberzero/engine"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/match/external"
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

// TestMatchCommandStatesEachSidesCPUAndTheLoad checks the figures that go
// beside every strength figure: each side's CPU and wall ms a move with how
// CPU was measured, its plies, the games at once and the load, in the
// summary and in --json.
func TestMatchCommandStatesEachSidesCPUAndTheLoad(t *testing.T) {
	args := []string{"match", "--a", "alphabeta:2", "--b", "random", "--games", "2", "--max-plies", "20", "--workers", "1", "--games-dir", ""}
	code, out, errs := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, re := range []string{
		`\n  A alphabeta:2: CPU [0-9.]+ ms a move \(median [0-9.]+, p90 [0-9.]+; thread\), wall [0-9.]+ ms \(median [0-9.]+, p90 [0-9.]+\), 20 plies\n`,
		`\n  B random: CPU [0-9.]+ ms a move .*; thread\), .*, 20 plies\n`,
		`games at once: 1`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("output lacks %s:\n%s", re, out)
		}
	}
	if runtime.GOOS == "linux" && !regexp.MustCompile(`load average [0-9.]+, [0-9.]+, [0-9.]+ at the start, [0-9.]+, [0-9.]+, [0-9.]+ at the end`).MatchString(out) {
		t.Errorf("output lacks the load average:\n%s", out)
	}
	code, out, errs = runCmd(t, append(args, "--json")...)
	var r match.Result
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("--json: exit %d, %s: %s", code, errs, out)
	}
	if r.ATimes.Plies != 20 || r.ATimes.Meter != "thread" || r.ATimes.CPUPlies != 20 || r.ATimes.CPUMeanMS <= 0 || r.BTimes.Plies != 20 || r.Workers != 1 {
		t.Errorf("--json: A %+v, B %+v, %d workers", r.ATimes, r.BTimes, r.Workers)
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
	// Each row states both sides' CPU ms a move; the table's foot how
	// they were measured.
	cells := regexp.MustCompile(`\| [0-9.]+ \([0-9.]+\), wall [0-9.]+, [1-9][0-9]* plies \| [0-9.]+ \([0-9.]+\), wall [0-9.]+, [1-9][0-9]* plies \|`).FindAllString(out, -1)
	if len(cells) != 2 || !strings.Contains(out, "CPU measured by: greedy thread, random thread, alphabeta:1 thread") {
		t.Errorf("want each row's CPU ms a move and how they were measured:\n%s", out)
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

// TestMatchHelpListsEverySpecKey holds the players' help to the spec
// parsers: every key engine.ParseSpec names in its own error for an
// unknown key, and every key of an outside engine's spec (external.Keys),
// appears in "match --help" as KEY=.
func TestMatchHelpListsEverySpecKey(t *testing.T) {
	_, err := engine.ParseSpec("no-such-key=1")
	if err == nil {
		t.Fatal("engine.ParseSpec took an unknown key")
	}
	_, want, ok := strings.Cut(err.Error(), "want ")
	engineKeys := regexp.MustCompile(`([a-z]+)=`).FindAllStringSubmatch(want, -1)
	if !ok || len(engineKeys) < 5 {
		t.Fatalf("engine.ParseSpec's error %q lists no keys", err)
	}
	code, help, _ := runCmd(t, "match", "--help")
	if code != 0 {
		t.Fatalf("match --help: exit %d", code)
	}
	var keys []string
	for _, k := range engineKeys {
		keys = append(keys, "engine "+k[1])
	}
	for _, k := range external.Keys() {
		keys = append(keys, "uci "+k)
	}
	for _, k := range keys {
		kind, key, _ := strings.Cut(k, " ")
		// The engine's keys sit in the help's engine part, the outside
		// engine's in its uci part.
		part := help[strings.Index(help, "engine["):strings.Index(help, "uci:")]
		if kind == "uci" {
			part = help[strings.Index(help, "uci:"):]
		}
		if !strings.Contains(part, key+"=") {
			t.Errorf("match --help does not list the %s player's key %s=:\n%s", kind, key, help)
		}
	}
}
