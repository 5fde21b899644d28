//go:build !openblas

package nn

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"

	"bomberzero/nn/internal/gemm"
)

// BLASName names the BLAS this build multiplies matrices with.
const BLASName = "pure Go (Go assembly GEMM, gonum elsewhere)"

// BLASCore names the kernel family this build's SGEMM runs on this
// processor: "gemm-avx512" or "gemm-avx2" (package gemm's assembly
// micro-kernels) or "gonum" (gonum's pure Go, under the purego tag or
// without AVX2 and FMA).
func BLASCore() string {
	if gemm.Available() {
		return "gemm-" + gemm.Kernels()
	}
	return "gonum"
}

// ExactRows reports whether this build's inference gives each position
// the same output bits whatever the batch it is evaluated in: its size, the
// position's place in it and the other positions. It holds where the
// products are package gemm's assembly (every element summed in one fixed
// order, gemm.Exact); the rest of inference works row by row or tile by
// tile. gonum's fallback (the purego tag, or no AVX2) sums in orders that
// depend on its operands' alignment.
func ExactRows() bool { return gemm.Exact() }

// tileForSerial says whether single-goroutine products must be cut into
// tiles to keep gonum from going parallel: only where gemm.Sgemm is gonum's.
var tileForSerial = !gemm.Available()

func init() {
	if gemm.Available() {
		blas32.Use(gemmBLAS{})
	}
}

// gemmBLAS is gonum's Float32 BLAS with Sgemm replaced by package gemm's,
// which is serial and allocates nothing.
type gemmBLAS struct{ gonum.Implementation }

func (gemmBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gemm.Sgemm(tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// SetBLASThreads is kept for callers written against an earlier nn.
//
// Deprecated: nn runs every product single-threaded on goroutines of its
// own (GOMAXPROCS of them in a training step, one per evaluator in
// inference), and keeps OpenBLAS at 1 thread so that no BLAS threads
// oversubscribe the cores; n is ignored. Bound nn's parallelism with
// GOMAXPROCS.
func SetBLASThreads(n int) {}
