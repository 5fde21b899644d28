package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/metrics"
	"bomberzero/metrics/plot"
)

func TestPlotCommandWritesEveryPlotOfARun(t *testing.T) {
	dir := t.TempDir()
	w, err := metrics.OpenWriter(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for g := 1; g <= 3; g++ {
		if err := w.Append(metrics.Record{Generation: g, Elapsed: float64(g * 100), Train: &metrics.Train{Loss: 3 / float64(g)}}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	f, _ := os.OpenFile(filepath.Join(dir, "metrics.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"v":1,"genera`) // a torn last line
	f.Close()
	var out, errb bytes.Buffer
	if code := run([]string{"plot", "--format", "svg", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "3 generations") || !strings.Contains(errb.String(), "torn") {
		t.Fatalf("stdout %q stderr %q", out.String(), errb.String())
	}
	for _, name := range plot.Names {
		if _, err := os.Stat(filepath.Join(dir, "plots", name+".svg")); err != nil {
			t.Error(err)
		}
	}
	if code := run([]string{"plot", "--format", "gif", dir}, &out, &errb); code != 2 {
		t.Errorf("bad format: exit %d, want 2", code)
	}
	if code := run([]string{"plot", filepath.Join(dir, "nope")}, &out, &errb); code != 1 {
		t.Errorf("missing run: exit %d, want 1", code)
	}
}
