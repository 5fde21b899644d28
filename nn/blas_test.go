package nn

import (
	"testing"

	"bomberzero/nn/internal/gemm"
)

// BenchmarkSgemmShapes measures this build's single-threaded product
// (sgemmSerial) on the network's shapes, m x n x k: run it in the default
// and the openblas build side by side (docs/BENCHMARKS.md).
func BenchmarkSgemmShapes(b *testing.B) { benchSgemmShapes(b, sgemmSerial) }

// BenchmarkSgemmShapesGonum is gonum's pure-Go Sgemm, whole, on the same
// shapes: the pure-Go build's product before package gemm. Run it with -cpu
// 1 (gonum splits large products over goroutines).
func BenchmarkSgemmShapesGonum(b *testing.B) {
	benchSgemmShapes(b, func(transA, transB bool, m, n, k int, a []float32, lda int, bb []float32, ldb int, beta float32, c []float32, ldc int) {
		gemm.Reference(transA, transB, m, n, k, 1, a, lda, bb, ldb, beta, c, ldc)
	})
}

func benchSgemmShapes(b *testing.B, gemm func(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)) {
	for _, s := range []struct {
		name    string
		tA, tB  bool
		m, n, k int
	}{
		{"1024x1024x1024", false, false, 1024, 1024, 1024},
		{"im2col3200x64x576", false, false, 3200, 64, 576},
		{"conv64x3200x576", false, false, 64, 3200, 576},
		{"dW64x576x3200_NT", false, true, 64, 576, 3200},
		{"dX576x3200x64_TN", true, false, 576, 3200, 64},
		{"128x576x64", false, false, 128, 576, 64},
		{"wino36x64x64", false, false, 36, 64, 64},
		{"wino288x64x64", false, false, 288, 64, 64},
	} {
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
			for b.Loop() {
				gemm(s.tA, s.tB, s.m, s.n, s.k, a, lda, bb, ldb, 0, c, s.n)
			}
			b.ReportMetric(2*float64(s.m*s.n*s.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
