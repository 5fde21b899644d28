//go:build !amd64 || purego

package gemm

// useAsm is false: this build has no assembly micro-kernel, and Sgemm is
// gonum's.
const useAsm = false

func kernel(kc int, a, b, c *float32, ldc int, alpha float32) {
	panic("gemm: no assembly kernel in this build")
}
