package datasets

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tempPrefix starts the name of every chunk still being written; List
// ignores such files, so a writer killed before its rename leaves nothing
// a reader sees.
const tempPrefix = ".tmp-"

// chunkFile is the part of *os.File the atomic writer uses; tests replace
// it to simulate a full disk.
type chunkFile interface {
	io.Writer
	Sync() error
	Close() error
	Name() string
}

// createFunc makes a new temporary file in dir (os.CreateTemp's contract).
type createFunc func(dir, pattern string) (chunkFile, error)

func osCreateTemp(dir, pattern string) (chunkFile, error) { return os.CreateTemp(dir, pattern) }

// writeTemp writes a temporary file in dir through write and syncs it to
// disk, returning its path. On failure it removes the file.
func writeTemp(dir, name string, create createFunc, write func(io.Writer) error) (tmp string, err error) {
	f, err := create(dir, tempPrefix+name+"-*")
	if err != nil {
		return "", fmt.Errorf("creating temporary file for %s in %s: %w", name, dir, err)
	}
	tmp = f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return tmp, fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := bw.Flush(); err != nil {
		return tmp, fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		return tmp, fmt.Errorf("syncing %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return tmp, fmt.Errorf("closing %s: %w", tmp, err)
	}
	return tmp, nil
}

// publish renames the finished temporary file tmp to dir/name and syncs the
// directory so the rename survives a crash. renamed reports whether the
// file became visible (true even if the directory sync then failed).
func publish(tmp, dir, name string) (renamed bool, err error) {
	final := filepath.Join(dir, name)
	if err := os.Rename(tmp, final); err != nil {
		os.Remove(tmp)
		return false, fmt.Errorf("renaming %s to %s: %w", tmp, final, err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return true, fmt.Errorf("opening %s to sync it: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return true, fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return true, nil
}

// writeAtomic writes dir/name through write so that the file appears
// complete or not at all; renamed reports whether it appeared.
func writeAtomic(dir, name string, create createFunc, write func(io.Writer) error) (renamed bool, err error) {
	tmp, err := writeTemp(dir, name, create, write)
	if err != nil {
		return false, err
	}
	return publish(tmp, dir, name)
}

// RemoveStaleTemps deletes the temporary files that writers killed
// mid-flush left in dir, if older than age (a live writer's temporary file
// exists for the seconds a flush takes, so an hour is safe while workers
// run). It returns the paths removed.
func RemoveStaleTemps(dir string, age time.Duration) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("removing stale temporary chunks: %w", err)
	}
	cutoff := time.Now().Add(-age)
	var removed []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		info, err := e.Info()
		if err != nil || info.ModTime().After(cutoff) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("removing stale temporary chunk: %w", err)
		}
		removed = append(removed, path)
	}
	return removed, nil
}
