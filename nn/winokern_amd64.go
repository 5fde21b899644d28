//go:build amd64 && !purego

package nn

import "bomberzero/nn/internal/winoasm"

// winoKernelsAsm reports whether winoInputRow and winoOutputRow run as AVX2
// assembly (package winoasm) for channel counts that are multiples of 8.
var winoKernelsAsm = winoasm.Available

func winoInputRowImpl(dst []float32, dstStride int, src []float32, rowStride, c, tiles int) {
	if !winoKernelsAsm || c <= 0 || c%8 != 0 {
		winoInputRowGo(dst, dstStride, src, rowStride, c, tiles)
		return
	}
	winoasm.InputRow(dst, dstStride, src, rowStride, c, tiles)
}

func winoOutputRowImpl(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool) {
	if !winoKernelsAsm || c <= 0 || c%8 != 0 {
		winoOutputRowGo(dst, rowStride, m, mStride, bias, skip, c, tiles, relu)
		return
	}
	winoasm.OutputRow(dst, rowStride, m, mStride, bias, skip, c, tiles, relu)
}
