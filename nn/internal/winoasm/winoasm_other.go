//go:build !amd64 || purego

package winoasm

// Available is false: this build has no assembly kernels.
const Available = false

// InputRow must not be called when Available is false.
func InputRow(dst []float32, dstStride int, src []float32, rowStride, c, tiles int) {
	panic("winoasm: no assembly kernels in this build")
}

// OutputRow must not be called when Available is false.
func OutputRow(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool) {
	panic("winoasm: no assembly kernels in this build")
}
