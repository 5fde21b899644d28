//go:build amd64 && !purego

package gemm

import "golang.org/x/sys/cpu"

// useAsm says whether Sgemm runs the AVX2+FMA micro-kernel (set once at
// init, never written after).
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasAVX

// kernel adds alpha times the product of a packed mr x kc panel of A (at a)
// and a packed kc x nr panel of B (at b) to the mr x nr tile of C at c, whose
// rows are ldc elements apart. kc must be at least 1.
//
//go:noescape
func kernel(kc int, a, b, c *float32, ldc int, alpha float32)
