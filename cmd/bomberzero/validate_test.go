package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagsRefuseIssue16Values runs each command line of issue 16 finding 8
// that was silently accepted (a negative budget or generation count, NaN
// for a number flag) and checks that it now exits 2 before doing any work,
// with a message naming the flag; every float flag of every command is
// covered by the same check, so a few other commands' float flags are
// tried too.
func TestFlagsRefuseIssue16Values(t *testing.T) {
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--budget", "-5s", "--run", filepath.Join(out, "r1")}, "--budget -5s"},
		{[]string{"train", "--generations", "-1", "--run", filepath.Join(out, "r2")}, "--generations -1"},
		{[]string{"train", "--set", "train.value_mix=nan", "--run", filepath.Join(out, "r3")}, "train.value_mix = NaN"},
		{[]string{"train", "--set", "seed=-1", "--run", filepath.Join(out, "r4")}, "seed = -1"},
		{[]string{"selfplay", "--temp", "NaN", "--out", filepath.Join(out, "s1")}, "--temp NaN"},
		{[]string{"selfplay", "--cheap-share", "nan", "--out", filepath.Join(out, "s2")}, "--cheap-share NaN"},
		{[]string{"selfplay", "--resign-threshold", "NaN", "--out", filepath.Join(out, "s3")}, "--resign-threshold NaN"},
		{[]string{"selfplay", "--resign-off-share", "+Inf", "--out", filepath.Join(out, "s4")}, "--resign-off-share +Inf"},
		{[]string{"selfplay", "--set", "selfplay.temp=nan", "--out", filepath.Join(out, "s5")}, "temp = NaN"},
		{[]string{"selfplay", "--slots", "1000000", "--out", filepath.Join(out, "s6")}, "slots = 1000000"},
		{[]string{"selfplay", "--slots", "4096", "--workers", "1024", "--sims", "1000000", "--out", filepath.Join(out, "s7")}, "over the limit"},
		{[]string{"values", "--data", out, "--ridge", "NaN"}, "--ridge NaN"},
		{[]string{"imbalance", "--white-without", "Q", "--black-without", "Q", "--pawn-coef", "NaN"}, "--pawn-coef NaN"},
		{[]string{"bench", "nn", "--seconds", "Inf"}, "--seconds +Inf"},
		{[]string{"compare", "--variants", "fbgc,chess", "--out", filepath.Join(out, "c1"), "--budget", "-1m"}, "--budget -1m0s"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 naming %q", strings.Join(c.args, " "), code, stderr.String(), c.want)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) > 0 {
		t.Errorf("a refused command wrote %s", entries[0].Name())
	}
}

// TestTrainResumeSetChangesTheRunsConfig checks the repair path the
// resume errors suggest: "train --run DIR --set KEY=VALUE" on an existing
// run applies the key and saves it into the run's config.toml, and a bad
// value is refused naming the key, leaving the file as it was.
func TestTrainResumeSetChangesTheRunsConfig(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "tiny.toml")
	os.WriteFile(cfg, []byte(trainTinyConfig), 0o644)
	dir := filepath.Join(t.TempDir(), "run")
	var out, errb bytes.Buffer
	if code := run([]string{"train", "--config", cfg, "--run", dir, "--generations", "1", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"train", "--run", dir, "--generations", "1", "--quiet", "--set", "train.learning_rate=nan"}, &out, &errb); code == 0 ||
		!strings.Contains(errb.String(), "train.learning_rate = NaN") {
		t.Fatalf("a NaN rate on resume: exit %d, stderr %q", code, errb.String())
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "config.toml")); !strings.Contains(string(data), "learning_rate = 0.02") {
		t.Fatalf("a refused --set changed config.toml:\n%s", data)
	}
	errb.Reset()
	if code := run([]string{"train", "--run", dir, "--generations", "1", "--quiet", "--set", "train.learning_rate=0.005"}, &out, &errb); code != 0 {
		t.Fatalf("resume with --set: exit %d: %s", code, errb.String())
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "config.toml")); !strings.Contains(string(data), "learning_rate = 0.005") {
		t.Fatalf("config.toml after --set:\n%s", data)
	}
}
