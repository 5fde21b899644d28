package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
)

// rowHasher computes the chunk checksum: a SHA-256 over an unambiguous
// binary encoding of every column of every row, in order. It is recomputed
// from the decoded rows on read, so it covers what a reader gets, not the
// bytes Parquet happened to lay out.
type rowHasher struct {
	h   hash.Hash
	buf []byte
}

func newRowHasher() *rowHasher { return &rowHasher{h: sha256.New()} }

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
	rh.buf = append(rh.buf, byte(r.ResultSTM))
	rh.i32(int32(math.Float32bits(r.Value)))
	rh.boolean(r.FullSearch)
	rh.str(r.Played)
	rh.i32(int32(len(r.PolicyIndex)))
	for _, v := range r.PolicyIndex {
		rh.i32(v)
	}
	rh.i32(int32(len(r.MoveText)))
	for _, s := range r.MoveText {
		rh.str(s)
	}
	rh.i32(int32(len(r.Visits)))
	for _, v := range r.Visits {
		rh.i32(int32(math.Float32bits(v)))
	}
	rh.i32(int32(len(r.PieceTypes)))
	for _, s := range r.PieceTypes {
		rh.str(s)
	}
	rh.i32(int32(len(r.WhitePieces)))
	for _, v := range r.WhitePieces {
		rh.i32(v)
	}
	rh.i32(int32(len(r.BlackPieces)))
	for _, v := range r.BlackPieces {
		rh.i32(v)
	}
	rh.h.Write(rh.buf)
}

// sum returns the hex digest of the rows added so far.
func (rh *rowHasher) sum() string { return hex.EncodeToString(rh.h.Sum(nil)) }

// checksumRows returns the checksum of rows.
func checksumRows(rows []Row) string {
	rh := newRowHasher()
	for i := range rows {
		rh.add(&rows[i])
	}
	return rh.sum()
}
