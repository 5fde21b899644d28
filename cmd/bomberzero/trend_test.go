package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/metrics"
)

func TestSpreadCheckpointsPicksEvenlyOverTheSpanAndTheNewest(t *testing.T) {
	var cks []runCheckpoint
	for i := 0; i <= 10; i++ {
		cks = append(cks, runCheckpoint{name: "gen-" + string(rune('a'+i)), hours: float64(i) / 10})
	}
	names := func(cs []runCheckpoint) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.name)
		}
		return strings.Join(s, ",")
	}
	for _, c := range []struct {
		from float64
		k    int
		want string
	}{
		{0.5, 6, "gen-f,gen-g,gen-h,gen-i,gen-j,gen-k"},
		{0.4, 3, "gen-e,gen-h,gen-k"},
		{0, 3, "gen-a,gen-f,gen-k"},
		{0.8, 9, "gen-i,gen-j,gen-k"}, // fewer in the span than asked: all of them
	} {
		got, err := spreadCheckpoints(cks, c.from*cks[len(cks)-1].hours, c.k)
		if err != nil {
			t.Fatal(err)
		}
		if names(got) != c.want {
			t.Errorf("from %g, %d points: %s, want %s", c.from, c.k, names(got), c.want)
		}
	}
	if _, err := spreadCheckpoints(cks, 0.95, 3); err == nil || !strings.Contains(err.Error(), "1 checkpoint(s) from 0.95 hours on") {
		t.Errorf("one checkpoint in the span: %v, want an error counting it", err)
	}
	if _, err := spreadCheckpoints(nil, 0.5, 3); err == nil || !strings.Contains(err.Error(), "no generation checkpoint") {
		t.Errorf("no checkpoints: %v", err)
	}
}

func TestSpanStartsAtAShareOfTheTimeOrAtANamedCheckpoint(t *testing.T) {
	var cks []runCheckpoint
	for i := 0; i <= 10; i++ {
		cks = append(cks, runCheckpoint{name: fmt.Sprintf("gen-%04d", i), hours: float64(i) / 4})
	}
	for _, c := range []struct {
		from      float64
		fromModel string
		lo        float64
		words     string
	}{
		{0.5, "", 1.25, "50% of its working time"},
		{0, "", 0, "0% of its working time"},
		{0.5, "gen-0003", 0.75, "gen-0003 (0.75 hours"},
		{0.5, "gen-0008.safetensors", 2, "gen-0008 (2.00 hours"},
	} {
		lo, words, err := spanStart(cks, c.from, c.fromModel)
		if err != nil || lo != c.lo || !strings.HasPrefix(words, c.words) {
			t.Errorf("from %g, model %q: %g, %q, %v; want %g, %q", c.from, c.fromModel, lo, words, err, c.lo, c.words)
		}
	}
	// A file names the checkpoint it is: this run's, not another's of the same name.
	dir := t.TempDir()
	mine, other := filepath.Join(dir, "run", "gen-0005.safetensors"), filepath.Join(dir, "other", "gen-0005.safetensors")
	for _, p := range []string{mine, other} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	cks[5].path = mine
	if lo, _, err := spanStart(cks, 0.5, mine); err != nil || lo != 1.25 {
		t.Errorf("the run's own file: %g, %v", lo, err)
	}
	if _, _, err := spanStart(cks, 0.5, other); err == nil {
		t.Errorf("another run's gen-0005: no error")
	}
	_, _, err := spanStart(cks, 0.5, "gen-0042")
	if err == nil || !strings.Contains(err.Error(), "--from-model gen-0042") || !strings.Contains(err.Error(), "gen-0000, gen-0001, gen-0002, ..., gen-0009, gen-0010") {
		t.Errorf("an unknown checkpoint: %v, want one naming it and the run's", err)
	}
	if _, _, err := spanStart(nil, 0.5, ""); err == nil || !strings.Contains(err.Error(), "no generation checkpoint") {
		t.Errorf("no checkpoints: %v", err)
	}
}

func TestRunCheckpointsTakeTheirTimeFromTheMetricsRecordThatNamesThem(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "checkpoints"), 0o755)
	w, err := metrics.OpenWriter(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for g := 0; g < 3; g++ {
		w.Append(metrics.Record{Generation: g, Model: fmt.Sprintf("gen-%04d", g+1), Elapsed: float64(g+1) * 1800})
	}
	w.Close()
	for _, f := range []string{"gen-0000", "gen-0001", "gen-0002", "gen-0003", "gen-0004", "step-00000020"} {
		os.WriteFile(filepath.Join(dir, "checkpoints", f+".safetensors"), nil, 0o644)
	}
	cks, err := runCheckpoints(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cks {
		got = append(got, fmt.Sprintf("%s@%g", c.name, c.hours))
	}
	// gen-0004 has no record (the run was killed before it was written), step files are no generation's.
	if want := "gen-0000@0,gen-0001@0.5,gen-0002@1,gen-0003@1.5"; strings.Join(got, ",") != want {
		t.Fatalf("checkpoints %v, want %s", got, want)
	}
}

// A real (tiny) run of three generations, rated against random: a table
// of the checkpoints spread over its time, each with its games, and a line
// or the reason there is none; the JSON says the same.
func TestTrendRatesARunsCheckpointsAndFitsALine(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "tiny.toml")
	os.WriteFile(cfg, []byte(trainTinyConfig), 0o644)
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errOut := runCmd(t, "train", "--config", cfg, "--run", dir, "--generations", "3", "--quiet"); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCmd(t, "trend", "--run", dir, "--anchor", "random", "--games", "4", "--points", "3", "--from", "0",
		"--sims", "2", "--max-plies", "20", "--workers", "1", "--quiet", "--json")
	if code != 0 {
		t.Fatalf("trend: exit %d: %s", code, errOut)
	}
	var rep trendReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(rep.Points) != 3 || rep.Points[0].Model != "gen-0000" || rep.Points[2].Model != "gen-0003" {
		t.Fatalf("points %+v, want gen-0000, one between and gen-0003", rep.Points)
	}
	for i, p := range rep.Points {
		if p.Result.Total.Games() != 4 || (i > 0 && p.Hours <= rep.Points[i-1].Hours) {
			t.Fatalf("point %d: %s at %.4f h with %d games", i, p.Model, p.Hours, p.Result.Total.Games())
		}
	}
	if (rep.Trend == nil) == (rep.Error == "") {
		t.Fatalf("trend %+v, error %q: want exactly one", rep.Trend, rep.Error)
	}
	// --from 0 again: at the default (half the working time) a generation
	// slowed by the machine's load can leave one checkpoint in the span.
	code, out, errOut = runCmd(t, "trend", "--run", dir, "--anchor", "random", "--games", "2", "--points", "2", "--from", "0", "--sims", "2", "--max-plies", "10", "--quiet")
	if code != 0 || !strings.Contains(out, "| gen-0003 |") || !(strings.Contains(out, "Slope:") || strings.Contains(out, "No line:")) {
		t.Fatalf("table: exit %d\n%s\n%s", code, out, errOut)
	}
	// From a named checkpoint: gen-0002 and the newest, whatever the
	// generations' times.
	code, out, errOut = runCmd(t, "trend", "--run", dir, "--anchor", "random", "--games", "2", "--points", "2", "--from-model", "gen-0002", "--sims", "2", "--max-plies", "10", "--quiet", "--json")
	if code != 0 {
		t.Fatalf("--from-model: exit %d: %s", code, errOut)
	}
	rep = trendReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Points) != 2 || rep.Points[0].Model != "gen-0002" || rep.Points[1].Model != "gen-0003" {
		t.Fatalf("--from-model gen-0002: %v %+v, want gen-0002 and gen-0003", err, rep.Points)
	}
	code, _, errOut = runCmd(t, "trend", "--run", dir, "--from-model", "gen-0003", "--quiet")
	if code != 1 || !strings.Contains(errOut, "1 checkpoint(s) from") || !strings.Contains(errOut, "name an earlier --from-model") {
		t.Fatalf("--from-model the newest: exit %d, %q; want 1 and a hint", code, errOut)
	}
}

func TestTrendRefusesWhatItCannotRate(t *testing.T) {
	empty := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"trend"}, 2, "trend --run DIR"},
		{[]string{"trend", "--run", empty, "--points", "1"}, 2, "--points 1"},
		{[]string{"trend", "--run", empty, "--from", "1"}, 2, "--from 1"},
		{[]string{"trend", "--run", empty}, 1, "no run directory"},
		{[]string{"trend", "--run", empty, "--from", "0.2", "--from-model", "gen-0001"}, 2, "give one"},
	} {
		code, _, errOut := runCmd(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}
