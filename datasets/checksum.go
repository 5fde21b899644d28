package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
)

// rowHasher computes the chunk checksum: a SHA-256 over an unambiguous
// binary encoding of every column of every row, in order; the columns of
// the chunk's format version only (version 1 has no repetitions). It is
// recomputed from the decoded rows on read, so it covers what a reader
// gets, not the bytes Parquet happened to lay out.
type rowHasher struct {
	h       hash.Hash
	buf     []byte
	version int
}

func newRowHasher(version int) *rowHasher { return &rowHasher{h: sha256.New(), version: version} }

func (rh *rowHasher) str(s string) {
	rh.buf = binary.AppendUvarint(rh.buf, uint64(len(s)))
	rh.buf = append(rh.buf, s...)
}

func (rh *rowHasher) i32(v int32) { rh.buf = binary.LittleEndian.AppendUint32(rh.buf, uint32(v)) }

func (rh *rowHasher) boolean(b bool) {
	if b {
		rh.buf = append(rh.buf, 1)
	} else {
		rh.buf = append(rh.buf, 0)
	}
}

// i32s appends a list of integers: its length, then each.
func (rh *rowHasher) i32s(vs []int32) {
	rh.i32(int32(len(vs)))
	for _, v := range vs {
		rh.i32(v)
	}
}

// f32s appends a list of floats: its length, then each one's bits.
func (rh *rowHasher) f32s(vs []float32) {
	rh.i32(int32(len(vs)))
	for _, v := range vs {
		rh.i32(int32(math.Float32bits(v)))
	}
}

// strs appends a list of strings: its length, then each.
func (rh *rowHasher) strs(ss []string) {
	rh.i32(int32(len(ss)))
	for _, s := range ss {
		rh.str(s)
	}
}

// add feeds one row to the hash.
func (rh *rowHasher) add(r *Row) {
	rh.buf = rh.buf[:0]
	rh.str(r.GameID)
	rh.str(r.Variant)
	rh.str(r.Model)
	rh.i32(r.Generation)
	rh.i32(r.GameLength)
	rh.str(r.Termination)
	rh.buf = append(rh.buf, byte(r.ResultWhite))
	rh.boolean(r.ResignDisabled)
	rh.str(r.WouldResign)
	rh.boolean(r.FalseResign)
	rh.i32(r.Ply)
	rh.str(r.Position)
	rh.boolean(r.WhiteToMove)
	if rh.version >= 2 {
		rh.buf = append(rh.buf, byte(r.Repetitions))
	}
	rh.buf = append(rh.buf, byte(r.ResultSTM))
	rh.i32(int32(math.Float32bits(r.Value)))
	rh.boolean(r.FullSearch)
	rh.str(r.Played)
	rh.i32s(r.PolicyIndex)
	rh.strs(r.MoveText)
	rh.f32s(r.Visits)
	rh.strs(r.PieceTypes)
	rh.i32s(r.WhitePieces)
	rh.i32s(r.BlackPieces)
	rh.h.Write(rh.buf)
}

// sum returns the hex digest of the rows added so far.
func (rh *rowHasher) sum() string { return hex.EncodeToString(rh.h.Sum(nil)) }

// checksumRows returns the checksum of rows in a chunk of format version.
func checksumRows(rows []Row, version int) string {
	rh := newRowHasher(version)
	for i := range rows {
		rh.add(&rows[i])
	}
	return rh.sum()
}
