//go:build amd64 && !purego

package avx2

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

// Available reports whether InputRow and OutputRow may be called: the CPU
// has AVX2 (set once at init, never written after).
var Available = cpu.X86.HasAVX2 && cpu.X86.HasAVX

//go:noescape
func inputRow(dst *float32, dstStride int, src *float32, rowStride, c, tiles int)

//go:noescape
func outputRow(dst *float32, rowStride int, m *float32, mStride int, bias, skip *float32, c, tiles int, relu bool)

// InputRow is nn's winoInputRow for c a positive multiple of 8 (it panics
// otherwise, and on negative strides or slices too short for the call).
func InputRow(dst []float32, dstStride int, src []float32, rowStride, c, tiles int) {
	if tiles <= 0 {
		return
	}
	if c <= 0 || c%8 != 0 || dstStride < 0 || rowStride < 0 {
		panic(fmt.Sprintf("avx2: InputRow: c = %d is not a positive multiple of 8, or a stride is negative (dst %d, src %d)",
			c, dstStride, rowStride))
	}
	// The last element each slice must hold: indexing it panics here, in
	// Go, when a slice is too short (slicing would only check capacity).
	_ = src[3*rowStride+(2*tiles+2)*c-1]
	_ = dst[15*dstStride+tiles*c-1]
	inputRow(&dst[0], dstStride, &src[0], rowStride, c, tiles)
}

// OutputRow is nn's winoOutputRow for c a positive multiple of 8 (it panics
// otherwise, and on negative strides or slices too short for the call).
func OutputRow(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool) {
	if tiles <= 0 {
		return
	}
	if c <= 0 || c%8 != 0 || rowStride < 0 || mStride < 0 {
		panic(fmt.Sprintf("avx2: OutputRow: c = %d is not a positive multiple of 8, or a stride is negative (dst %d, m %d)",
			c, rowStride, mStride))
	}
	last := rowStride + 2*tiles*c - 1 // of dst and skip
	_ = dst[last]
	_ = m[15*mStride+tiles*c-1]
	_ = bias[c-1]
	var sk *float32
	if skip != nil {
		_ = skip[last]
		sk = &skip[0]
	}
	outputRow(&dst[0], rowStride, &m[0], mStride, &bias[0], sk, c, tiles, relu)
}

//go:noescape
func maskedCopy(dst, src *float32, mask *uint32, n int)

//go:noescape
func maskedAdd(dst, src *float32, mask *uint32, n int)

// MaskedCopy is nn's maskedCopy: dst[i] = src[i] where mask[i] is all ones,
// +0 where it is 0, for i < len(dst) (it panics when src or mask is
// shorter).
func MaskedCopy(dst, src []float32, mask []uint32) {
	n := len(dst)
	if n == 0 {
		return
	}
	_, _ = src[n-1], mask[n-1]
	maskedCopy(&dst[0], &src[0], &mask[0], n)
}

// MaskedAdd is nn's maskedAdd: dst[i] += src[i] where mask[i] is all ones
// (+0 where it is 0), for i < len(dst) (it panics when src or mask is
// shorter).
func MaskedAdd(dst, src []float32, mask []uint32) {
	n := len(dst)
	if n == 0 {
		return
	}
	_, _ = src[n-1], mask[n-1]
	maskedAdd(&dst[0], &src[0], &mask[0], n)
}
