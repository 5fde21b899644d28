package metrics

import (
	"bomberzero/internal/atomicfile"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Writer appends records to a metrics.jsonl file, one JSON object a line,
// syncing the file after every record so that a record Append returned for
// survives a crash. It is safe for concurrent use.
type Writer struct {
	mu   sync.Mutex
	f    *os.File
	path string
}

// OpenWriter opens path for appending, creating it (and syncing its
// directory) if needed. A torn last line left by a killed writer (bytes
// after the last newline) is cut off first, so the next record starts on a
// line of its own.
func OpenWriter(path string) (*Writer, error) {
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	if os.IsNotExist(statErr) {
		if err := atomicfile.SyncDir(filepath.Dir(path)); err != nil {
			f.Close()
			return nil, fmt.Errorf("metrics: %w", err)
		}
	}
	end, err := completeLength(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("metrics: %s: %w", path, err)
	}
	if err := f.Truncate(end); err != nil {
		f.Close()
		return nil, fmt.Errorf("metrics: %s: cutting the torn last line: %w", path, err)
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("metrics: %s: %w", path, err)
	}
	return &Writer{f: f, path: path}, nil
}

// completeLength returns the length of f up to and including its last
// newline (0 when it has none).
func completeLength(f *os.File) (int64, error) {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return 0, err
	}
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(0, end-int64(len(buf)))
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// Append writes r as one line and syncs the file. It fills in Version, and
// Time when it is zero.
func (w *Writer) Append(r Record) error {
	r.Version = Version
	if r.Time.IsZero() {
		r.Time = time.Now().UTC()
	}
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("metrics: %s: encoding generation %d: %w", w.path, r.Generation, err)
	}
	line = append(line, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return fmt.Errorf("metrics: %s: writer closed", w.path)
	}
	if _, err := w.f.Write(line); err != nil {
		return fmt.Errorf("metrics: %s: %w", w.path, err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("metrics: %s: sync: %w", w.path, err)
	}
	return nil
}

// Close closes the file.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	if err != nil {
		return fmt.Errorf("metrics: %s: %w", w.path, err)
	}
	return nil
}
