// Package atomicfile replaces files so that a crash leaves either the old
// contents or the complete new ones, never a mix, and the new ones survive
// the crash once a call has returned nil.
//
// Every file the project writes in place (checkpoints, chunks, game records,
// run state, reports, charts) goes through Write or WriteFile; a finished
// file that changes directory goes through Move. The recipe is the usual
// one: write a temporary file in the target's directory, fsync it, close it,
// rename it over the target, fsync the directory. Every step's error is
// returned, the directory sync's and Close's included, each naming the path.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// TempPrefix starts the name of every temporary file Write creates (the
// full name is TempPrefix + target's base name + "-" + random digits). A
// writer killed before its rename leaves such a file behind; readers that
// list a directory skip names with this prefix, and IsTemp tells them.
const TempPrefix = ".tmp-"

// Perm is the permission of every file Write publishes (os.CreateTemp
// would leave 0600).
const Perm os.FileMode = 0o644

// IsTemp reports whether name (a base name) is a temporary file of Write's.
func IsTemp(name string) bool { return strings.HasPrefix(name, TempPrefix) }

// DirSyncError reports that a file was renamed into place, so it is visible
// and complete, but its directory could not be synced: the rename may not
// survive a crash. Callers that must know whether the file appeared use
// errors.As (see Published).
type DirSyncError struct {
	Dir string // the directory that was not synced
	Err error
}

func (e *DirSyncError) Error() string {
	return fmt.Sprintf("syncing directory %s: %v", e.Dir, e.Err)
}

func (e *DirSyncError) Unwrap() error { return e.Err }

// Published reports whether a Write, WriteFile or Move that returned err
// made its target visible: true for nil and for a DirSyncError, false for
// any other error.
func Published(err error) bool {
	var d *DirSyncError
	return err == nil || errors.As(err, &d)
}

// DiskFull reports whether err is a write that ran out of space: ENOSPC,
// EDQUOT (a quota), or EFBIG (past RLIMIT_FSIZE, `ulimit -f`). A Write
// that fails so leaves its target as it was, so callers can say that
// nothing written before is lost.
func DiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EFBIG)
}

// WriteFile replaces path with data (see Write).
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write replaces path with what write writes. The file appears with
// permission Perm, complete or not at all: if write or any step after it
// fails, path keeps its old contents (or stays absent) and the temporary
// file is removed. A failed directory sync after the rename is returned as
// a *DirSyncError (the new file is then in place). w is buffered; write should not keep it.
func Write(path string, write func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, TempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	closed := false
	defer func() {
		if err != nil && !Published(err) {
			if !closed {
				f.Close()
			}
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Chmod(Perm); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", path, err)
	}
	closed = true
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", path, err)
	}
	return rename(tmp, path)
}

// Move renames the finished file src to dst, replacing dst, and syncs
// dst's directory and, when it differs, src's, so that after a crash the
// file is in exactly one of the two places. A failed sync after the rename
// is returned as a *DirSyncError (the file has then moved).
func Move(src, dst string) error {
	return rename(src, dst)
}

// rename is the project's only call of the rename system call: it renames src to dst and syncs
// the directories involved, dst's first.
func rename(src, dst string) error {
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("renaming %s to %s: %w", src, dst, err)
	}
	dstDir, srcDir := filepath.Dir(dst), filepath.Dir(src)
	if err := SyncDir(dstDir); err != nil {
		return fmt.Errorf("%s: %w", dst, err)
	}
	if filepath.Clean(srcDir) != filepath.Clean(dstDir) {
		if err := SyncDir(srcDir); err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
	}
	return nil
}

// SyncDir fsyncs the directory dir, so that a file created or renamed in
// it is durable; a failure is a *DirSyncError.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return &DirSyncError{Dir: dir, Err: err}
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &DirSyncError{Dir: dir, Err: err}
	}
	return nil
}
