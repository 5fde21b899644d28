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
	"bomberzero/internal/dirlock"
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
