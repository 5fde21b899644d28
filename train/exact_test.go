package train

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bomberzero/datasets"
)

// timeKeys are the fields of a metrics record that measure time, and so
// differ between two runs of one seed; exactFiles drops them.
var timeKeys = map[string]bool{"time": true, "elapsed_s": true, "seconds": true, "games_per_hour": true}

// exactFiles describes a finished run by what must be the same, byte for
// byte, in every run of its config and seed, however it was interrupted:
// each game ("game <ID>": its rows in the data as JSON, then its record in
// games/), each checkpoint ("checkpoint <name>": its SHA-256) and each
// generation's metrics record ("metrics <generation>": its JSON without
// the fields of timeKeys).
func exactFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	chunks, problems, err := datasets.List(DataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Errorf("%s: unusable chunk: %v", dir, problems[0])
	}
	for _, info := range chunks {
		c, err := datasets.ReadChunk(info.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range c.Rows {
			line, err := json.Marshal(row)
			if err != nil {
				t.Fatal(err)
			}
			out["game "+row.GameID] += string(line) + "\n"
		}
	}
	for key := range out {
		id := strings.TrimPrefix(key, "game ")
		rec, err := os.ReadFile(filepath.Join(dir, gamesDir, id+".txt"))
		if err != nil {
			t.Errorf("%s: game %s has no record: %v", dir, id, err)
		}
		out[key] += string(rec)
	}
	ckpts, err := filepath.Glob(filepath.Join(dir, ckptDir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range ckpts {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		out["checkpoint "+filepath.Base(path)] = hex.EncodeToString(sum[:])
	}
	lines, err := os.ReadFile(filepath.Join(dir, metricsName))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%s: metrics line %d: %v", dir, i+1, err)
		}
		dropTimes(rec)
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("metrics %v", rec["generation"])] = string(b)
	}
	return out
}

// dropTimes deletes the timeKeys fields from v and everything in it.
func dropTimes(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if timeKeys[k] {
				delete(v, k)
				continue
			}
			dropTimes(x)
		}
	case []any:
		for _, x := range v {
			dropTimes(x)
		}
	}
}

// compareExact fails for every entry of exactFiles that differs between
// got and want, or is in one only, naming the first differing line of a
// game or record.
func compareExact(t *testing.T, got, want map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	differ := len(keys) - len(want)
	for _, k := range keys {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case !gok:
			differ++
			t.Errorf("%s: missing", k)
		case !wok:
			t.Errorf("%s: not in the uninterrupted run", k)
		case g != w:
			differ++
			gl, wl := strings.Split(g, "\n"), strings.Split(w, "\n")
			for i := range min(len(gl), len(wl)) {
				if gl[i] != wl[i] {
					t.Errorf("%s differs at line %d:\n got %.400s\nwant %.400s", k, i+1, gl[i], wl[i])
					break
				}
			}
			if len(gl) != len(wl) {
				t.Errorf("%s: %d lines, want %d", k, len(gl), len(wl))
			}
		}
	}
	if differ == 0 {
		t.Logf("%d games, checkpoints and records, all byte for byte the same", len(want))
	}
}

// TestTwoRunsOfOneSeedAreByteIdentical runs one config and seed twice,
// with a teacher generation and then networks playing on two self-play
// workers of two slots each (so evaluation batches mix games in orders set
// by timing) and chunks written in whatever order the workers finish:
// every game, checkpoint and metrics record (less its times) must be the
// same byte for byte. TestKillNineAnywhereResumesExactly holds a killed
// and resumed run to the same.
func TestTwoRunsOfOneSeedAreByteIdentical(t *testing.T) {
	skipUnderRace(t)
	cfg := teacherConfig(t)
	var files []map[string]string
	for range 2 {
		dir := t.TempDir()
		if _, err := Run(context.Background(), Options{Dir: dir, Config: cfg, Generations: 3}); err != nil {
			t.Fatal(err)
		}
		files = append(files, exactFiles(t, dir))
	}
	compareExact(t, files[1], files[0])
}
