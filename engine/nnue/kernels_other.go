//go:build !amd64 || purego

package nnue

// simd is false: this build has no assembly kernels.
var simd = false

func head16Fast(h2, x, w2 []float32) bool { return false }
func addRowFast(a, w []float32) bool      { return false }
func subRowFast(a, w []float32) bool      { return false }
