package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// entries lists dir's names, temporary files included.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteReplacesTheFileWithPermPerm(t *testing.T) {
	for _, tc := range []struct {
		name string
		old  string // "" for no old file
	}{
		{"new file", ""},
		{"replacing", "old contents, longer than the new ones"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.txt")
			if tc.old != "" {
				if err := os.WriteFile(path, []byte(tc.old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFile(path, []byte("new")); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil || string(got) != "new" {
				t.Fatalf("after WriteFile the file holds %q, %v; want %q", got, err, "new")
			}
			info, err := os.Stat(path)
			if err != nil || info.Mode().Perm() != Perm {
				t.Fatalf("mode %v, %v; want %v", info.Mode().Perm(), err, Perm)
			}
			if names := entries(t, dir); len(names) != 1 {
				t.Fatalf("directory holds %v; want only f.txt", names)
			}
		})
	}
}

func TestFailingWriterKeepsTheOldFileAndLeavesNoTemp(t *testing.T) {
	boom := errors.New("disk full")
	for _, tc := range []struct {
		name  string
		write func(w io.Writer) error
	}{
		{"fails at once", func(io.Writer) error { return boom }},
		{"fails after writing", func(w io.Writer) error {
			w.Write([]byte(strings.Repeat("x", 200_000))) // past the buffer: bytes reach the temp file
			return boom
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "state.json")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			err := Write(path, tc.write)
			if !errors.Is(err, boom) {
				t.Fatalf("Write = %v; want the writer's error", err)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name %s", err, path)
			}
			if Published(err) {
				t.Errorf("Published(%v) = true for a failed write", err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != "old" {
				t.Errorf("the old file now holds %q; want it intact", got)
			}
			if names := entries(t, dir); len(names) != 1 || names[0] != "state.json" {
				t.Errorf("directory holds %v; want only state.json (no temporary file)", names)
			}
		})
	}
}

// TestCrashBeforeRenameIsNotReadAsTheTarget simulates a writer killed after
// its temporary file is complete but before the rename: the target keeps
// its old contents and the leftover is recognisable as a temporary file.
func TestCrashBeforeRenameIsNotReadAsTheTarget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.ckpt")
	if err := WriteFile(path, []byte("generation 1")); err != nil {
		t.Fatal(err)
	}
	var tmp string
	crash := errors.New("killed")
	// Write's temporary file, complete, as a killed process leaves it.
	err := Write(path, func(w io.Writer) error {
		w.Write([]byte("generation 2"))
		es, _ := os.ReadDir(dir)
		for _, e := range es {
			if IsTemp(e.Name()) {
				tmp = filepath.Join(dir, e.Name())
			}
		}
		return crash
	})
	if !errors.Is(err, crash) || tmp == "" {
		t.Fatalf("Write = %v, temporary file %q; want the crash and a temporary file while writing", err, tmp)
	}
	if err := os.WriteFile(tmp, []byte("generation 2"), 0o600); err != nil { // the leftover a kill leaves
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "generation 1" {
		t.Fatalf("target holds %q, %v; want the old contents", got, err)
	}
	if !strings.HasPrefix(filepath.Base(tmp), TempPrefix+"model.ckpt-") {
		t.Errorf("temporary file %s is not named %s<base>-*", tmp, TempPrefix)
	}
	var visible []string
	for _, name := range entries(t, dir) {
		if !IsTemp(name) {
			visible = append(visible, name)
		}
	}
	if len(visible) != 1 || visible[0] != "model.ckpt" {
		t.Errorf("a reader skipping temporary files sees %v; want only model.ckpt", visible)
	}
}

func TestWriteErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "missing", "f.txt") // no such directory
	err := WriteFile(path, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), path) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("WriteFile into a missing directory = %v; want an error naming %s", err, path)
	}
}

func TestMoveRenamesAcrossDirectories(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "staging", "g1.txt")
	dst := filepath.Join(root, "games", "g1.txt")
	for _, d := range []string{filepath.Dir(src), filepath.Dir(dst)} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFile(src, []byte("record")); err != nil {
		t.Fatal(err)
	}
	if err := Move(src, dst); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("source still there after Move: %v", err)
	}
	if got, err := os.ReadFile(dst); err != nil || string(got) != "record" {
		t.Errorf("destination holds %q, %v; want the record", got, err)
	}
	err := Move(src, dst) // the source is gone now
	if err == nil || !strings.Contains(err.Error(), src) || Published(err) {
		t.Errorf("Move of a missing file = %v; want an unpublished error naming %s", err, src)
	}
}

func TestPublishedTellsADirSyncFailureFromAFailedWrite(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, true},
		{errors.New("renaming a to b: no space"), false},
		{&DirSyncError{Dir: "/d", Err: errors.New("EIO")}, true},
	} {
		if got := Published(tc.err); got != tc.want {
			t.Errorf("Published(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
	if err := SyncDir(filepath.Join(t.TempDir(), "gone")); !Published(err) || err == nil {
		t.Errorf("syncDir of a missing directory = %v; want a DirSyncError", err)
	}
}

// TestDiskFull: the errors of a write out of space, wrapped as Write wraps
// them, and no other.
func TestDiskFull(t *testing.T) {
	for errno, want := range map[syscall.Errno]bool{syscall.ENOSPC: true, syscall.EDQUOT: true, syscall.EFBIG: true, syscall.EACCES: false, syscall.EIO: false} {
		err := fmt.Errorf("writing x: %w", &os.PathError{Op: "write", Path: "x", Err: errno})
		if got := DiskFull(err); got != want {
			t.Errorf("DiskFull(%v) = %v, want %v", err, got, want)
		}
	}
	if DiskFull(nil) {
		t.Error("DiskFull(nil)")
	}
}
