package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"bomberzero/metrics"
)

// everyCommand returns the command lines that name each command and each
// subcommand of "bench" and "data".
func everyCommand() [][]string {
	var lines [][]string
	for _, c := range commands() {
		lines = append(lines, []string{c.name})
	}
	for _, c := range benchmarks() {
		lines = append(lines, []string{"bench", c.name})
	}
	for _, c := range dataCommands() {
		lines = append(lines, []string{"data", c.name})
	}
	return lines
}

func TestEveryCommandsHelpExitsZeroWithItsUsageOnStdout(t *testing.T) {
	for _, line := range everyCommand() {
		name := strings.Join(line, " ")
		for _, h := range []string{"--help", "-h", "-help"} {
			code, out, errs := runCmd(t, append(slices.Clone(line), h)...)
			if code != 0 {
				t.Errorf("%s %s: exit %d, want 0 (stderr %q)", name, h, code, errs)
			}
			if !strings.Contains(out, "usage: bomberzero "+name) {
				t.Errorf("%s %s: stdout does not name the command:\n%s", name, h, out)
			}
			if errs != "" {
				t.Errorf("%s %s: stderr %q, want nothing", name, h, errs)
			}
		}
		// "help CMD" is the same page.
		code, out, _ := runCmd(t, append([]string{"help"}, line...)...)
		if code != 0 || !strings.Contains(out, "usage: bomberzero "+name) {
			t.Errorf("help %s: exit %d, stdout %q", name, code, out)
		}
	}
}

func TestGroupHelpListsEverySubcommand(t *testing.T) {
	for group, subs := range map[string][]command{"bench": benchmarks(), "data": dataCommands()} {
		code, out, _ := runCmd(t, group, "--help")
		if code != 0 {
			t.Errorf("%s --help: exit %d", group, code)
		}
		for _, c := range subs {
			if !strings.Contains(out, "  "+c.name+" ") {
				t.Errorf("%s --help does not list %s:\n%s", group, c.name, out)
			}
		}
		if code, _, errs := runCmd(t, group); code != 2 || !strings.Contains(errs, subs[0].name) {
			t.Errorf("%s alone: exit %d, stderr %q; want 2 naming the subcommands", group, code, errs)
		}
	}
}

func TestTopLevelHelpListsEveryCommand(t *testing.T) {
	code, out, _ := runCmd(t, "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, c := range commands() {
		if !strings.Contains(out, "  "+c.name+" ") {
			t.Errorf("help does not list %s", c.name)
		}
	}
}

func TestEveryLongCommandOffersQuietWithOneMeaning(t *testing.T) {
	for _, line := range [][]string{{"selfplay"}, {"train"}, {"match"}, {"values"}, {"imbalance"}, {"compare"},
		{"echo-test"}, {"ladder"}, {"trend"}, {"nnue"}, {"data", "stats"}, {"data", "verify"}, {"data", "chunks"}, {"data", "adjudication"}, {"bench", "nn"}, {"bench", "selfplay"}, {"bench", "match"}} {
		_, out, _ := runCmd(t, append(slices.Clone(line), "--help")...)
		if !strings.Contains(out, "-quiet\n    \t"+quietHelp) {
			t.Errorf("%s --help does not offer --quiet as %q:\n%s", strings.Join(line, " "), quietHelp, out)
		}
	}
}

func TestBadFlagsExitTwoWithAHintNotTheWholeUsage(t *testing.T) {
	for _, line := range everyCommand() {
		name := strings.Join(line, " ")
		code, out, errs := runCmd(t, append(slices.Clone(line), "--no-such-flag")...)
		if code != 2 {
			t.Errorf("%s --no-such-flag: exit %d, want 2", name, code)
		}
		if out != "" || !strings.Contains(errs, "no-such-flag") || !strings.Contains(errs, `"bomberzero `+line[0]) ||
			strings.Count(errs, "\n") > 2 {
			t.Errorf("%s --no-such-flag: stdout %q, stderr %q; want one error line and a hint on stderr", name, out, errs)
		}
	}
}

func TestFlagsAfterPositionalArgumentsAreParsed(t *testing.T) {
	run1 := t.TempDir()
	w, err := metrics.OpenWriter(filepath.Join(run1, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(metrics.Record{Generation: 1, Train: &metrics.Train{Loss: 2}}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	data, _ := writeDataDir(t)
	record := filepath.Join(t.TempDir(), "game.txt")
	if err := os.WriteFile(record, []byte("1. e2-e4 e7-e5"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string // in stdout
		file string // must exist afterwards
	}{
		{[]string{"plot", run1, "--format", "svg"}, "1 generations plotted", filepath.Join(run1, "plots", "losses.svg")},
		{[]string{"plot", run1, "--format=svg", "--out", filepath.Join(run1, "p2")}, "1 generations plotted", filepath.Join(run1, "p2", "losses.svg")},
		{[]string{"replay", record, "--variant", "chess"}, "4P3", ""},
		{[]string{"data", "stats", data, "--json"}, `"positions": 5`, ""},
		{[]string{"data", "chunks", data, "--json"}, `"Positions": 5`, ""},
		{[]string{"data", "verify", data, "--quiet"}, "1 chunks good", ""},
	} {
		code, out, errs := runCmd(t, tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q in stdout", tc.args, code, out, errs, tc.want)
		}
		if tc.file != "" {
			if _, err := os.Stat(tc.file); err != nil {
				t.Errorf("%q: %v", tc.args, err)
			}
		}
	}
	// The same flag after the argument still refuses a bad value.
	if code, _, _ := runCmd(t, "plot", run1, "--format", "gif"); code != 2 {
		t.Errorf("plot RUN --format gif: exit %d, want 2", code)
	}
}

func TestParseArgsPermutesFlagsAndPositionals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		pos  []string
		n    int
		b    bool
		s    string
	}{
		{[]string{"a", "--n", "3", "b"}, []string{"a", "b"}, 3, false, ""},
		{[]string{"--b", "a", "-s=x", "-n=4"}, []string{"a"}, 4, true, "x"},
		{[]string{"a", "--s", "-h"}, []string{"a"}, 0, false, "-h"}, // a flag's value, not a help request
		{[]string{"a", "--", "--n", "5", "-h"}, []string{"a", "--n", "5", "-h"}, 0, false, ""},
		{[]string{"-", "--b=false", "c"}, []string{"-", "c"}, 0, false, ""},
		{nil, nil, 0, false, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		n := fs.Int("n", 0, "")
		b := fs.Bool("b", false, "")
		s := fs.String("s", "", "")
		pos, err := parseArgs(fs, tc.args)
		if err != nil || !slices.Equal(pos, tc.pos) || *n != tc.n || *b != tc.b || *s != tc.s {
			t.Errorf("%q: pos %q n %d b %v s %q err %v; want %q %d %v %q", tc.args, pos, *n, *b, *s, err, tc.pos, tc.n, tc.b, tc.s)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Int("n", 0, "")
	if _, err := parseArgs(fs, []string{"a", "--n", "x"}); err == nil {
		t.Error("--n x: no error")
	}
	if _, err := parseArgs(fs, []string{"a", "--n"}); err == nil {
		t.Error("--n with no value: no error")
	}
	if _, err := parseArgs(fs, []string{"a", "--help"}); err == nil {
		t.Error("--help: no help request")
	}
}

func TestVersionPrintsACommitOrDevel(t *testing.T) {
	commitOrDevel := regexp.MustCompile(`commit [0-9a-f]{7,40}|\(devel\)`)
	for _, args := range [][]string{{"--version"}, {"version"}, {"-version"}} {
		code, out, _ := runCmd(t, args...)
		if code != 0 || !commitOrDevel.MatchString(out) {
			t.Errorf("%q: exit %d, stdout %q", args, code, out)
		}
	}
}

func TestVersionLineNamesTheCommitAndWhetherItWasModified(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "bomberzero (devel), no build information, BLAS b"},
		{&debug.BuildInfo{GoVersion: "go1.26"}, "bomberzero (devel), commit unknown (built without version-control information), go1.26, BLAS b"},
		{&debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "(devel)"}, Settings: vcs("abc123", "false")},
			"bomberzero (devel), commit abc123 of 2026-01-02T03:04:05Z, go1.26, BLAS b"},
		{&debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "v1.2.3"}, Settings: vcs("abc123", "true")},
			"bomberzero v1.2.3, commit abc123 (modified) of 2026-01-02T03:04:05Z, go1.26, BLAS b"},
	} {
		if got := versionLine(tc.info, "b"); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

func TestABadPositionIsAUsageErrorInEveryCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"show", "--fen", "xyz"}, "--fen"},
		{[]string{"analyse", "--fen", "xyz"}, "--fen"},
		{[]string{"perft", "--fen", "xyz"}, "--fen"},
		{[]string{"show", "--moves", "e2-e9"}, "--moves"},
		{[]string{"analyse", "--moves", "e2-e9"}, "--moves"},
		{[]string{"show", "--variant", "nosuch"}, "--variant"},
		{[]string{"play", "--fen", "xyz"}, "--fen"},
	} {
		code, _, errs := runCmd(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.says) {
			t.Errorf("%q: exit %d, stderr %q; want 2 naming %s", tc.args, code, errs, tc.says)
		}
	}
}

func TestADurationWithoutItsUnitSaysWhatOneLooksLike(t *testing.T) {
	for _, args := range [][]string{
		{"train", "--budget", "3"},
		{"train", "--budget=3"},
		{"compare", "--budget", "ten"},
	} {
		code, _, errs := runCmd(t, args...)
		if code != 2 || !strings.Contains(errs, "a duration such as 90m or 2h") || !strings.Contains(errs, "--budget") {
			t.Errorf("%q: exit %d, stderr %q; want 2 saying a duration such as 90m or 2h", args, code, errs)
		}
	}
}
