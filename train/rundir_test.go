package train

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/datasets"
	"bomberzero/internal/atomicfile"
	"bomberzero/internal/dirlock"
	"bomberzero/setup"
)

// TestRunWithoutStateIsRefusedNotRestarted is finding 4 of issue 16: a run
// whose state.json is gone must not be restarted with defaults over its
// config, checkpoints and data; Run says it is incomplete and changes
// nothing.
func TestRunWithoutStateIsRefusedNotRestarted(t *testing.T) {
	cfg := tinyConfig(t)
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	snapshot := func() map[string][]byte {
		files := map[string][]byte{}
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() != dirlock.Name {
				b, _ := os.ReadFile(p)
				files[p] = b
			}
			return nil
		})
		return files
	}
	if err := os.Remove(statePath(dir)); err != nil {
		t.Fatal(err)
	}
	before := snapshot()
	other := tinyConfig(t)
	other.Seed = 99
	_, err := Run(context.Background(), Options{Dir: dir, Config: other, Generations: 2})
	if err == nil || !strings.Contains(err.Error(), "incomplete run") || !strings.Contains(err.Error(), "config.toml") {
		t.Fatalf("Run on a run without state.json: %v, want an incomplete-run refusal naming config.toml", err)
	}
	after := snapshot()
	if len(after) != len(before) {
		t.Errorf("%d files before, %d after the refusal", len(before), len(after))
	}
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Errorf("%s changed by a refused run", p)
		}
	}
}

// TestKilledCreationIsRedoneCleanly: what a creation killed before its
// state left in .creating is not a run; the next Run starts afresh.
func TestKilledCreationIsRedoneCleanly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	stage := filepath.Join(dir, creatingDir, ckptDir)
	if err := os.MkdirAll(stage, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, creatingDir, configName), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := tinyConfig(t)
	cfg.SelfPlay.FirstGames = 2
	if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, creatingDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s left behind: %v", creatingDir, err)
	}
	if _, err := loadState(dir); err != nil {
		t.Fatal(err)
	}
}

// TestSecondWriterIsRefused is finding 3 of issue 16: a second Run on a run
// directory in use is refused, naming the holder, and changes nothing.
func TestSecondWriterIsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	l, err := dirlock.Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	_, err = Run(context.Background(), Options{Dir: dir, Config: tinyConfig(t), Generations: 1})
	if !errors.Is(err, dirlock.ErrLocked) || !strings.Contains(err.Error(), "pid") {
		t.Fatalf("Run on a locked run directory: %v, want a refusal naming the holder", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("refused run left %d entries in the directory, want only the lock file", len(entries))
	}
}

// TestDamagedOldChunksDeleteNoRecord is finding 1 of issue 16: after one
// generation, the oldest chunks are deleted or damaged; the resumed second
// generation must still count its own games by identity (all of them),
// move every one of its records to games/ and delete no record, and the
// damaged chunk is quarantined, not lost.
func TestDamagedOldChunksDeleteNoRecord(t *testing.T) {
	for _, fault := range []string{"delete", "flip", "three"} {
		t.Run(fault, func(t *testing.T) {
			cfg := tinyConfig(t)
			dir := filepath.Join(t.TempDir(), "run")
			if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 1}); err != nil {
				t.Fatal(err)
			}
			chunks, _, err := datasets.List(DataDir(dir))
			if err != nil || len(chunks) < 3 {
				t.Fatalf("%d chunks after generation 0 (%v)", len(chunks), err)
			}
			damaged := 1
			if fault == "three" {
				damaged = 3
			}
			for _, c := range chunks[:damaged] {
				if fault == "delete" {
					err = os.Remove(c.Path)
				} else {
					err = flipByte(c.Path, c.Size/2)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			var log bytes.Buffer
			if _, err := Run(context.Background(), Options{Dir: dir, Generations: 2, Progress: &log}); err != nil {
				t.Fatal(err)
			}
			recs := readMetrics(t, dir)
			if len(recs) != 2 || recs[1].SelfPlay.Games != cfg.GamesIn(1) {
				t.Fatalf("generation 1 reports %+v, want %d games", recs[len(recs)-1].SelfPlay, cfg.GamesIn(1))
			}
			records, _ := filepath.Glob(filepath.Join(dir, gamesDir, "*.txt"))
			if want := cfg.GamesIn(0) + cfg.GamesIn(1); len(records) != want {
				t.Errorf("%d records in games/, want %d (none deleted)", len(records), want)
			}
			per, _ := gamesPerGeneration(t, dir)
			if per[1] != cfg.GamesIn(1) {
				t.Errorf("generation 1: %d games in the data, want %d", per[1], cfg.GamesIn(1))
			}
			if fault != "delete" {
				q, _ := filepath.Glob(filepath.Join(DataDir(dir), quarantineDir, "*.parquet"))
				if len(q) != damaged || !strings.Contains(log.String(), "moved to") {
					t.Errorf("%d chunks quarantined, want %d; log:\n%s", len(q), damaged, log.String())
				}
			}
		})
	}
}

// flipByte inverts one byte of the file at path.
func flipByte(path string, at int64) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	data[at] ^= 0xff
	return os.WriteFile(path, data, 0o644)
}

// TestStaleTemporaryFilesAreRemovedWhenTheRunOpens is finding 4 of issue
// 34: the temporary files of writes killed before their rename piled up in
// the run directory (the cleanup existed; nothing called it).
func TestStaleTemporaryFilesAreRemovedWhenTheRunOpens(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), Options{Dir: dir, Config: tinyConfig(t), Generations: 1}); err != nil {
		t.Fatal(err)
	}
	var temps []string
	for _, d := range []string{"", dataDir, gamesDir, ckptDir, plotsDir} {
		p := filepath.Join(dir, d, atomicfile.TempPrefix+"killed-123")
		if err := os.WriteFile(p, []byte("half a file"), 0o644); err != nil {
			t.Fatal(err)
		}
		temps = append(temps, p)
	}
	var log bytes.Buffer
	if _, err := Run(context.Background(), Options{Dir: dir, Generations: 1, Log: &log}); err != nil {
		t.Fatal(err)
	}
	for _, p := range temps {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still there after the run opened (%v)", p, err)
		}
	}
	if !strings.Contains(log.String(), "removed 5 temporary files") {
		t.Errorf("log %q; want it to say the 5 temporary files were removed", log.String())
	}
}

// TestTornMetricsLineIsReportedAndRebuiltOnResume is finding 3 of issue
// 34: a truncated last line of metrics.jsonl dropped that generation's
// record without a word. The resume now warns, naming the file and line,
// and rebuilds the record of the finished generation from its checkpoint.
func TestTornMetricsLineIsReportedAndRebuiltOnResume(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), Options{Dir: dir, Config: tinyConfig(t), Generations: 2}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, metricsName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	last := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1 // the second record's line
	if err := os.WriteFile(path, data[:last+(len(data)-last)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if _, err := Run(context.Background(), Options{Dir: dir, Generations: 2, Log: &log}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), path+":2: the last line is torn") || !strings.Contains(log.String(), "generation 1's record rebuilt") {
		t.Errorf("log %q; want a warning naming %s:2 and the rebuilt record", log.String(), path)
	}
	recs := readMetrics(t, dir)
	if len(recs) != 2 || recs[1].Generation != 1 || recs[1].Model != "gen-0002" {
		t.Errorf("records after the resume: %+v; want generations 0 and 1 (gen-0002)", recs)
	}
}

// TestForeignChunkIsQuarantinedAndNamed is finding 5 of issue 34: a chunk
// of another variant in a run's data blocked training with an error that
// did not name the chunk. It is now quarantined like a damaged one, the
// log naming it, and the run goes on.
func TestForeignChunkIsQuarantinedAndNamed(t *testing.T) {
	cfg := tinyConfig(t)
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	other, err := setup.DefaultConfig("chess")
	if err != nil {
		t.Fatal(err)
	}
	other.Net, other.SelfPlay, other.Train, other.Eval, other.Teacher = cfg.Net, cfg.SelfPlay, cfg.Train, cfg.Eval, cfg.Teacher
	odir := filepath.Join(t.TempDir(), "chess")
	if _, err := Run(context.Background(), Options{Dir: odir, Config: other, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	foreign, _, err := datasets.List(DataDir(odir))
	if err != nil || len(foreign) == 0 {
		t.Fatalf("no chess chunks (%v)", err)
	}
	data, err := os.ReadFile(foreign[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	name := foreign[0].Name
	if err := os.WriteFile(filepath.Join(DataDir(dir), name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if _, err := Run(context.Background(), Options{Dir: dir, Generations: 2, Progress: &log}); err != nil {
		t.Fatalf("resumed with a chess chunk in the data: %v\nlog:\n%s", err, log.String())
	}
	if _, err := os.Stat(filepath.Join(DataDir(dir), quarantineDir, name)); err != nil {
		t.Errorf("the chess chunk is not in quarantine: %v; log:\n%s", err, log.String())
	}
	if l := log.String(); !strings.Contains(l, name) || !strings.Contains(l, `"chess"`) || !strings.Contains(l, "moved to") {
		t.Errorf("the log does not name the chunk, its variant and where it went:\n%s", l)
	}
	if recs := readMetrics(t, dir); len(recs) != 2 {
		t.Errorf("%d generations recorded, want 2", len(recs))
	}
}
