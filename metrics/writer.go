package metrics

import (
	"bomberzero/internal/atomicfile"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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
	torn *Torn // what OpenWriter cut, nil if nothing
}

// Torn is a torn last line that OpenWriter cut off: the record a writer
// was killed in the middle of.
type Torn struct {
	Path  string
	Line  int    // its line number, from 1
	Bytes int64  // its length
	Text  string // its first bytes (at most 200)
}

// Generation returns the generation the torn record was for, read from
// its text, and false when the text was cut before the number.
func (t *Torn) Generation() (int, bool) {
	m := generationField.FindStringSubmatch(t.Text)
	if m == nil {
		return 0, false
	}
	g, err := strconv.Atoi(m[1])
	return g, err == nil
}

// generationField finds a record's generation in its text.
var generationField = regexp.MustCompile(`"generation":(\d+)[,}]`)

// Warning is the line a caller shows for t.
func (t *Torn) Warning() string {
	return fmt.Sprintf("%s:%d: the last line is torn (%d bytes without a newline: a writer killed mid-record) and was cut off", t.Path, t.Line, t.Bytes)
}

// Torn returns what OpenWriter cut off, or nil when the file ended with a
// whole line.
func (w *Writer) Torn() *Torn { return w.torn }

// OpenWriter opens path for appending, creating it (and syncing its
// directory) if needed. A torn last line left by a killed writer (bytes
// after the last newline) is cut off first, so the next record starts on a
// line of its own; Torn says what was cut, for the caller to report.
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
	torn, err := tornAfter(f, path, end)
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
	return &Writer{f: f, path: path, torn: torn}, nil
}

// tornAfter describes the bytes of f after end (the length of its whole
// lines), or returns nil when there are none.
func tornAfter(f *os.File, path string, end int64) (*Torn, error) {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil || size == end {
		return nil, err
	}
	text := make([]byte, min(size-end, 200))
	if _, err := f.ReadAt(text, end); err != nil && err != io.EOF {
		return nil, err
	}
	line := 1
	buf := make([]byte, 64<<10)
	for off := int64(0); off < end; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), end-off)], off)
		line += bytes.Count(buf[:n], []byte{'\n'})
		off += int64(n)
		if err != nil && err != io.EOF {
			return nil, err
		}
		if n == 0 {
			break
		}
	}
	return &Torn{Path: path, Line: line, Bytes: size - end, Text: string(text)}, nil
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
