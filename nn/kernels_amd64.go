//go:build amd64 && !purego

package nn

import "bomberzero/nn/internal/avx2"

// avx2Kernels reports whether the transform kernels (winoInputRow and
// winoOutputRow, for channel counts that are multiples of 8) and the masked
// copy and add run as AVX2 assembly (package avx2).
var avx2Kernels = avx2.Available

func winoInputRowImpl(dst []float32, dstStride int, src []float32, rowStride, c, tiles int) {
	if !avx2Kernels || c <= 0 || c%8 != 0 {
		winoInputRowGo(dst, dstStride, src, rowStride, c, tiles)
		return
	}
	avx2.InputRow(dst, dstStride, src, rowStride, c, tiles)
}

func winoOutputRowImpl(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool) {
	if !avx2Kernels || c <= 0 || c%8 != 0 {
		winoOutputRowGo(dst, rowStride, m, mStride, bias, skip, c, tiles, relu)
		return
	}
	avx2.OutputRow(dst, rowStride, m, mStride, bias, skip, c, tiles, relu)
}

func maskedCopyImpl(dst, src []float32, mask []uint32) {
	if !avx2Kernels {
		maskedCopyGo(dst, src, mask)
		return
	}
	avx2.MaskedCopy(dst, src, mask)
}

func maskedAddImpl(dst, src []float32, mask []uint32) {
	if !avx2Kernels {
		maskedAddGo(dst, src, mask)
		return
	}
	avx2.MaskedAdd(dst, src, mask)
}
