//go:build !amd64 || purego

package nn

// winoKernelsAsm reports whether winoInputRow and winoOutputRow run as
// assembly; in this build they run the Go reference kernels.
const winoKernelsAsm = false

func winoInputRowImpl(dst []float32, dstStride int, src []float32, rowStride, c, tiles int) {
	winoInputRowGo(dst, dstStride, src, rowStride, c, tiles)
}

func winoOutputRowImpl(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool) {
	winoOutputRowGo(dst, rowStride, m, mStride, bias, skip, c, tiles, relu)
}
