package datasets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"bomberzero/internal/atomicfile"
)

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
		if e.IsDir() || !atomicfile.IsTemp(e.Name()) {
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
