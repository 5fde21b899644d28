package gemm

import (
	"testing"
)

// benchShapes are the network's products (m x n x k): the 1024^3 ceiling,
// a conv forward as im2col (cout x batch*hw x 9*cin), its weight gradient
// (A x Bᵀ) and input gradient (Aᵀ x B), a Winograd slab (tiles x cout x
// cin) and the value heads' first dense layer at small batches.
var benchShapes = []struct {
	name    string
	tA, tB  bool
	m, n, k int
}{
	{"1024^3", false, false, 1024, 1024, 1024},
	{"conv3200x64x576", false, false, 3200, 64, 576},
	{"conv64x3200x576", false, false, 64, 3200, 576},
	{"convdW64x576x3200/NT", false, true, 64, 576, 3200},
	{"convdX576x3200x64/TN", true, false, 576, 3200, 64},
	{"128x576x64", false, false, 128, 576, 64},
	{"wino200x64x64", false, false, 200, 64, 64},
	// The value heads' fc1 of the 6x64 net (2x64 hidden units over 144
	// padded squares x 8 channels) at batches of 1 and 4, its weights
	// stored as inference stores them (NN) and transposed (NT: fewer rows
	// than a panel by a transposed B).
	{"fc1-1x128x1152/NN", false, false, 1, 128, 1152},
	{"fc1-4x128x1152/NN", false, false, 4, 128, 1152},
	{"fc1-1x128x1152/NT", false, true, 1, 128, 1152},
	{"fc1-4x128x1152/NT", false, true, 4, 128, 1152},
}

func benchGemm(b *testing.B, f func(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)) {
	for _, s := range benchShapes {
		b.Run(s.name, func(b *testing.B) {
			a, bb, c := make([]float32, s.m*s.k), make([]float32, s.k*s.n), make([]float32, s.m*s.n)
			for i := range a {
				a[i] = float32(i%7) * 0.1
			}
			for i := range bb {
				bb[i] = float32(i%5) * 0.1
			}
			lda, ldb := s.k, s.n
			if s.tA {
				lda = s.m
			}
			if s.tB {
				ldb = s.k
			}
			b.ResetTimer()
			cpu0 := cpuTime()
			for b.Loop() {
				f(s.tA, s.tB, s.m, s.n, s.k, 1, a, lda, bb, ldb, 0, c, s.n)
			}
			flop := 2 * float64(s.m*s.n*s.k) * float64(b.N)
			b.ReportMetric(flop/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(flop/cpu.Seconds()/1e9, "GFLOP/CPU-s")
			}
		})
	}
}

func BenchmarkSgemm(b *testing.B) {
	kernelSets(func(name string) { b.Run(name, func(b *testing.B) { benchGemm(b, Sgemm) }) })
}

// BenchmarkGonum is gonum's blas32 on the same shapes. It may go parallel
// on large products: run it with -cpu 1 for a single-threaded baseline.
func BenchmarkGonum(b *testing.B) { benchGemm(b, Reference) }
