package datasets

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"bomberzero/internal/atomicfile"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// ChunkMeta configures a ChunkWriter.
type ChunkMeta struct {
	// Writer identifies the worker (e.g. "host-pid-w3"); it goes into chunk
	// names and metadata. Chunk names also carry a random tag, so two
	// writers with the same Writer never collide.
	Writer string
	// GamesPerChunk, when positive, makes AddGame flush on its own once that
	// many games are buffered. Zero leaves flushing to Flush and Close.
	GamesPerChunk int
}

// ChunkWriter buffers finished games and writes them to a directory as
// chunk files. Every Flush writes all buffered games as one new chunk,
// atomically; once Flush returns nil every game added before it is on disk
// and readable. It is safe for concurrent use.
type ChunkWriter struct {
	mu       sync.Mutex
	dir      string
	meta     ChunkMeta
	tag      string // sanitized Writer plus a random tag, for file names
	seq      int64
	rows     []Row
	ids      map[string]bool // games buffered, to refuse a duplicate
	games    int
	closed   bool
	lastPath string                    // the chunk the last flush wrote
	disk     func(io.Writer) io.Writer // nil, or a test's faulty disk around the file
	now      func() time.Time          // time.Now, or a test's clock
	// codec compresses every chunk this writer writes: one codec keeps
	// its zstd encoders for the next chunk, where a codec per chunk made
	// new ones for each (self-play writes a chunk per game).
	codec *zstd.Codec
}

// NewChunkWriter returns a writer of chunks into dir, creating dir if needed.
func NewChunkWriter(dir string, meta ChunkMeta) (*ChunkWriter, error) {
	if meta.GamesPerChunk < 0 {
		return nil, fmt.Errorf("chunk writer: GamesPerChunk %d, want >= 0", meta.GamesPerChunk)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("chunk writer: %w", err)
	}
	var nonce [4]byte
	rand.Read(nonce[:])
	return &ChunkWriter{
		dir:   dir,
		meta:  meta,
		tag:   sanitizeWriter(meta.Writer) + "-" + hex.EncodeToString(nonce[:]),
		ids:   make(map[string]bool),
		now:   time.Now,
		codec: &zstd.Codec{},
	}, nil
}

// NewGameID returns a random 64-bit game identifier as 16 hex digits, unique
// across workers and machines without coordination.
func NewGameID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// sanitizeWriter keeps a writer identity usable in a file name.
func sanitizeWriter(w string) string {
	s := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, w)
	if len(s) > 40 {
		s = s[:40]
	}
	if s == "" {
		s = "w"
	}
	return s
}

// AddGame validates g and buffers a copy of it (g may be reused afterwards).
// With GamesPerChunk set it flushes when the buffer is full; a flush error
// is returned and the game stays buffered for the next Flush.
func (w *ChunkWriter) AddGame(g *GameRecord) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("chunk writer: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return fmt.Errorf("chunk writer: AddGame %s after Close", g.ID)
	}
	if w.ids[g.ID] {
		return fmt.Errorf("chunk writer: game %s added twice", g.ID)
	}
	n := len(w.rows)
	w.rows = appendRows(w.rows, g)
	for i := n; i < len(w.rows); i++ {
		r := &w.rows[i]
		r.PolicyIndex = slices.Clone(r.PolicyIndex)
		r.MoveText = slices.Clone(r.MoveText)
		r.Visits = slices.Clone(r.Visits)
	}
	w.ids[g.ID] = true
	w.games++
	if w.meta.GamesPerChunk > 0 && w.games >= w.meta.GamesPerChunk {
		return w.flush()
	}
	return nil
}

// Buffered returns the number of games added but not yet written.
func (w *ChunkWriter) Buffered() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.games
}

// Flush writes the buffered games as one chunk and returns its path ("" when
// nothing was buffered). On error (a full disk, say) no partial chunk is
// visible and the games stay buffered, so a later Flush can retry.
func (w *ChunkWriter) Flush() (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return "", errors.New("chunk writer: Flush after Close")
	}
	if err := w.flush(); err != nil {
		return "", err
	}
	return w.lastPath, nil
}

// Close flushes the buffered games and stops the writer. On error the games
// stay buffered and Close may be called again.
func (w *ChunkWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	if err := w.flush(); err != nil {
		return err
	}
	w.closed = true
	return nil
}

// flush writes the buffer as one chunk; w.mu is held.
func (w *ChunkWriter) flush() error {
	w.lastPath = ""
	if w.games == 0 {
		return nil
	}
	info := ChunkInfo{
		Version:   FormatVersion,
		Writer:    w.meta.Writer,
		Sequence:  w.seq,
		Created:   w.now().UTC(),
		Positions: len(w.rows),
		Games:     w.games,
		Checksum:  checksumRows(w.rows, FormatVersion),
	}
	for i := range w.rows {
		if w.rows[i].FullSearch {
			info.FullPositions++
		}
	}
	base := fmt.Sprintf("chunk-%s-%s-%06d", info.Created.Format("20060102T150405.000000000Z"), w.tag, w.seq)
	var file bytes.Buffer
	if err := writeRowsWith(w.codec, &file, w.rows, &info); err != nil {
		return fmt.Errorf("chunk writer: %d games not written: %w", w.games, err)
	}
	info.Name = base + "-" + nameHash(file.Bytes()) + ".parquet"
	err := atomicfile.Write(filepath.Join(w.dir, info.Name), func(out io.Writer) error {
		if w.disk != nil {
			out = w.disk(out)
		}
		_, err := out.Write(file.Bytes())
		return err
	})
	renamed := atomicfile.Published(err)
	if err != nil && !renamed {
		return fmt.Errorf("chunk writer: %d games not written: %w", w.games, err)
	}
	// Once renamed, the chunk is visible and complete: the games are not
	// kept for a retry, which would write them twice.
	games := w.games
	w.lastPath = filepath.Join(w.dir, info.Name)
	w.seq++
	w.rows = nil
	clear(w.ids)
	w.games = 0
	if err != nil {
		return fmt.Errorf("chunk writer: %d games written to %s, but it may not survive a crash: %w", games, w.lastPath, err)
	}
	return nil
}

// writeRows writes rows as a Parquet file carrying info's metadata.
func writeRows(out io.Writer, rows []Row, info *ChunkInfo) error {
	return writeRowsWith(&zstd.Codec{}, out, rows, info)
}

// writeRowsWith is writeRows compressing with codec (nil: a new one).
func writeRowsWith(codec *zstd.Codec, out io.Writer, rows []Row, info *ChunkInfo) error {
	if codec == nil {
		codec = &zstd.Codec{}
	}
	opts := []parquet.WriterOption{
		parquet.Compression(codec),
		parquet.CreatedBy("bomberzero", fmt.Sprint(FormatVersion), ""),
	}
	for _, kv := range info.metadata() {
		opts = append(opts, parquet.KeyValueMetadata(kv[0], kv[1]))
	}
	pw := parquet.NewGenericWriter[Row](out, opts...)
	if _, err := pw.Write(rows); err != nil {
		return fmt.Errorf("encoding rows: %w", err)
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("encoding rows: %w", err)
	}
	return nil
}
