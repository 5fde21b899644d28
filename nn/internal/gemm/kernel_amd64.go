//go:build amd64 && !purego

package gemm

import "golang.org/x/sys/cpu"

// useAsm says whether Sgemm runs the AVX2+FMA micro-kernel (set once at
// init, never written after).
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA && cpu.X86.HasAVX

// useAVX512 says whether macro runs the 6x32 AVX-512 kernels on pairs of
// whole B panels.
var useAVX512 = useAsm && cpu.X86.HasAVX512F

// kernel adds alpha times the product of a rows x kc panel of A and a kc x
// nr panel of B to the rows x nr tile of C at c (acc), or sets the tile to
// it (!acc); C's rows are ldc elements apart. A's element (i, l) is at a +
// i*rsA + l*csA, B's row l (nr contiguous floats) at b + l*csB, all in
// elements; only A's first rows rows are read. 1 <= rows <= mr, kc >= 1.
// (A switch, not a table of funcs: an indirect call would make the
// pointers escape.)
func kernel(rows, kc int, a *float32, rsA, csA int, b *float32, csB int, c *float32, ldc int, alpha float32, acc bool) {
	switch rows {
	case 6:
		kernel6(kc, a, rsA, csA, b, csB, c, ldc, alpha, acc)
	case 5:
		kernel5(kc, a, rsA, csA, b, csB, c, ldc, alpha, acc)
	case 4:
		kernel4(kc, a, rsA, csA, b, csB, c, ldc, alpha, acc)
	case 3:
		kernel3(kc, a, rsA, csA, b, csB, c, ldc, alpha, acc)
	case 2:
		kernel2(kc, a, rsA, csA, b, csB, c, ldc, alpha, acc)
	default:
		kernel1(kc, a, rsA, csA, b, csB, c, ldc, alpha, acc)
	}
}

//go:generate sh -c "python3 gen_kernel.py > kernel_amd64.s"

//go:noescape
func kernel1(kc int, a *float32, rsA, csA int, b *float32, csB int, c *float32, ldc int, alpha float32, acc bool)

//go:noescape
func kernel2(kc int, a *float32, rsA, csA int, b *float32, csB int, c *float32, ldc int, alpha float32, acc bool)

//go:noescape
func kernel3(kc int, a *float32, rsA, csA int, b *float32, csB int, c *float32, ldc int, alpha float32, acc bool)

//go:noescape
func kernel4(kc int, a *float32, rsA, csA int, b *float32, csB int, c *float32, ldc int, alpha float32, acc bool)

//go:noescape
func kernel5(kc int, a *float32, rsA, csA int, b *float32, csB int, c *float32, ldc int, alpha float32, acc bool)

//go:noescape
func kernel6(kc int, a *float32, rsA, csA int, b *float32, csB int, c *float32, ldc int, alpha float32, acc bool)

// packBT16 writes dst[l*16 + j] = src[j*ld + l] for j < 16 and l < 8*k8
// (k8 >= 1): packB's transposing copy of a whole 16-column panel.
//
//go:noescape
func packBT16(k8 int, src *float32, ld int, dst *float32)

// kernel512 is kernel for 32 columns of B: two 16-column panels, the second
// off elements after the first (each with rows csB apart), into a rows x
// 32 tile of C. AVX-512F only.
func kernel512(rows, kc int, a *float32, rsA, csA int, b *float32, csB, off int, c *float32, ldc int, alpha float32, acc bool) {
	switch rows {
	case 6:
		kernel512_6(kc, a, rsA, csA, b, csB, off, c, ldc, alpha, acc)
	case 5:
		kernel512_5(kc, a, rsA, csA, b, csB, off, c, ldc, alpha, acc)
	case 4:
		kernel512_4(kc, a, rsA, csA, b, csB, off, c, ldc, alpha, acc)
	case 3:
		kernel512_3(kc, a, rsA, csA, b, csB, off, c, ldc, alpha, acc)
	case 2:
		kernel512_2(kc, a, rsA, csA, b, csB, off, c, ldc, alpha, acc)
	default:
		kernel512_1(kc, a, rsA, csA, b, csB, off, c, ldc, alpha, acc)
	}
}

//go:noescape
func kernel512_1(kc int, a *float32, rsA, csA int, b *float32, csB, off int, c *float32, ldc int, alpha float32, acc bool)

//go:noescape
func kernel512_2(kc int, a *float32, rsA, csA int, b *float32, csB, off int, c *float32, ldc int, alpha float32, acc bool)

//go:noescape
func kernel512_3(kc int, a *float32, rsA, csA int, b *float32, csB, off int, c *float32, ldc int, alpha float32, acc bool)

//go:noescape
func kernel512_4(kc int, a *float32, rsA, csA int, b *float32, csB, off int, c *float32, ldc int, alpha float32, acc bool)

//go:noescape
func kernel512_5(kc int, a *float32, rsA, csA int, b *float32, csB, off int, c *float32, ldc int, alpha float32, acc bool)

//go:noescape
func kernel512_6(kc int, a *float32, rsA, csA int, b *float32, csB, off int, c *float32, ldc int, alpha float32, acc bool)
