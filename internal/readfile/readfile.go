// Package readfile reads input files the way every reader of bomberzero
// must: only regular files (a FIFO, a device such as /dev/zero or a
// directory, named directly or through a symbolic link, is refused without
// blocking), and no more than a stated number of bytes, so that no input
// can hang the program or grow its memory without limit.
package readfile

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// Regular returns the content of the regular file at path, refusing any
// other kind of file and a file of more than limit bytes. Errors name the
// path.
func Regular(path string, limit int64) ([]byte, error) {
	// O_NONBLOCK: opening a FIFO with no writer must not wait for one.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, kind(fi.Mode()))
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d this reader accepts", path, fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: grew past the %d bytes this reader accepts while being read", path, limit)
	}
	return data, nil
}

// kind names a non-regular file mode for a message.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}
