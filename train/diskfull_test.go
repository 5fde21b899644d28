//go:build linux

package train

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"bomberzero/internal/atomicfile"
)

// fileHashes returns the SHA-256 of every file under dir but the ones
// that a later write may legitimately replace (state.json, metrics.jsonl,
// the lock and the charts), by path relative to dir.
func fileHashes(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == "state.json", rel == metricsName, rel == configName, strings.HasPrefix(rel, plotsDir+string(filepath.Separator)),
			strings.HasPrefix(d.Name(), "."):
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = sha256.Sum256(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkNothingLost fails unless every file of before is still in dir with
// the same contents, the state reads back, and no temporary file is left.
func checkNothingLost(t *testing.T, dir string, before map[string][32]byte) {
	t.Helper()
	after := fileHashes(t, dir)
	for p, h := range before {
		if a, ok := after[p]; !ok {
			t.Errorf("%s: lost", p)
		} else if a != h {
			t.Errorf("%s: changed", p)
		}
	}
	if _, err := loadState(dir); err != nil {
		t.Errorf("state after the failed write: %v", err)
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && atomicfile.IsTemp(d.Name()) {
			t.Errorf("%s: temporary file left behind", p)
		}
		return nil
	})
}

// TestFullDiskStopsClearlyAndLosesNothing runs the real binary into a
// full disk after a first generation is done: with a file size limit
// (RLIMIT_FSIZE, as `ulimit -f`; a write past it fails with EFBIG, the
// SIGXFSZ being ignored by the Go runtime) below a checkpoint's size,
// and, where this process may mount them (root), on tmpfs 12 to 104 KiB
// larger than the run (a real ENOSPC, which today lands on a chunk, a
// game record, state.json and a checkpoint). Each time the
// run must stop with an error naming the file and saying what to do, keep
// every file it had written (checkpoints, chunks, records) unchanged and
// its state readable, leave no temporary file, and, resumed with space,
// finish with every generation's games, steps and records exactly once.
// Linux only: RLIMIT_FSIZE as used here and tmpfs mounts.
func TestFullDiskStopsClearlyAndLosesNothing(t *testing.T) {
	bin := buildBinary(t)
	cfg := tinyConfig(t)
	data, err := cfg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "tiny.toml")
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// train runs the binary; a positive limit is its RLIMIT_FSIZE, set
	// on this process around the fork (the child inherits it) and put back
	// (no test of this package runs in parallel, so nothing else of this
	// process writes a file meanwhile).
	train := func(dir string, gens int, limit uint64) (string, error) {
		cmd := exec.Command(bin, "train", "--config", cfgPath, "--run", dir, "--generations", strconv.Itoa(gens), "--quiet")
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if limit > 0 {
			var old syscall.Rlimit
			if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: old.Max}); err != nil {
				t.Fatal(err)
			}
			err := cmd.Start()
			if rerr := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); rerr != nil {
				t.Fatal(rerr)
			}
			if err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			return out.String(), err
		}
		err := cmd.Run()
		return out.String(), err
	}
	firstGen := func(t *testing.T, dir string) map[string][32]byte {
		if out, err := train(dir, 1, 0); err != nil {
			t.Fatalf("generation 0: %v\n%s", err, out)
		}
		return fileHashes(t, dir)
	}
	resume := func(t *testing.T, dir string) {
		if out, err := train(dir, 3, 0); err != nil {
			t.Fatalf("resume with space: %v\n%s", err, out)
		}
		checkRunComplete(t, dir, cfg, 3)
	}
	wantMessage := func(t *testing.T, dir, out string, err error, cause string) {
		if err == nil {
			t.Fatalf("the run did not stop on a full disk:\n%s", out)
		}
		for _, want := range []string{cause, "the disk is full", "nothing written before it is lost", "the write named failed", "resume with: bomberzero train --run"} {
			if !strings.Contains(out, want) {
				t.Errorf("the run's error does not say %q:\n%s", want, out)
			}
		}
		if !strings.Contains(out, dir+string(filepath.Separator)) {
			t.Errorf("the run's error names no file:\n%s", out)
		}
		t.Logf("stopped with: %s", strings.TrimSpace(out))
	}

	t.Run("file size limit", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		before := firstGen(t, dir)
		// A limit halfway between the largest file that is not a
		// checkpoint (a chunk, a chart) and a checkpoint: the next
		// generation's first checkpoint save fails.
		var ckpt, other int64
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if info, e := d.Info(); err == nil && e == nil && !d.IsDir() {
				if filepath.Base(filepath.Dir(p)) == ckptDir {
					ckpt = max(ckpt, info.Size())
				} else {
					other = max(other, info.Size())
				}
			}
			return nil
		})
		if ckpt < other*3/2 {
			t.Skipf("a checkpoint of %d bytes is too close to the largest other file's %d", ckpt, other)
		}
		out, err := train(dir, 3, uint64(ckpt+other)/2)
		wantMessage(t, dir, out, err, "file too large")
		checkNothingLost(t, dir, before)
		resume(t, dir)
	})

	// On a tmpfs a few KiB larger than the run after its first generation,
	// the disk fills at a different write for each headroom: a chunk, a
	// game record, state.json, a checkpoint.
	dir := filepath.Join(t.TempDir(), "run")
	before := firstGen(t, dir)
	used := int64(0)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if info, e := d.Info(); err == nil && e == nil {
			used += (info.Size() + 4095) / 4096 * 4096
		}
		return nil
	})
	for _, kib := range []int64{12, 40, 72, 104} {
		t.Run("tmpfs+"+strconv.FormatInt(kib, 10)+"KiB", func(t *testing.T) {
			mnt := t.TempDir()
			if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size="+strconv.FormatInt(used+kib<<10, 10)); err != nil {
				t.Skipf("cannot mount a tmpfs (%v): the file size limit case stands for it", err)
			}
			t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
			full := filepath.Join(mnt, "run")
			if out, err := exec.Command("cp", "-a", dir, full).CombinedOutput(); err != nil {
				t.Fatalf("cp: %v\n%s", err, out)
			}
			out, err := train(full, 3, 0)
			wantMessage(t, full, out, err, "no space left on device")
			checkNothingLost(t, full, before)
			// Space is back (as when a user frees some) and the run resumes.
			if err := syscall.Mount("tmpfs", mnt, "tmpfs", syscall.MS_REMOUNT, "size=64m"); err != nil {
				t.Fatal(err)
			}
			resume(t, full)
		})
	}
}
