package nn

import "math"

// The masked copy and add that build training's im2col columns and fold
// their gradient back (im2col.go): a mask entry is all ones (keep) or 0
// (drop). On amd64 with AVX2 they run as assembly (package
// nn/internal/avx2) that gives the same bits as the Go below.

// maskedCopy writes dst[i] = src[i] where mask[i] is all ones and +0 where
// it is 0, for i < len(dst); src and mask must be at least as long.
func maskedCopy(dst, src []float32, mask []uint32) { maskedCopyImpl(dst, src, mask) }

// maskedAdd adds src[i] to dst[i] where mask[i] is all ones (+0 where it is
// 0), for i < len(dst); src and mask must be at least as long.
func maskedAdd(dst, src []float32, mask []uint32) { maskedAddImpl(dst, src, mask) }

// maskedCopyGo is the portable maskedCopy.
func maskedCopyGo(dst, src []float32, mask []uint32) {
	src, mask = src[:len(dst)], mask[:len(dst)]
	for i, v := range src {
		dst[i] = math.Float32frombits(math.Float32bits(v) & mask[i])
	}
}

// maskedAddGo is the portable maskedAdd.
func maskedAddGo(dst, src []float32, mask []uint32) {
	src, mask = src[:len(dst)], mask[:len(dst)]
	for i, v := range src {
		dst[i] += math.Float32frombits(math.Float32bits(v) & mask[i])
	}
}
