package metrics

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"bomberzero/internal/readfile"
)

// Read returns the records of the metrics file at path. A torn last line
// (no final newline, not valid JSON: a writer killed mid-record) is dropped
// and reported by torn; any other bad line is an error naming it.
func Read(path string) (recs []Record, torn bool, err error) {
	data, err := readfile.Regular(path, MaxFileBytes)
	if err != nil {
		return nil, false, fmt.Errorf("metrics: %w", err)
	}
	return Decode(bytes.NewReader(data), path)
}

// MaxFileBytes is the largest metrics file Read reads (a generation's
// record is a few kilobytes: this is tens of thousands of generations); a
// larger file, a FIFO or a device is refused, naming it.
const MaxFileBytes = 256 << 20

// Decode reads records from r; name labels errors (a file name).
func Decode(r io.Reader, name string) (recs []Record, torn bool, err error) {
	br := bufio.NewReader(r)
	for line := 1; ; line++ {
		text, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return recs, false, fmt.Errorf("metrics: %s:%d: %w", name, line, err)
		}
		complete := len(text) > 0 && text[len(text)-1] == '\n'
		body := bytes.TrimSpace(text)
		if len(body) > 0 {
			// Two writers at once (before run directories were locked)
			// could leave two whole records on one line: each is read.
			dec := json.NewDecoder(bytes.NewReader(body))
			var got []Record
			var derr error
			for derr == nil && dec.More() {
				var rec Record
				if derr = dec.Decode(&rec); derr == nil {
					got = append(got, rec)
				}
			}
			switch {
			case derr != nil && !complete:
				return recs, true, nil // the torn last line
			case derr != nil:
				return recs, false, fmt.Errorf("metrics: %s:%d: %v (a damaged line: delete it, or split it into whole records one a line)", name, line, derr)
			}
			for _, rec := range got {
				if rec.Version < 1 || rec.Version > Version {
					return recs, false, fmt.Errorf("metrics: %s:%d: schema version %d, this program reads 1 to %d", name, line, rec.Version, Version)
				}
			}
			recs = append(recs, got...)
		}
		if err == io.EOF {
			return recs, false, nil
		}
	}
}
