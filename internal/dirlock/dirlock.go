// Package dirlock gives one process at a time the right to write a
// directory: an exclusive advisory lock (flock) on a lock file in it. The
// kernel drops the lock when its holder exits, however it exits (kill -9
// included), so a crash never leaves a directory locked. The lock file
// holds a description of its holder (pid, host, command, start time) for
// the message that refuses a second writer.
package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

// Name is the lock file's name inside a locked directory.
const Name = ".bomberzero.lock"

// maxHolder bounds how much of a lock file is read back for a message.
const maxHolder = 4 << 10

// ErrLocked is wrapped by the error of Acquire when another process holds
// the directory's lock.
var ErrLocked = errors.New("directory in use")

// Lock is a held directory lock. Release it when done; exiting the process
// releases it too.
type Lock struct {
	f *os.File
}

// Acquire creates dir if needed and takes its lock without waiting. When
// another process (or another Lock in this one) holds it, the error wraps
// ErrLocked and names the holder as its lock file describes it.
func Acquire(dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	path := filepath.Join(dir, Name)
	f, err := openLockFile(path)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if held, err := tryLock(f); err != nil || held {
		holder := readHolder(f)
		f.Close()
		if held {
			return nil, fmt.Errorf("%w: %s is being written by another process (%s); wait for it to finish or stop it, then try again", ErrLocked, dir, holder)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := writeHolder(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &Lock{f: f}, nil
}

// Release gives the lock up. The lock file stays (removing it could let
// two processes lock two different files of the same name).
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the last descriptor drops the lock
	l.f = nil
	return err
}

// writeHolder replaces the lock file's content with this process's
// description.
func writeHolder(f *os.File) error {
	host, _ := os.Hostname()
	text := fmt.Sprintf("pid %d on host %s, command %q, since %s\n", os.Getpid(), host,
		strings.Join(os.Args, " "), time.Now().UTC().Format(time.RFC3339))
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(text), 0)
	return err
}

// readHolder returns the holder's description from its lock file, with
// control characters escaped, or a note that it has none.
func readHolder(f *os.File) string {
	buf := make([]byte, maxHolder)
	n, _ := f.ReadAt(buf, 0)
	text := strings.TrimSpace(string(buf[:n]))
	if text == "" {
		return "holder unknown: its lock file is empty"
	}
	return "held by " + strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return '?'
		}
		return r
	}, text)
}
