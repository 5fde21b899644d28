package datasets

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"

	"bomberzero/env"
	"bomberzero/internal/readfile"
)

// ChunkError says why one chunk file cannot be used. Readers skip such a
// chunk and go on with the rest of the directory.
type ChunkError struct {
	Path string // the chunk file
	Err  error  // what is wrong with it
}

func (e *ChunkError) Error() string { return fmt.Sprintf("chunk %s: %v", e.Path, e.Err) }
func (e *ChunkError) Unwrap() error { return e.Err }

// ErrCorrupt is wrapped by every ChunkError about a damaged, truncated or
// foreign file (as opposed to one that could not be read at all).
var ErrCorrupt = errors.New("corrupt chunk")

// ErrForeign is wrapped, with ErrCorrupt, by the ChunkError of a chunk of
// another variant than the data it sits in (WindowConfig.Variant).
var ErrForeign = errors.New("a chunk of another variant")

// Chunk is one chunk file read and verified in full.
type Chunk struct {
	Info ChunkInfo
	Rows []Row // a game's rows are contiguous and in ply order
}

// rowSchema is the Parquet schema of Row, computed once.
var rowSchema = parquet.SchemaOf(Row{})

// MaxChunkBytes is the largest chunk file readers accept: far above any
// chunk a writer makes (a few MB), and a bound on what a damaged or foreign
// file can make a reader allocate.
const MaxChunkBytes = 1 << 30

// minParquetSize is the smallest possible Parquet file: magic, footer
// length, magic.
const minParquetSize = 12

// IsChunkName reports whether a directory entry's name is a published chunk
// (not a temporary file of a writer still at work or killed).
func IsChunkName(name string) bool {
	return strings.HasSuffix(name, ".parquet") && !strings.HasPrefix(name, ".")
}

// List returns the chunks of dir in chunk order (oldest first), reading
// only their footers. Chunks that cannot be used are left out and returned
// as ChunkErrors; err is only for a directory that cannot be listed.
func List(dir string) (chunks []ChunkInfo, problems []*ChunkError, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("listing chunks: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !IsChunkName(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		info, err := Stat(path)
		if err != nil {
			problems = append(problems, asChunkError(path, err))
			continue
		}
		chunks = append(chunks, info)
	}
	SortChunks(chunks)
	chunks, dups := Dedupe(chunks)
	return chunks, append(problems, dups...), nil
}

// ErrDuplicate is wrapped by the ChunkError of a chunk whose rows are
// those of another chunk (a copy, under another name): its games are
// counted and trained on once, from the first in chunk order.
var ErrDuplicate = errors.New("duplicate chunk")

// Dedupe keeps the first chunk (in the order given) of each row checksum,
// the chunk's identity, and returns the others as ChunkErrors wrapping
// ErrDuplicate.
func Dedupe(chunks []ChunkInfo) (unique []ChunkInfo, dups []*ChunkError) {
	first := make(map[string]string, len(chunks))
	unique = chunks[:0:0]
	for _, c := range chunks {
		if name, ok := first[c.Checksum]; ok {
			dups = append(dups, &ChunkError{Path: c.Path, Err: fmt.Errorf("%w: its rows are those of %s (SHA-256 %s)", ErrDuplicate, name, c.Checksum)})
			continue
		}
		first[c.Checksum] = c.Name
		unique = append(unique, c)
	}
	return unique, dups
}

// SortChunks puts chunks in chunk order, oldest first.
func SortChunks(chunks []ChunkInfo) {
	slices.SortFunc(chunks, func(a, b ChunkInfo) int {
		switch {
		case a.Before(&b):
			return -1
		case b.Before(&a):
			return 1
		}
		return 0
	})
}

func asChunkError(path string, err error) *ChunkError {
	var ce *ChunkError
	if errors.As(err, &ce) {
		return ce
	}
	return &ChunkError{Path: path, Err: err}
}

// Stat reads a chunk's footer and returns its description without decoding
// its rows. It does read the whole file, to check the content hash in the
// file's name before any Parquet decoding.
func Stat(path string) (ChunkInfo, error) {
	data, err := readfile.Regular(path, MaxChunkBytes)
	if err != nil {
		return ChunkInfo{}, &ChunkError{Path: path, Err: err}
	}
	if err := checkNameHash(data, path); err != nil {
		return ChunkInfo{}, err
	}
	info, _, err := openChunk(data, path, false)
	return info, err
}

// ReadChunk reads a chunk file in full and verifies it: the content hash in
// its name (checked before any decoding, so no damaged byte reaches the
// Parquet decoder), Parquet page CRCs, the schema, the row count, the
// SHA-256 over the rows and the record invariants (valid games, contiguous
// and unique game IDs, derived columns consistent). Any fault is a
// *ChunkError naming the file.
func ReadChunk(path string) (*Chunk, error) {
	data, err := readfile.Regular(path, MaxChunkBytes)
	if err != nil {
		return nil, &ChunkError{Path: path, Err: err}
	}
	return readChunkBytes(data, path)
}

// ParseChunk is ReadChunk on a chunk's bytes already in memory (a chunk
// read from an object store): path is where they came from, and its base
// name must be the chunk's name (it carries the content hash).
func ParseChunk(data []byte, path string) (*Chunk, error) { return readChunkBytes(data, path) }

// readChunkBytes is ReadChunk on the bytes of the file at path.
func readChunkBytes(data []byte, path string) (*Chunk, error) {
	if err := checkNameHash(data, path); err != nil {
		return nil, err
	}
	return decodeChunk(data, path)
}

// nameHashDigits is the number of hex digits of the file's SHA-256 that a
// chunk's name ends with, before ".parquet".
const nameHashDigits = 16

// nameHash returns the content hash a chunk holding data carries in its name.
func nameHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:nameHashDigits/2])
}

// checkNameHash verifies that the file's bytes hash to the value in its
// name, so that truncation or a flipped bit anywhere (footer included) is
// caught before the Parquet decoder, which trusts lengths in the footer and
// page headers, sees the bytes.
func checkNameHash(data []byte, path string) error {
	base := strings.TrimSuffix(filepath.Base(path), ".parquet")
	i := strings.LastIndexByte(base, '-')
	want := base[i+1:]
	if i < 0 || len(want) != nameHashDigits || strings.Trim(want, "0123456789abcdef") != "" {
		return &ChunkError{Path: path, Err: fmt.Errorf("%w: name does not end in -<%d hex digits of the content's SHA-256>.parquet (renamed?)", ErrCorrupt, nameHashDigits)}
	}
	if got := nameHash(data); got != want {
		return &ChunkError{Path: path, Err: fmt.Errorf("%w: content SHA-256 starts %s, the name says %s (%d bytes: damaged or truncated)", ErrCorrupt, got, want, len(data))}
	}
	return nil
}

// decodeChunk is ReadChunk on the file's bytes.
func decodeChunk(data []byte, path string) (c *Chunk, err error) {
	info, pf, err := openChunk(data, path, true)
	if err != nil {
		return nil, err
	}
	corrupt := func(format string, args ...any) error { return corruptChunk(path, format, args...) }
	defer func() { // the checks below run on rows a damaged file produced
		if p := recover(); p != nil {
			c, err = nil, corrupt("decoding rows: %v", p)
		}
	}()
	rows, err := decodeRows[Row](pf, info.Positions, path)
	if err != nil {
		return nil, err
	}
	if sum := checksumRows(rows, info.Version); sum != info.Checksum {
		return nil, corrupt("SHA-256 of the rows is %s, metadata says %s", sum, info.Checksum)
	}
	if err := checkRows(rows, &info); err != nil {
		return nil, corrupt("%v", err)
	}
	info.Name = filepath.Base(path)
	return &Chunk{Info: info, Rows: rows}, nil
}

// OpenParquet opens the footer of a Parquet file held in data after
// checking its end marker, its footer's length and every Thrift structure
// of the footer (the decoder trusts the lengths it reads and would
// allocate whatever a damaged or forged footer says). Before decoding
// rows, check the page headers too (CheckPages). It may panic on what
// the checks cannot see; callers recover.
func OpenParquet(data []byte) (*parquet.File, error) {
	size := int64(len(data))
	if size < minParquetSize {
		return nil, fmt.Errorf("%d bytes, too short for a Parquet file (truncated?)", size)
	}
	if string(data[size-4:]) != "PAR1" {
		return nil, errors.New("no Parquet end marker (truncated or not a Parquet file)")
	}
	if footer := int64(binary.LittleEndian.Uint32(data[size-8:])); footer > size-minParquetSize {
		return nil, fmt.Errorf("footer length %d does not fit in the file's %d bytes (truncated?)", footer, size)
	}
	if err := checkFooter(data); err != nil {
		return nil, err
	}
	return parquet.OpenFile(bytes.NewReader(data), size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
}

// openChunk opens the Parquet footer of a chunk held in data and checks its
// metadata and schema; with pages it also walks every page header, as a
// decoder of the rows needs.
func openChunk(data []byte, path string, pages bool) (info ChunkInfo, pf *parquet.File, err error) {
	corrupt := func(format string, args ...any) error { return corruptChunk(path, format, args...) }
	defer func() {
		if p := recover(); p != nil {
			info, pf, err = ChunkInfo{}, nil, corrupt("reading the Parquet footer: %v", p)
		}
	}()
	size := int64(len(data))
	if pf, err = OpenParquet(data); err != nil {
		return info, nil, corrupt("%v", err)
	}
	if err := info.parseMetadata(pf.Lookup); err != nil {
		return info, nil, corrupt("%v", err)
	}
	if err := checkSchema(pf.Schema(), info.Version); err != nil {
		return info, nil, corrupt("schema differs from format version %d's: %v", info.Version, err)
	}
	if rows := pf.NumRows(); rows != int64(info.Positions) {
		return info, nil, corrupt("footer has %d rows, metadata says %d positions", rows, info.Positions)
	}
	if pages {
		if err := CheckPages(pf, data); err != nil {
			return info, nil, corrupt("%v", err)
		}
	}
	info.Path = path
	info.Name = filepath.Base(path)
	info.Size = size
	return info, pf, nil
}

// checkSchema checks a chunk's schema against its format version's: Row's
// columns in order, without those added after the version.
func checkSchema(file parquet.Node, version int) error {
	var want []parquet.Field
	for _, f := range rowSchema.Fields() {
		if v, ok := addedColumns[f.Name()]; !ok || v <= version {
			want = append(want, f)
		}
	}
	got := file.Fields()
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			return fmt.Errorf("column %s missing", want[i].Name())
		case i >= len(want):
			return fmt.Errorf("unexpected column %s", got[i].Name())
		case got[i].Name() != want[i].Name() || !parquet.EqualNodes(got[i], want[i]):
			return fmt.Errorf("column %d is %s %v, want %s %v", i, got[i].Name(), got[i].Type(), want[i].Name(), want[i].Type())
		}
	}
	return nil
}

// checkRows verifies the record invariants of a decoded chunk against its
// metadata.
func checkRows(rows []Row, info *ChunkInfo) error {
	full := 0
	for i := range rows {
		r := &rows[i]
		if r.FullSearch {
			full++
		}
		want := r.ResultWhite
		if !r.WhiteToMove {
			want = -want
		}
		if r.ResultSTM != want {
			return fmt.Errorf("row %d (game %s ply %d): result_stm %d, want %d from result_white %d",
				i, r.GameID, r.Ply, r.ResultSTM, want, r.ResultWhite)
		}
		if len(r.WhitePieces) != len(r.PieceTypes) || len(r.BlackPieces) != len(r.PieceTypes) {
			return fmt.Errorf("row %d (game %s ply %d): piece_types, white_pieces, black_pieces have lengths %d, %d, %d",
				i, r.GameID, r.Ply, len(r.PieceTypes), len(r.WhitePieces), len(r.BlackPieces))
		}
		if i == 0 || rows[i-1].GameID != r.GameID {
			if _, err := env.ParseTermination(r.Termination); err != nil {
				return fmt.Errorf("row %d (game %s ply %d): column termination: %w", i, r.GameID, r.Ply, err)
			}
		} else if !sameGame(&rows[i-1], r) {
			return fmt.Errorf("row %d (game %s ply %d): game-level columns differ from the game's previous row", i, r.GameID, r.Ply)
		}
	}
	if full != info.FullPositions {
		return fmt.Errorf("%d full-search rows, metadata says %d", full, info.FullPositions)
	}
	games := Games(rows)
	if len(games) != info.Games {
		return fmt.Errorf("%d games, metadata says %d", len(games), info.Games)
	}
	seen := make(map[string]bool, len(games))
	start := 0
	for i := range games {
		g := &games[i]
		if seen[g.ID] {
			return fmt.Errorf("game %s split into separate runs of rows", g.ID)
		}
		seen[g.ID] = true
		if err := g.Validate(); err != nil {
			return err
		}
		if fr, _ := g.FalseResignation(); rows[start].FalseResign != fr {
			return fmt.Errorf("game %s: false_resign %v, want %v", g.ID, rows[start].FalseResign, fr)
		}
		start += len(g.Positions)
	}
	return nil
}

// sameGame reports whether two rows agree on every game-level column.
func sameGame(a, b *Row) bool {
	return a.Variant == b.Variant && a.Model == b.Model && a.Generation == b.Generation &&
		a.GameLength == b.GameLength && a.Termination == b.Termination && a.ResultWhite == b.ResultWhite &&
		a.ResignDisabled == b.ResignDisabled && a.WouldResign == b.WouldResign && a.FalseResign == b.FalseResign
}

// corruptChunk returns the error for a chunk at path that is not what it
// should be: a *ChunkError wrapping ErrCorrupt with the formatted reason.
func corruptChunk(path, format string, args ...any) error {
	return &ChunkError{Path: path, Err: fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))}
}

// decodeRows decodes the positions rows of the opened chunk pf (a chunk
// at path) as T, readBatch rows per decoder call. Rows that do not decode,
// too few rows and a panic in the decoder (on bytes it cannot read) are
// corrupt-chunk errors.
func decodeRows[T any](pf *parquet.File, positions int, path string) (rows []T, err error) {
	defer func() {
		if p := recover(); p != nil {
			rows, err = nil, corruptChunk(path, "decoding rows: %v", p)
		}
	}()
	rows = make([]T, positions)
	r := parquet.NewGenericReader[T](pf)
	defer r.Close()
	n := 0
	for n < len(rows) {
		m, err := r.Read(rows[n:min(n+readBatch, len(rows))])
		n += m
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, corruptChunk(path, "decoding rows: %v", err)
		}
	}
	if n != positions {
		return nil, corruptChunk(path, "%d rows decoded, metadata says %d", n, positions)
	}
	return rows, nil
}

// readBatch is how many rows one decoder call reconstructs: parquet-go
// keeps an intermediate row buffer as long as the request, so small
// requests keep a chunk read's transient memory small.
const readBatch = 256
