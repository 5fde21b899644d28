//go:build !amd64 || purego

package gemm

// useAsm is false: this build has no assembly micro-kernel, and Sgemm is
// gonum's.
const useAsm = false

func kernel(rows, kc int, a *float32, rsA, csA int, b *float32, csB int, c *float32, ldc int, alpha float32, acc bool) {
	panic("gemm: no assembly kernel in this build")
}

func packBT16(k8 int, src *float32, ld int, dst *float32) {
	panic("gemm: no assembly kernel in this build")
}

var useAVX512 = false // never set: there are no kernels

func kernel512(rows, kc int, a *float32, rsA, csA int, b *float32, csB, off int, c *float32, ldc int, alpha float32, acc bool) {
	panic("gemm: no assembly kernel in this build")
}
