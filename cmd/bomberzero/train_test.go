package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// trainTinyConfig is a config file that makes a generation of fbgc take
// about a second.
const trainTinyConfig = `
[net]
blocks = 1
filters = 8
policy_filters = 2
value_filters = 1
value_hidden = 8
[selfplay]
games = 4
first_games = 4
slots = 2
sims = 4
cheap_sims = 2
max_plies = 20
[train]
batch = 16
max_steps = 3
min_positions = 5
checkpoint_steps = 2
[eval]
games = 2
sims = 2
baselines = ["random"]
max_plies = 10
[teacher]
games = 4
depth = 1
max_plies = 30
random_plies = 4
train_steps = 0
`

func TestTrainCommandRunsAndResumesARun(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "tiny.toml")
	os.WriteFile(cfg, []byte(trainTinyConfig), 0o644)
	dir := filepath.Join(t.TempDir(), "run")
	var out, errb bytes.Buffer
	if code := run([]string{"train", "--config", cfg, "--run", dir, "--generations", "1", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "gen 0 -> gen-0001: games 4") || !strings.Contains(out.String(), "1 generations") {
		t.Fatalf("stdout %q", out.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"train", "--run", dir, "--generations", "2", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "resuming") || !strings.Contains(out.String(), "gen 1 -> gen-0002") || strings.Contains(out.String(), "gen 0 ->") {
		t.Fatalf("resume: stdout %q stderr %q", out.String(), errb.String())
	}
	for _, f := range []string{"config.toml", "state.json", "metrics.jsonl", "checkpoints/gen-0002.safetensors", "plots/elo.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestTrainCommandRefusesBadFlagsAndConfigsWithStatus2(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[train]\nbatchsize = 3\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"train", "--budget", "soon"}, "a duration such as 90m or 2h"},
		{[]string{"train", "extra"}, `unexpected argument "extra"`},
		{[]string{"train", "--config", bad, "--run", filepath.Join(t.TempDir(), "r")}, `unknown key "train.batchsize"`},
		{[]string{"train", "--variant", "nosuch", "--run", filepath.Join(t.TempDir(), "r")}, "nosuch"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

func TestABudgetStoppedTrainEndsWithItsModelAndTheCommandThatResumesIt(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "tiny.toml")
	os.WriteFile(cfg, []byte(trainTinyConfig), 0o644)
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errs := runCmd(t, "train", "--config", cfg, "--run", dir, "--budget", "1ms", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 || !strings.Contains(lines[len(lines)-3], "stopped by the budget") ||
		!strings.HasPrefix(lines[len(lines)-2], "newest model: none yet") {
		t.Fatalf("stdout %q", out)
	}
	resume, ok := strings.CutPrefix(lines[len(lines)-1], "resume with: ")
	args, found := strings.CutPrefix(resume, programName()+" ")
	if !ok || !found || args != "train --run "+dir+" --budget 1ms --quiet" {
		t.Fatalf("last line %q", lines[len(lines)-1])
	}
	// The printed command resumes the run (here with one more generation).
	code, out, errs = runCmd(t, append(strings.Fields(args), "--budget", "0", "--generations", "1")...)
	want := "newest model: " + filepath.Join(dir, "checkpoints", "gen-0001.safetensors")
	if code != 0 || !strings.Contains(errs, "resuming") || !strings.Contains(out, want) || strings.Contains(out, "resume with") {
		t.Fatalf("resume: exit %d, stdout %q, stderr %q; want %q and no resume line", code, out, errs, want)
	}
}

func TestTrainResumeCommandKeepsTheFlagsThatMatterAndQuotesTheDirectory(t *testing.T) {
	for _, tc := range []struct {
		dir    string
		budget time.Duration
		gens   int
		quiet  bool
		want   string
	}{
		{"runs/fbgc-1", 0, 0, false, "bz train --run runs/fbgc-1"},
		{"runs/a b", 90 * time.Minute, 12, true, "bz train --run 'runs/a b' --budget 1h30m0s --generations 12 --quiet"},
		{"it's", 0, 0, false, `bz train --run 'it'\''s'`},
		{"", 0, 0, false, "bz train --run ''"},
	} {
		if got := trainResumeCommand("bz", tc.dir, tc.budget, tc.gens, tc.quiet); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestQuietTrainWarnsOnStderrNotStdout is finding 5 of issue 34: with
// --quiet the quarantine warnings (and the lease's) went to stdout, into
// the summary lines a script reads.
func TestQuietTrainWarnsOnStderrNotStdout(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "tiny.toml")
	os.WriteFile(cfg, []byte(trainTinyConfig), 0o644)
	dir := filepath.Join(t.TempDir(), "run")
	var out, errb bytes.Buffer
	if code := run([]string{"train", "--config", cfg, "--run", dir, "--generations", "1", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	// A damaged chunk is quarantined on resume, with a warning.
	os.WriteFile(filepath.Join(dir, "data", "damaged-0123456789abcdef.parquet"), []byte("not parquet"), 0o644)
	out.Reset()
	errb.Reset()
	if code := run([]string{"train", "--run", dir, "--generations", "2", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errb.String())
	}
	if strings.Contains(out.String(), "damaged-0123456789abcdef") || !strings.Contains(errb.String(), "damaged-0123456789abcdef") ||
		!strings.Contains(errb.String(), "moved to") {
		t.Errorf("quarantine warning: stdout %q, stderr %q; want it on stderr only", out.String(), errb.String())
	}
}
