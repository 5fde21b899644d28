package runstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bomberzero/internal/atomicfile"
	"bomberzero/internal/readfile"
)

// MirrorFile is the name, inside a mirrored directory, of the record of
// what Push has stored: each file's size, modification time and SHA-256
// when it was last pushed or pulled.
const MirrorFile = ".mirror.json"

// MaxFile bounds every file a Mirror moves (a checkpoint, a chunk, a
// metrics file): far above what a run writes, far below what would
// exhaust memory.
const MaxFile = 1 << 30

// Mirror keeps a local directory and a store prefix alike, so that a
// program that works in a local directory (the training loop) can keep
// its files in an object store: Pull copies the store into the
// directory when the work starts on a machine, and Push copies what
// changed back after each step. The store's copy is always one the
// program could resume from: Push stores new and changed files first,
// then the files named Last in their order (the state that points to
// the others), and only then deletes what the directory no longer has.
// It deletes only objects that it stored or pulled itself, never objects
// other programs write under the same prefix.
type Mirror struct {
	Store *Store
	Dir   string
	// Skip are key prefixes (with a trailing "/" for a folder) that the
	// mirror neither pushes nor pulls.
	Skip []string
	// Last are the keys pushed after every other file, in this order.
	Last []string
	// Mutable are key prefixes of files that change in place (a state,
	// a config, an appended metrics file): Pull copies them whatever the
	// local copy's size. Every other file is written once under its name
	// and is pulled only when missing or of another size.
	Mutable []string

	// beforeWrite, when set (by tests), runs before each object is
	// stored; an error stops Push there, as a kill would.
	beforeWrite func(key string) error
}

// record is MirrorFile's content.
type record struct {
	Version int                   `json:"version"`
	Files   map[string]recordFile `json:"files"`
}

type recordFile struct {
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
	SHA256  string    `json:"sha256"`
}

const recordVersion = 1

func (m *Mirror) load() (*record, error) {
	path := filepath.Join(m.Dir, MirrorFile)
	data, err := readfile.Regular(path, 64<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return &record{Version: recordVersion, Files: map[string]recordFile{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil || r.Version != recordVersion || r.Files == nil {
		// A damaged record costs only re-uploads: start afresh.
		return &record{Version: recordVersion, Files: map[string]recordFile{}}, nil
	}
	return &r, nil
}

func (m *Mirror) save(r *record) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(m.Dir, MirrorFile), data); err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	return nil
}

// skipped reports whether key is outside the mirror: a Skip prefix, or a
// hidden name (lock files, temporary files, the mirror's record) in any
// folder.
func (m *Mirror) skipped(key string) bool {
	for _, p := range m.Skip {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	for _, part := range strings.Split(key, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// mutable reports whether key may change in place.
func (m *Mirror) mutable(key string) bool {
	for _, ps := range [][]string{m.Mutable, m.Last} {
		for _, p := range ps {
			if strings.HasPrefix(key, p) {
				return true
			}
		}
	}
	return false
}

// localFiles returns the keys of the directory's regular files (slash
// separated, relative to Dir) that the mirror covers.
func (m *Mirror) localFiles() (map[string]fs.FileInfo, error) {
	files := map[string]fs.FileInfo{}
	err := filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(m.Dir, p)
		if err != nil || rel == "." {
			return err
		}
		key := filepath.ToSlash(rel)
		if d.IsDir() {
			if m.skipped(key + "/") {
				return filepath.SkipDir
			}
			return nil
		}
		if m.skipped(key) || !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files[key] = fi
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	return files, nil
}

// Push stores every file of the directory that is new or changed since it
// was last pushed or pulled, then the Last files, then deletes the
// objects of files the directory no longer has. It returns the number of
// files stored.
func (m *Mirror) Push(ctx context.Context) (int, error) {
	rec, err := m.load()
	if err != nil {
		return 0, err
	}
	files, err := m.localFiles()
	if err != nil {
		return 0, err
	}
	keys := make([]string, 0, len(files))
	for k := range files {
		if !slices.Contains(m.Last, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range m.Last {
		if _, ok := files[k]; ok {
			keys = append(keys, k)
		}
	}
	pushed := 0
	for _, k := range keys {
		fi := files[k]
		old, known := rec.Files[k]
		if known && old.Size == fi.Size() && old.ModTime.Equal(fi.ModTime()) {
			continue
		}
		data, err := readfile.Regular(filepath.Join(m.Dir, filepath.FromSlash(k)), MaxFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since the walk
		}
		if err != nil {
			return pushed, fmt.Errorf("mirror: %w", err)
		}
		sum := sha256.Sum256(data)
		f := recordFile{Size: int64(len(data)), ModTime: fi.ModTime(), SHA256: hex.EncodeToString(sum[:])}
		if known && old.SHA256 == f.SHA256 {
			rec.Files[k] = f // touched, not changed
			continue
		}
		if m.beforeWrite != nil {
			if err := m.beforeWrite(k); err != nil {
				return pushed, err
			}
		}
		if err := m.Store.Write(ctx, k, data); err != nil {
			return pushed, fmt.Errorf("mirror: %w", err)
		}
		rec.Files[k] = f
		pushed++
	}
	// Record the uploads before deleting anything: a kill after this line
	// re-deletes at most, never re-uploads.
	if err := m.save(rec); err != nil {
		return pushed, err
	}
	var gone []string
	for k := range rec.Files {
		if _, ok := files[k]; !ok {
			gone = append(gone, k)
		}
	}
	slices.Sort(gone)
	for _, k := range gone {
		if err := m.Store.Delete(ctx, k); err != nil {
			return pushed, fmt.Errorf("mirror: %w", err)
		}
		delete(rec.Files, k)
	}
	if len(gone) > 0 {
		if err := m.save(rec); err != nil {
			return pushed, err
		}
	}
	return pushed, nil
}

// Pull copies into the directory every object of the store that the
// directory lacks or holds with another size, and records them as pushed.
// It deletes nothing. It returns the number of files copied.
func (m *Mirror) Pull(ctx context.Context) (int, error) {
	rec, err := m.load()
	if err != nil {
		return 0, err
	}
	objs, err := m.Store.List(ctx, "")
	if err != nil {
		return 0, fmt.Errorf("mirror: %w", err)
	}
	pulled := 0
	for _, o := range objs {
		if m.skipped(o.Key) || !cleanKey(o.Key) {
			continue
		}
		dst := filepath.Join(m.Dir, filepath.FromSlash(o.Key))
		if fi, err := os.Lstat(dst); err == nil && fi.Size() == o.Size && !m.mutable(o.Key) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return pulled, fmt.Errorf("mirror: %w", err)
		}
		data, err := m.Store.Read(ctx, o.Key, MaxFile)
		if err != nil {
			return pulled, fmt.Errorf("mirror: %w", err)
		}
		if err := atomicfile.WriteFile(dst, data); err != nil {
			return pulled, fmt.Errorf("mirror: %w", err)
		}
		fi, err := os.Stat(dst)
		if err != nil {
			return pulled, fmt.Errorf("mirror: %w", err)
		}
		sum := sha256.Sum256(data)
		rec.Files[o.Key] = recordFile{Size: fi.Size(), ModTime: fi.ModTime(), SHA256: hex.EncodeToString(sum[:])}
		pulled++
	}
	return pulled, m.save(rec)
}

// cleanKey reports whether key is a relative slash path that stays inside
// the directory (no "..", no absolute path, no empty element), so that a
// crafted object name cannot write outside it.
func cleanKey(key string) bool {
	if key == "" || strings.HasPrefix(key, "/") || strings.Contains(key, "\\") {
		return false
	}
	for _, part := range strings.Split(key, "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return true
}
