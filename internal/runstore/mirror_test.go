package runstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for k, v := range files {
		p := filepath.Join(dir, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func keys(t *testing.T, s *Store) []string {
	t.Helper()
	objs, err := s.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, o := range objs {
		out = append(out, o.Key)
	}
	return out
}

func TestMirrorPushThenPullOnAnotherMachineGivesTheSameFiles(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["mem"]
	a := &Mirror{Store: s, Dir: t.TempDir(), Last: []string{"state.json"}}
	files := map[string]string{
		"config.toml": "x = 1\n", "state.json": `{"generation":3}`, "checkpoints/gen-0003.safetensors": "weights",
		"data/chunk-1.parquet": "rows", ".bomberzero.lock": "holder", "data/.tmp-chunk-2.parquet": "half",
	}
	writeFiles(t, a.Dir, files)
	n, err := a.Push(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("pushed %d files, want 4 (hidden files stay local)", n)
	}
	if again, err := a.Push(ctx); err != nil || again != 0 {
		t.Errorf("a second push with nothing changed stored %d files (%v), want 0", again, err)
	}
	b := &Mirror{Store: s, Dir: t.TempDir()}
	if n, err := b.Pull(ctx); err != nil || n != 4 {
		t.Fatalf("pulled %d files (%v), want 4", n, err)
	}
	for k, v := range files {
		got, err := os.ReadFile(filepath.Join(b.Dir, filepath.FromSlash(k)))
		hidden := k[0] == '.' || filepath.Base(k)[0] == '.'
		if hidden {
			if err == nil {
				t.Errorf("%s was mirrored", k)
			}
			continue
		}
		if err != nil || string(got) != v {
			t.Errorf("%s: %q, %v; want %q", k, got, err, v)
		}
	}
	if n, err := b.Push(ctx); err != nil || n != 0 {
		t.Errorf("pushing what was just pulled stored %d files (%v), want 0", n, err)
	}
}

func TestMirrorPushesLastFilesLastAndDeletesOnlyAfterThem(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["mem"]
	m := &Mirror{Store: s, Dir: t.TempDir(), Last: []string{"latest.json", "state.json"}}
	writeFiles(t, m.Dir, map[string]string{"state.json": "1", "latest.json": "1", "checkpoints/step-1": "a", "z.txt": "z"})
	var order []string
	m.beforeWrite = func(k string) error { order = append(order, k); return nil }
	if _, err := m.Push(ctx); err != nil {
		t.Fatal(err)
	}
	if want := []string{"checkpoints/step-1", "z.txt", "latest.json", "state.json"}; !slices.Equal(order, want) {
		t.Errorf("push order %q, want %q", order, want)
	}
	// The next step: a new checkpoint replaces the old one, and the state
	// names it. A kill just before the state is stored must leave the
	// store's old state with its old checkpoint.
	os.Remove(filepath.Join(m.Dir, "checkpoints", "step-1"))
	writeFiles(t, m.Dir, map[string]string{"checkpoints/step-2": "b", "state.json": "22"})
	killed := errors.New("killed")
	m.beforeWrite = func(k string) error {
		if k == "state.json" {
			return killed
		}
		return nil
	}
	if _, err := m.Push(ctx); !errors.Is(err, killed) {
		t.Fatalf("push: %v, want the kill", err)
	}
	if got := keys(t, s); !slices.Contains(got, "checkpoints/step-1") || !slices.Contains(got, "checkpoints/step-2") {
		t.Errorf("after a push killed before the state: %q, want both checkpoints", got)
	}
	if st, _ := s.Read(ctx, "state.json", 10); string(st) != "1" {
		t.Errorf("state.json %q, want the old one", st)
	}
	m.beforeWrite = nil
	if _, err := m.Push(ctx); err != nil {
		t.Fatal(err)
	}
	if got := keys(t, s); slices.Contains(got, "checkpoints/step-1") || !slices.Contains(got, "checkpoints/step-2") {
		t.Errorf("after the push completed: %q, want step-2 only", got)
	}
}

func TestMirrorNeverDeletesObjectsOthersWrote(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["mem"]
	if err := s.Write(ctx, "data/worker-chunk.parquet", []byte("w")); err != nil {
		t.Fatal(err)
	}
	m := &Mirror{Store: s, Dir: t.TempDir(), Skip: []string{"data/"}}
	writeFiles(t, m.Dir, map[string]string{"a": "1", "data/local.parquet": "l"})
	if _, err := m.Push(ctx); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(m.Dir, "a"))
	if _, err := m.Push(ctx); err != nil {
		t.Fatal(err)
	}
	got := keys(t, s)
	if !slices.Equal(got, []string{"data/worker-chunk.parquet"}) {
		t.Errorf("store holds %q, want only the worker's chunk (skipped folder neither pushed nor deleted)", got)
	}
	if n, err := m.Pull(ctx); err != nil || n != 0 {
		t.Errorf("pull of a skipped folder copied %d files (%v)", n, err)
	}
}

func TestMirrorPushesAFileRewrittenWithTheSameSize(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["mem"]
	m := &Mirror{Store: s, Dir: t.TempDir()}
	writeFiles(t, m.Dir, map[string]string{"state.json": "aaaa"})
	if _, err := m.Push(ctx); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(m.Dir, "state.json")
	os.WriteFile(p, []byte("bbbb"), 0o644)
	later := time.Now().Add(time.Second)
	os.Chtimes(p, later, later)
	if n, err := m.Push(ctx); err != nil || n != 1 {
		t.Fatalf("pushed %d (%v), want 1", n, err)
	}
	if got, _ := s.Read(ctx, "state.json", 10); string(got) != "bbbb" {
		t.Errorf("store has %q", got)
	}
}

func TestCleanKeyRefusesKeysThatLeaveTheDirectory(t *testing.T) {
	for k, want := range map[string]bool{
		"data/a.parquet": true, "state.json": true,
		"../x": false, "a/../../x": false, "/etc/passwd": false, "a//b": false, "": false, "a\\b": false, "./a": false,
	} {
		if got := cleanKey(k); got != want {
			t.Errorf("cleanKey(%q) = %v, want %v", k, got, want)
		}
	}
}

func TestMirrorPullReplacesAMutableFileOfTheSameSize(t *testing.T) {
	ctx := context.Background()
	s := stores(t)["mem"]
	a := &Mirror{Store: s, Dir: t.TempDir(), Last: []string{"state.json"}, Mutable: []string{"config.toml"}}
	writeFiles(t, a.Dir, map[string]string{"state.json": "gen1", "config.toml": "a=1", "data/c": "x"})
	if _, err := a.Push(ctx); err != nil {
		t.Fatal(err)
	}
	// Another machine holds an older copy of the same run.
	b := &Mirror{Store: s, Dir: t.TempDir(), Last: a.Last, Mutable: a.Mutable}
	writeFiles(t, b.Dir, map[string]string{"state.json": "gen0", "config.toml": "a=2", "data/c": "y"})
	if _, err := b.Pull(ctx); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"state.json": "gen1", "config.toml": "a=1", "data/c": "y"} {
		if got, _ := os.ReadFile(filepath.Join(b.Dir, k)); string(got) != want {
			t.Errorf("%s after pull: %q, want %q", k, got, want)
		}
	}
}
