//go:build !amd64 || purego

package avx2

// Available is false: this build has no assembly kernels.
const Available = false

// InputRow must not be called when Available is false.
func InputRow(dst []float32, dstStride int, src []float32, rowStride, c, tiles int) {
	panic("avx2: no assembly kernels in this build")
}

// OutputRow must not be called when Available is false.
func OutputRow(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool) {
	panic("avx2: no assembly kernels in this build")
}

// MaskedCopy must not be called when Available is false.
func MaskedCopy(dst, src []float32, mask []uint32) {
	panic("avx2: no assembly kernels in this build")
}

// MaskedAdd must not be called when Available is false.
func MaskedAdd(dst, src []float32, mask []uint32) {
	panic("avx2: no assembly kernels in this build")
}
