package learn

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/internal/atomicfile"
	"bomberzero/internal/readfile"
)

// Row is one searched position of an engine self-play game.
type Row struct {
	// FEN is the position's text (env's ParsePosition reads it).
	FEN string `parquet:"fen"`
	// Score is the search's score in centipawns for the side to move.
	Score int32 `parquet:"score"`
	// Result is the game's result for the side to move: 1, 0.5 or 0.
	Result float32 `parquet:"result"`
	// Ply is the position's ply in its game, from 0.
	Ply int32 `parquet:"ply"`
	// Game is the game's number within its generation, from 0.
	Game int32 `parquet:"game"`
}

// ChunkVersion is the layout version of the chunks this package writes
// and the only one it reads.
const ChunkVersion = 1

// The Parquet key-value metadata keys of a chunk.
const (
	keyFormat     = "bomberzero.format"
	keyVersion    = "bomberzero.version"
	keyChecksum   = "bomberzero.sha256"
	keyVariant    = "bomberzero.variant"
	keyGeneration = "bomberzero.generation"
	keyGames      = "bomberzero.games"
	keyPositions  = "bomberzero.positions"
	keyWhiteWins  = "bomberzero.white_wins"
	keyDraws      = "bomberzero.draws"
	keyBlackWins  = "bomberzero.black_wins"
	keyPlies      = "bomberzero.plies"
	keyCapped     = "bomberzero.capped"
	chunkFormat   = "bomberzero-engine-positions"
)

// maxChunkBytes bounds the chunk files ReadChunk reads.
const maxChunkBytes = 1 << 30

// ErrCorrupt is wrapped by the error of a chunk that does not read back
// as written.
var ErrCorrupt = errors.New("corrupt engine-positions chunk")

// ChunkMeta is what a chunk's footer says about it.
type ChunkMeta struct {
	Variant    string
	Generation int
	Games      int
	Positions  int
	// The games' results, total plies and games capped (drawn at the
	// length cap).
	WhiteWins, Draws, BlackWins int
	Plies, Capped               int
	Checksum                    string // hex SHA-256 over the rows (see checksumRows)
}

// add counts one game.
func (m *ChunkMeta) add(g GameStats) {
	m.Games++
	m.Plies += g.Plies
	if g.Capped {
		m.Capped++
	}
	switch g.Result {
	case env.WhiteWins:
		m.WhiteWins++
	case env.BlackWins:
		m.BlackWins++
	default:
		m.Draws++
	}
}

// ints are the metadata's whole-number fields by key.
func (m *ChunkMeta) ints() []struct {
	key string
	to  *int
} {
	return []struct {
		key string
		to  *int
	}{{keyGeneration, &m.Generation}, {keyGames, &m.Games}, {keyPositions, &m.Positions},
		{keyWhiteWins, &m.WhiteWins}, {keyDraws, &m.Draws}, {keyBlackWins, &m.BlackWins}, {keyPlies, &m.Plies}, {keyCapped, &m.Capped}}
}

// checksumRows returns the hex SHA-256 of an unambiguous encoding of rows.
func checksumRows(rows []Row) string {
	h := sha256.New()
	var buf []byte
	for i := range rows {
		r := &rows[i]
		buf = binary.AppendUvarint(buf[:0], uint64(len(r.FEN)))
		buf = append(buf, r.FEN...)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(r.Score))
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(r.Result))
		buf = binary.LittleEndian.AppendUint32(buf, uint32(r.Ply))
		buf = binary.LittleEndian.AppendUint32(buf, uint32(r.Game))
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// WriteChunk writes rows, the positions of the games m describes
// (Variant, Generation and the game counts), as a Parquet chunk at path,
// atomically: the file appears complete or not at all. It fills in m's
// Positions and Checksum.
func WriteChunk(path string, m ChunkMeta, rows []Row) error {
	m.Positions, m.Checksum = len(rows), checksumRows(rows)
	meta := [][2]string{
		{keyFormat, chunkFormat},
		{keyVersion, strconv.Itoa(ChunkVersion)},
		{keyChecksum, m.Checksum},
		{keyVariant, m.Variant},
	}
	for _, f := range m.ints() {
		meta = append(meta, [2]string{f.key, strconv.Itoa(*f.to)})
	}
	err := atomicfile.Write(path, func(w io.Writer) error {
		opts := []parquet.WriterOption{parquet.Compression(&zstd.Codec{}), parquet.CreatedBy("bomberzero", strconv.Itoa(ChunkVersion), "")}
		for _, kv := range meta {
			opts = append(opts, parquet.KeyValueMetadata(kv[0], kv[1]))
		}
		pw := parquet.NewGenericWriter[Row](w, opts...)
		if _, err := pw.Write(rows); err != nil {
			return err
		}
		return pw.Close()
	})
	if err != nil {
		return fmt.Errorf("chunk %s: %w", path, err)
	}
	return nil
}

// corruptChunk is the error of the chunk at path that does not read back
// as written, saying how.
func corruptChunk(path, format string, args ...any) error {
	return fmt.Errorf("chunk %s: %w: %s", path, ErrCorrupt, fmt.Sprintf(format, args...))
}

// ReadChunk reads the chunk at path and checks it: its format, version,
// row count and checksum. Every error names the file.
func ReadChunk(path string) (meta ChunkMeta, rows []Row, err error) {
	meta, pf, err := openChunk(path)
	if err != nil {
		return ChunkMeta{}, nil, err
	}
	corrupt := func(format string, args ...any) error { return corruptChunk(path, format, args...) }
	defer func() {
		if p := recover(); p != nil {
			meta, rows, err = ChunkMeta{}, nil, corrupt("decoding: %v", p)
		}
	}()
	rows = make([]Row, meta.Positions)
	r := parquet.NewGenericReader[Row](pf)
	defer r.Close()
	n := 0
	for n < len(rows) {
		m, err := r.Read(rows[n:min(n+256, len(rows))])
		n += m
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return ChunkMeta{}, nil, corrupt("decoding rows: %v", err)
		}
	}
	if n != meta.Positions {
		return ChunkMeta{}, nil, corrupt("%d rows decoded, metadata says %d", n, meta.Positions)
	}
	if sum := checksumRows(rows); sum != meta.Checksum {
		return ChunkMeta{}, nil, corrupt("checksum %s of the rows, metadata says %s", sum, meta.Checksum)
	}
	return meta, rows, nil
}

// ReadChunkMeta reads what the footer of the chunk at path says, checking
// the footer, its metadata and the page headers (what a decoder of the
// rows would trust) but neither decoding the rows nor their checksum:
// what a worker resuming over thousands of chunks needs to know which are
// done, at a small part of ReadChunk's cost. A chunk damaged inside its
// pages passes here and fails ReadChunk, which every reader of the rows
// calls. Every error names the file.
func ReadChunkMeta(path string) (ChunkMeta, error) {
	meta, _, err := openChunk(path)
	return meta, err
}

// openChunk reads the file at path (bounded), opens its Parquet footer and
// checks the format, version and metadata, the row count and the page
// headers; every error names the file.
func openChunk(path string) (meta ChunkMeta, pf *parquet.File, err error) {
	data, err := readfile.Regular(path, maxChunkBytes)
	if err != nil {
		return ChunkMeta{}, nil, fmt.Errorf("chunk %s: %w", path, err)
	}
	corrupt := func(format string, args ...any) error { return corruptChunk(path, format, args...) }
	defer func() {
		if p := recover(); p != nil {
			meta, pf, err = ChunkMeta{}, nil, corrupt("decoding: %v", p)
		}
	}()
	if len(data) < 12 || string(data[len(data)-4:]) != "PAR1" {
		return ChunkMeta{}, nil, corrupt("%d bytes without the Parquet end marker (truncated or not a Parquet file)", len(data))
	}
	pf, err = datasets.OpenParquet(data) // the footer's lengths checked before the decoder trusts them
	if err != nil {
		return ChunkMeta{}, nil, corrupt("%v", err)
	}
	get := func(key string) string { v, _ := pf.Lookup(key); return v }
	if f := get(keyFormat); f != chunkFormat {
		return ChunkMeta{}, nil, corrupt("format %q, want %q", f, chunkFormat)
	}
	if v := get(keyVersion); v != strconv.Itoa(ChunkVersion) {
		return ChunkMeta{}, nil, corrupt("layout version %q, this build reads %d", v, ChunkVersion)
	}
	meta.Variant, meta.Checksum = get(keyVariant), get(keyChecksum)
	for _, f := range meta.ints() {
		n, err := strconv.Atoi(get(f.key))
		if err != nil || n < 0 {
			return ChunkMeta{}, nil, corrupt("metadata %s %q: want a whole number", f.key, get(f.key))
		}
		*f.to = n
	}
	if pf.NumRows() != int64(meta.Positions) {
		return ChunkMeta{}, nil, corrupt("%d rows, metadata says %d", pf.NumRows(), meta.Positions)
	}
	if err := datasets.CheckPages(pf, data); err != nil {
		return ChunkMeta{}, nil, corrupt("%v", err)
	}
	return meta, pf, nil
}
