package train

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bomberzero/datasets"
	"bomberzero/internal/progress"
	"bomberzero/internal/readfile"
)

// ManifestEntry is manifest/NAME.json: a worker's word that the chunk
// data/NAME is complete, with what it holds. The trainer reads a chunk only
// through its entry, and only if the chunk's bytes have the entry's SHA-256.
type ManifestEntry struct {
	Version   int    `json:"version"`
	Chunk     string `json:"chunk"` // the chunk's key: data/NAME
	SHA256    string `json:"sha256"`
	Size      int64  `json:"size"`
	Games     int    `json:"games"`
	Positions int    `json:"positions"`
	// Generation is the work order's generation the games were played for.
	Generation int       `json:"generation"`
	Writer     string    `json:"writer"`
	Written    time.Time `json:"written"`
}

const manifestVersion = 1

// manifestKey is the key of the manifest entry of chunk name.
func manifestKey(name string) string { return manifestDir + "/" + name + ".json" }

// pollEvery is how often a trainer looks for newly landed chunks, and a
// worker or evaluator for a new model; a trainer that finds nothing new
// waits twice as long before each next look, up to maxPoll.
const (
	pollEvery = 2 * time.Second
	maxPoll   = 16 * time.Second
)

// collect is the trainer role's self-play phase: it waits for the
// workers' games of this generation to land in the store and copies each
// new chunk (one with a manifest entry, verified against it) into the run
// directory, until the generation has its games. Games played for an older
// work order (a worker finishing its batch, or playing on while the trainer
// trains) are collected and trained on too, but only the generation's own
// games count towards its number: each generation has that many games of
// its own model.
func (r *runner) collect(ctx context.Context) error {
	want := r.cfg.GamesIn(r.st.Generation)
	if r.teaching() {
		want = r.cfg.Teacher.GamesIn(r.st.Generation)
	}
	known, err := r.knownChunks(ctx)
	if err != nil {
		return err
	}
	have := 0
	for _, name := range r.st.GenChunks {
		c, err := datasets.ReadChunk(filepath.Join(r.dir, dataDir, name))
		if err != nil {
			return fmt.Errorf("train: collected chunk: %w", err)
		}
		have += r.ownGames(c)
	}
	r.reportOrphans(ctx, known)
	what := fmt.Sprintf("gen %d collecting workers' games", r.st.Generation)
	bar := progress.New(r.opt.Progress, want, what, "games")
	bar.Set(have)
	t0 := time.Now()
	warned := map[string]bool{}
	wait := pollEvery
	for have < want {
		before := len(r.st.GenChunks)
		n, err := r.collectNew(ctx, known, warned)
		if err != nil {
			bar.Stop()
			return err
		}
		if len(r.st.GenChunks) > before {
			have += n
			bar.Set(min(have, want))
			r.st.SelfPlaySeconds += time.Since(t0).Seconds()
			t0 = time.Now()
			if err := r.save(); err != nil {
				bar.Stop()
				return err
			}
			wait = pollEvery
			continue
		}
		select {
		case <-ctx.Done():
			bar.Stop()
			r.st.SelfPlaySeconds += time.Since(t0).Seconds()
			if err := r.save(); err != nil {
				return err
			}
			return errStop
		case <-time.After(wait):
		}
		// Nothing landed: look less often (each look lists the manifest),
		// up to maxPoll.
		wait = min(2*wait, maxPoll)
	}
	bar.Finish()
	r.st.SelfPlaySeconds += time.Since(t0).Seconds()
	r.st.Phase = phaseTrain
	return r.save()
}

// knownChunks returns the chunks this run collected before (the ingested
// lists of finished generations and this generation's), restoring any
// that the run directory lacks (a trainer restarted on a new machine)
// from the store.
func (r *runner) knownChunks(ctx context.Context) (map[string]bool, error) {
	known := map[string]bool{}
	entries, err := os.ReadDir(filepath.Join(r.dir, ingestedDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("train: %w", err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		p := filepath.Join(r.dir, ingestedDir, e.Name())
		data, err := readfile.Regular(p, 64<<20)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		var names []string
		if err := json.Unmarshal(data, &names); err != nil {
			return nil, fmt.Errorf("train: %s: %w", p, err)
		}
		for _, n := range names {
			known[n] = true
		}
	}
	for _, n := range r.st.GenChunks {
		known[n] = true
	}
	restored := 0
	for n := range known {
		dst := filepath.Join(r.dir, dataDir, n)
		if _, err := os.Stat(dst); err == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(r.dir, dataDir, quarantineDir, n)); err == nil {
			continue
		}
		if err := r.remote.store.Download(ctx, dataDir+"/"+n, dst, datasets.MaxChunkBytes); err != nil {
			return nil, fmt.Errorf("train: restoring collected chunk %s: %w", n, err)
		}
		restored++
	}
	if restored > 0 {
		r.logf("train: restored %d collected chunks from %s", restored, r.remote.store)
	}
	return known, nil
}

// collectNew copies the chunks whose manifest entries are new into the
// run directory and adds them to the generation; it returns the games of
// the generation's own work order they hold. A chunk that does not match its entry is reported once and
// left out; a manifest entry that cannot be read is reported once.
func (r *runner) collectNew(ctx context.Context, known, warned map[string]bool) (int, error) {
	s := r.remote.store
	objs, err := s.List(ctx, manifestDir+"/")
	if err != nil {
		if ctx.Err() != nil {
			return 0, nil
		}
		return 0, fmt.Errorf("train: %w", err)
	}
	games := 0
	for _, o := range objs {
		name := strings.TrimSuffix(strings.TrimPrefix(o.Key, manifestDir+"/"), ".json")
		if known[name] || warned[name] || !validChunkName(name) {
			continue
		}
		c, data, err := r.fetchChunk(ctx, name)
		if ctx.Err() != nil {
			return games, nil
		}
		if err != nil {
			warned[name] = true
			r.logf("train: worker chunk %s left out: %v", name, err)
			continue
		}
		if err := writeAtomic(filepath.Join(r.dir, dataDir, name), data); err != nil {
			return games, err
		}
		known[name] = true
		r.st.GenChunks = append(r.st.GenChunks, name)
		games += r.ownGames(c)
	}
	return games, nil
}

// ownGames counts the games of chunk c played for the current generation's
// work order.
func (r *runner) ownGames(c *datasets.Chunk) int {
	n := 0
	for _, g := range datasets.Games(c.Rows) {
		if g.Generation == r.st.Generation {
			n++
		}
	}
	return n
}

// fetchChunk reads chunk name and its manifest entry from the store and
// checks them against each other and the chunk's own checksums.
func (r *runner) fetchChunk(ctx context.Context, name string) (*datasets.Chunk, []byte, error) {
	s := r.remote.store
	var e ManifestEntry
	raw, err := s.Read(ctx, manifestKey(name), 64<<10)
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, nil, fmt.Errorf("manifest entry: %w", err)
	}
	if e.Version != manifestVersion || e.Chunk != dataDir+"/"+name || e.Size <= 0 || e.Size > datasets.MaxChunkBytes {
		return nil, nil, fmt.Errorf("manifest entry: version %d, chunk %q, size %d: want version %d, chunk %q and a size up to %d",
			e.Version, e.Chunk, e.Size, manifestVersion, dataDir+"/"+name, datasets.MaxChunkBytes)
	}
	data, err := s.Read(ctx, e.Chunk, e.Size)
	if err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != e.SHA256 || int64(len(data)) != e.Size {
		return nil, nil, fmt.Errorf("%d bytes with SHA-256 %s, its manifest entry says %d bytes with %s", len(data), got, e.Size, e.SHA256)
	}
	c, err := datasets.ParseChunk(data, s.String()+"/"+e.Chunk)
	if err != nil {
		return nil, nil, err
	}
	if c.Info.Games != e.Games || c.Info.Positions != e.Positions {
		return nil, nil, fmt.Errorf("holds %d games and %d positions, its manifest entry says %d and %d", c.Info.Games, c.Info.Positions, e.Games, e.Positions)
	}
	return c, data, nil
}

// orphanAge is how old a chunk without a manifest entry must be before it
// is reported: younger, its worker may still be writing the entry.
const orphanAge = 10 * time.Minute

// reportOrphans says which chunks of the store have no manifest entry
// though they are older than orphanAge: a worker was killed between
// landing the chunk and its entry, so the chunk is never read. They are
// reported, not deleted (a person may want to look at them).
func (r *runner) reportOrphans(ctx context.Context, known map[string]bool) {
	s := r.remote.store
	chunks, err := s.List(ctx, dataDir+"/")
	if err != nil {
		r.logf("train: listing the store's chunks: %v", err)
		return
	}
	entries, err := s.List(ctx, manifestDir+"/")
	if err != nil {
		r.logf("train: listing the store's manifest: %v", err)
		return
	}
	has := map[string]bool{}
	for _, e := range entries {
		has[strings.TrimSuffix(strings.TrimPrefix(e.Key, manifestDir+"/"), ".json")] = true
	}
	now, err := s.Now(ctx)
	if err != nil {
		r.logf("train: reading the store's clock: %v", err)
		return
	}
	var orphans []string
	for _, c := range chunks {
		name := strings.TrimPrefix(c.Key, dataDir+"/")
		if !has[name] && !known[name] && now.Sub(c.ModTime) > orphanAge {
			orphans = append(orphans, name)
		}
	}
	if len(orphans) > 0 {
		r.logf("train: %d chunks in %s/%s have no manifest entry (their workers were stopped between the two writes); they are not read: %s",
			len(orphans), s, dataDir, strings.Join(orphans[:min(len(orphans), 10)], ", "))
	}
}

// validChunkName reports whether name can be a chunk's base name: a
// Parquet file name with no path in it.
func validChunkName(name string) bool {
	return datasets.IsChunkName(name) && name == path.Base(name) && !strings.ContainsAny(name, `/\`) && name != ".." && name != "."
}

// writeIngested records, at the end of a trainer's generation, the chunks
// it collected, so that a trainer restarted anywhere knows them.
func (r *runner) writeIngested() error {
	if len(r.st.GenChunks) == 0 {
		return nil
	}
	names := slices.Clone(r.st.GenChunks)
	data, err := json.Marshal(names)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	dir := filepath.Join(r.dir, ingestedDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return writeAtomic(filepath.Join(dir, genName(r.st.Generation)+".json"), data)
}
