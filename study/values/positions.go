package values

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/klauspost/compress/zstd"

	"bomberzero/env"
	"bomberzero/internal/atomicfile"
	"bomberzero/internal/readfile"
)

// A positions file keeps what the logistic and tanh fits read of a Dataset
// and nothing else: each game's result, ending, length and index, and each
// recorded position's ply, side to move, capture flag and piece counts (no
// position text, search value or move), so that tens of thousands of games
// fit in a file small enough to ship as test data (the chess calibration's
// pin). Each game keeps its player's name, so a fit of the file names the
// player as one of the games does. Layout: the magic "BZVALPOS", a little-endian uint32 version, the
// SHA-256 of the body, then the body compressed with zstd. The body is a
// sequence of unsigned varints: the piece letters, then game by game the
// game's fields and its positions, each position a flag byte (side to move,
// capture available, counts as the position before, ply one after the
// position before) followed by what the flags do not imply, the counts as
// differences from the position before (zig-zag varints).
const (
	positionsMagic   = "BZVALPOS"
	positionsVersion = 1
	// PositionsFileLimit is the largest positions file ReadPositions
	// accepts, and positionsBodyLimit the largest body it decompresses.
	PositionsFileLimit = 64 << 20
	positionsBodyLimit = 1 << 30
	// Bounds on what one file may declare, checked before anything is
	// allocated for it.
	maxPositionsPieces = 64
	maxPositionsText   = 256
	maxPositionsGames  = 1 << 22
	maxGamePositions   = 1 << 16
)

// Position flags of the positions file.
const (
	flagWhiteToMove = 1 << iota
	flagCapture
	flagSameCounts
	flagNextPly
	flagsKnown = flagWhiteToMove | flagCapture | flagSameCounts | flagNextPly
)

// WritePositions writes ds's games as a positions file at path, atomically.
// Position texts, search values and played moves are not kept: a Dataset read
// back serves the logistic and tanh fits (and every sampling choice), not the
// search or value fits.
func WritePositions(path string, ds *Dataset) error {
	body, err := encodePositions(ds)
	if err != nil {
		return fmt.Errorf("values: writing %s: %w", path, err)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	if err != nil {
		return fmt.Errorf("values: writing %s: %w", path, err)
	}
	packed := enc.EncodeAll(body, nil)
	enc.Close()
	sum := sha256.Sum256(body)
	var out bytes.Buffer
	out.WriteString(positionsMagic)
	out.Write(binary.LittleEndian.AppendUint32(nil, positionsVersion))
	out.Write(sum[:])
	out.Write(packed)
	if out.Len() > PositionsFileLimit {
		return fmt.Errorf("values: writing %s: %d bytes, more than the %d a positions file may have", path, out.Len(), PositionsFileLimit)
	}
	if err := atomicfile.WriteFile(path, out.Bytes()); err != nil {
		return fmt.Errorf("values: writing %s: %w", path, err)
	}
	return nil
}

// Sampled returns ds with only the positions c samples of each game (every
// game kept, in order, those left with no position too), sharing ds's
// count vectors. Fitting it with a SampleConfig that keeps everything
// (NoFilter) gives the fits of ds under c, draw and bootstrap alike: a
// positions file of Sampled(ds, c) is a data set's fit in a file of its
// sampled positions alone.
func (c SampleConfig) Sampled(ds *Dataset) *Dataset {
	out := &Dataset{Pieces: ds.Pieces, Games: make([]Game, len(ds.Games))}
	picked := c.sample(ds, false)
	for gi := range ds.Games {
		out.Games[gi] = ds.Games[gi]
		out.Games[gi].Positions = nil
	}
	for _, s := range picked {
		g := &out.Games[s.game]
		g.Positions = append(g.Positions, *s.pos)
	}
	return out
}

// NoFilter returns the SampleConfig that keeps every position of a data set
// (no opening skipped, captures kept, no spacing, no draw), for a data set
// already sampled (Sampled, a positions file written from it).
func NoFilter() SampleConfig { return SampleConfig{} }

// ReadPositions reads a positions file written by WritePositions. A file
// that is not one, of another version, damaged (its checksum) or declaring
// more than it may is refused with an error naming the file and the fault.
func ReadPositions(path string) (*Dataset, error) {
	data, err := readfile.Regular(path, PositionsFileLimit)
	if err != nil {
		return nil, fmt.Errorf("values: reading positions file: %w", err)
	}
	ds, err := DecodePositions(data)
	if err != nil {
		return nil, fmt.Errorf("values: positions file %s: %w", path, err)
	}
	return ds, nil
}

// DecodePositions decodes the bytes of a positions file.
func DecodePositions(data []byte) (*Dataset, error) {
	head := len(positionsMagic) + 4 + sha256.Size
	if len(data) < head || string(data[:len(positionsMagic)]) != positionsMagic {
		return nil, errors.New("not a positions file (want the magic BZVALPOS at its start)")
	}
	if v := binary.LittleEndian.Uint32(data[len(positionsMagic):]); v != positionsVersion {
		return nil, fmt.Errorf("version %d: this program reads version %d", v, positionsVersion)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderMaxMemory(positionsBodyLimit), zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	body, err := dec.DecodeAll(data[head:], nil)
	if err != nil {
		return nil, fmt.Errorf("body: %w", err)
	}
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[len(positionsMagic)+4:head]) {
		return nil, errors.New("checksum mismatch: the file is damaged")
	}
	return decodePositions(body)
}

func encodePositions(ds *Dataset) ([]byte, error) {
	if len(ds.Pieces) > maxPositionsPieces {
		return nil, fmt.Errorf("%d piece types: at most %d", len(ds.Pieces), maxPositionsPieces)
	}
	if len(ds.Games) > maxPositionsGames {
		return nil, fmt.Errorf("%d games: at most %d", len(ds.Games), maxPositionsGames)
	}
	var b []byte
	str := func(s string) error {
		if len(s) > maxPositionsText {
			return fmt.Errorf("text %.20q...: %d bytes, at most %d", s, len(s), maxPositionsText)
		}
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
		return nil
	}
	n := len(ds.Pieces)
	b = binary.AppendUvarint(b, uint64(n))
	for _, p := range ds.Pieces {
		if err := str(p); err != nil {
			return nil, err
		}
	}
	b = binary.AppendUvarint(b, uint64(len(ds.Games)))
	prev := make([]int32, 2*n)
	for gi := range ds.Games {
		g := &ds.Games[gi]
		if len(g.Positions) > maxGamePositions {
			return nil, fmt.Errorf("game %s: %d positions, at most %d", g.ID, len(g.Positions), maxGamePositions)
		}
		if err := str(g.ID); err != nil {
			return nil, err
		}
		if err := str(g.Variant); err != nil {
			return nil, err
		}
		if err := str(g.Player); err != nil {
			return nil, err
		}
		b = binary.AppendVarint(b, int64(g.Result))
		if _, err := g.Termination.MarshalText(); err != nil && g.Termination != env.NotOver {
			return nil, fmt.Errorf("game %s: %w", g.ID, err)
		}
		if err := str(terminationText(g.Termination)); err != nil {
			return nil, err
		}
		b = binary.AppendUvarint(b, uint64(g.Length))
		b = binary.AppendUvarint(b, uint64(g.Index))
		b = binary.AppendUvarint(b, uint64(len(g.Positions)))
		clear(prev)
		lastPly := -1
		for pi := range g.Positions {
			p := &g.Positions[pi]
			if len(p.White) != n || len(p.Black) != n {
				return nil, fmt.Errorf("game %s, ply %d: counts of %d and %d piece types, want %d", g.ID, p.Ply, len(p.White), len(p.Black), n)
			}
			if p.Ply < 0 {
				return nil, fmt.Errorf("game %s: ply %d", g.ID, p.Ply)
			}
			var f byte
			if p.WhiteToMove {
				f |= flagWhiteToMove
			}
			if p.CaptureAvailable {
				f |= flagCapture
			}
			same := pi > 0 && slices.Equal(prev[:n], p.White) && slices.Equal(prev[n:], p.Black)
			if same {
				f |= flagSameCounts
			}
			if p.Ply == lastPly+1 {
				f |= flagNextPly
			}
			b = append(b, f)
			if f&flagNextPly == 0 {
				b = binary.AppendUvarint(b, uint64(p.Ply))
			}
			if !same {
				for i, c := range p.White {
					b = binary.AppendVarint(b, int64(c)-int64(prev[i]))
				}
				for i, c := range p.Black {
					b = binary.AppendVarint(b, int64(c)-int64(prev[n+i]))
				}
				copy(prev[:n], p.White)
				copy(prev[n:], p.Black)
			}
			lastPly = p.Ply
		}
	}
	return b, nil
}

// positionsReader reads the body's varints, each error naming the offset.
type positionsReader struct {
	b   []byte
	off int
	err error
}

func (r *positionsReader) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("body byte %d: %s", r.off, fmt.Sprintf(format, a...))
	}
}

func (r *positionsReader) uvarint(what string, limit uint64) uint64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Uvarint(r.b[r.off:])
	if k <= 0 {
		r.fail("%s: a truncated or malformed number", what)
		return 0
	}
	if v > limit {
		r.fail("%s %d: at most %d", what, v, limit)
		return 0
	}
	r.off += k
	return v
}

func (r *positionsReader) varint(what string, limit int64) int64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Varint(r.b[r.off:])
	if k <= 0 {
		r.fail("%s: a truncated or malformed number", what)
		return 0
	}
	if v > limit || v < -limit {
		r.fail("%s %d: want -%d to %d", what, v, limit, limit)
		return 0
	}
	r.off += k
	return v
}

func (r *positionsReader) str(what string) string {
	n := int(r.uvarint(what+"'s length", maxPositionsText))
	if r.err != nil {
		return ""
	}
	if len(r.b)-r.off < n {
		r.fail("%s: %d bytes declared, %d left", what, n, len(r.b)-r.off)
		return ""
	}
	s := string(r.b[r.off : r.off+n])
	r.off += n
	return s
}

func (r *positionsReader) byte(what string) byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.fail("%s: the body ends", what)
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func decodePositions(body []byte) (*Dataset, error) {
	r := &positionsReader{b: body}
	n := int(r.uvarint("piece types", maxPositionsPieces))
	ds := &Dataset{}
	for range n {
		ds.Pieces = append(ds.Pieces, r.str("piece letter"))
	}
	games := int(r.uvarint("games", maxPositionsGames))
	if r.err != nil {
		return nil, r.err
	}
	// Each game takes at least 8 bytes: a count that the body cannot hold is
	// refused before it is allocated.
	if games > (len(body)-r.off)/8 {
		return nil, fmt.Errorf("body byte %d: %d games declared in %d bytes", r.off, games, len(body)-r.off)
	}
	ds.Games = make([]Game, 0, games)
	prev := make([]int32, 2*n)
	for range games {
		g := Game{ID: r.str("game id"), Variant: r.str("variant"), Player: r.str("player")}
		g.Result = int(r.varint("result", 1))
		if term := r.str("termination"); term != "" && r.err == nil {
			t, err := env.ParseTermination(term)
			if err != nil {
				r.fail("game %s: %v", g.ID, err)
			}
			g.Termination = t
		}
		g.Length = int(r.uvarint("length", maxGamePositions*4))
		g.Index = int(r.uvarint("index", maxPositionsGames))
		np := int(r.uvarint("positions", maxGamePositions))
		if r.err != nil {
			return nil, r.err
		}
		if np > len(body)-r.off {
			return nil, fmt.Errorf("body byte %d: game %s declares %d positions in %d bytes", r.off, g.ID, np, len(body)-r.off)
		}
		if np > 0 {
			g.Positions = make([]Position, np)
		}
		clear(prev)
		lastPly := -1
		for pi := range g.Positions {
			p := &g.Positions[pi]
			f := r.byte("position flags")
			if f&^flagsKnown != 0 {
				r.fail("position flags %#x: unknown bits", f)
			}
			if pi == 0 && f&flagSameCounts != 0 {
				r.fail("game %s: its first position repeats counts before it", g.ID)
			}
			p.WhiteToMove, p.CaptureAvailable = f&flagWhiteToMove != 0, f&flagCapture != 0
			p.Ply = lastPly + 1
			if f&flagNextPly == 0 {
				p.Ply = int(r.uvarint("ply", maxGamePositions*4))
			}
			if f&flagSameCounts == 0 {
				for i := range prev {
					c := int64(prev[i]) + r.varint("count difference", 1<<16)
					if c < 0 || c > 1<<16 {
						r.fail("game %s, ply %d: a piece count of %d", g.ID, p.Ply, c)
					}
					prev[i] = int32(c)
				}
			}
			if r.err != nil {
				return nil, r.err
			}
			p.White, p.Black = slices.Clone(prev[:n]), slices.Clone(prev[n:])
			lastPly = p.Ply
		}
		ds.Games = append(ds.Games, g)
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(body) {
		return nil, fmt.Errorf("body byte %d: %d bytes after the last game", r.off, len(body)-r.off)
	}
	return ds, nil
}

// terminationText is t's text in a positions file: "" for a game whose
// ending is not known.
func terminationText(t env.Termination) string {
	if t == env.NotOver {
		return ""
	}
	return t.String()
}
