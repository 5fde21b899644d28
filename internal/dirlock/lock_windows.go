//go:build windows

package dirlock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// openLockFile opens (creating) the lock file.
func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}

// lockOffset is where the locked byte lies: far past the holder's text, so
// that a refused process can still read who holds the lock.
const lockOffset = 1 << 62

// tryLock takes an exclusive lock on one byte of f without waiting
// (LockFileEx, which Windows drops when its holder exits); held reports
// that another handle has it.
func tryLock(f *os.File) (held bool, err error) {
	ol := windows.Overlapped{Offset: uint32(lockOffset & 0xffffffff), OffsetHigh: uint32(lockOffset >> 32)}
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return true, nil
	}
	return false, err
}
