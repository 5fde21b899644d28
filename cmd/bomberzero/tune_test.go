package main

import (
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/engine"
)

func TestTuneWritesAWeightsFileThatMatchPlays(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.json")
	code, stdout, errs := runCmd(t, "tune", "--variant", "fbgc", "--games", "4", "--nodes", "200", "--workers", "2", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"4 games at 200 nodes", "scale K", "before", "after", "Passed"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	f, err := engine.ReadWeightsFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.Variant != "fbgc" || f.Fit == nil || f.Fit.Samples == 0 || f.Games != 4 {
		t.Errorf("file %+v", f)
	}
	code, stdout, errs = runCmd(t, "match", "--variant", "fbgc", "--a", "engine:nodes=100:weights="+out, "--b", "engine:nodes=100", "--games", "2", "--workers", "1", "--quiet")
	if code != 0 {
		t.Fatalf("match with the weights: exit %d: %s %s", code, stdout, errs)
	}
	code, stdout, errs = runCmd(t, "analyse", "--variant", "fbgc", "--model", "engine:nodes=200:weights="+out, "--top", "2")
	if code != 0 {
		t.Fatalf("analyse with the weights: exit %d: %s %s", code, stdout, errs)
	}
	// Weights of another variant are refused by name.
	code, _, errs = runCmd(t, "analyse", "--variant", "chess", "--model", "engine:nodes=200:weights="+out)
	if code == 0 || !strings.Contains(errs, "tuned on variant fbgc") {
		t.Errorf("fbgc weights analysing chess: exit %d, %s", code, errs)
	}
}

func TestTuneRefusesBadArguments(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tune", "--variant", "fbgc"}, "--out"},
		{[]string{"tune", "--variant", "nosuch", "--out", filepath.Join(dir, "w.json")}, "--variant"},
		{[]string{"tune", "--games", "0", "--out", filepath.Join(dir, "w.json")}, "games 0"},
		{[]string{"tune", "--from", filepath.Join(dir, "none.json"), "--out", filepath.Join(dir, "w.json")}, "none.json"},
		{[]string{"tune", "--ridge", "-1", "--out", filepath.Join(dir, "w.json")}, "--ridge"},
		{[]string{"tune", "--workers", "0", "--out", filepath.Join(dir, "w.json")}, "--workers"},
	}
	for _, c := range cases {
		code, _, errs := runCmd(t, c.args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want an error naming %q", c.args, code, errs, c.want)
		}
	}
}
