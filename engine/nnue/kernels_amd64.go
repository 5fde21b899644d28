//go:build amd64 && !purego

package nnue

import "golang.org/x/sys/cpu"

// simd reports whether the AVX2/FMA kernels may run (set once at init).
var simd = cpu.X86.HasAVX2 && cpu.X86.HasAVX && cpu.X86.HasFMA

//go:noescape
func head16(h2 *float32, x *float32, w2 *float32, n int)

//go:noescape
func addRow8(dst, src *float32, n int)

//go:noescape
func subRow8(dst, src *float32, n int)

// head16Fast adds clip(x) times w2 to h2 for an L2 of 16 and returns true,
// or returns false when the kernel cannot run.
func head16Fast(h2, x, w2 []float32) bool {
	if !simd || len(h2) != 16 || len(x) == 0 || len(x)%2 != 0 || len(w2) < 16*len(x) {
		return false
	}
	head16(&h2[0], &x[0], &w2[0], len(x))
	return true
}

// addRowFast adds w to a and returns true, or returns false when the
// kernel cannot run.
func addRowFast(a, w []float32) bool {
	if !simd || len(a) == 0 || len(a)%8 != 0 || len(w) < len(a) {
		return false
	}
	addRow8(&a[0], &w[0], len(a))
	return true
}

// subRowFast subtracts w from a and returns true, or returns false when
// the kernel cannot run.
func subRowFast(a, w []float32) bool {
	if !simd || len(a) == 0 || len(a)%8 != 0 || len(w) < len(a) {
		return false
	}
	subRow8(&a[0], &w[0], len(a))
	return true
}
