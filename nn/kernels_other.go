//go:build !amd64 || purego

package nn

// avx2Kernels reports whether the transform and masked kernels run as
// assembly; in this build they run the Go reference kernels.
const avx2Kernels = false

func winoInputRowImpl(dst []float32, dstStride int, src []float32, rowStride, c, tiles int) {
	winoInputRowGo(dst, dstStride, src, rowStride, c, tiles)
}

func winoOutputRowImpl(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool) {
	winoOutputRowGo(dst, rowStride, m, mStride, bias, skip, c, tiles, relu)
}

func maskedCopyImpl(dst, src []float32, mask []uint32) { maskedCopyGo(dst, src, mask) }

func maskedAddImpl(dst, src []float32, mask []uint32) { maskedAddGo(dst, src, mask) }
