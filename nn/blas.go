package nn

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// The network multiplies matrices with the build's BLAS (package
// nn/internal/gemm's Go assembly by default, gonum's pure Go under the
// purego tag or without AVX2, OpenBLAS with the openblas build tag), always one
// single-threaded product per goroutine: an evaluator runs on one core, and
// a training step splits each product's columns over GOMAXPROCS goroutines
// itself. Go then schedules all the parallel work (products, im2col,
// BatchNorm), with no BLAS threads spinning beside it.

// sgemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices with
// the build's BLAS in one call. op(A) is m x k and op(B) is k x n.
func sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	ta, tb := blas.NoTrans, blas.NoTrans
	if transA {
		ta = blas.Trans
	}
	if transB {
		tb = blas.Trans
	}
	blas32.Implementation().Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gemmTile is the output tile edge that keeps gonum's Sgemm serial: it
// spreads a product of 4 or more 64x64 output blocks over goroutines (and
// allocates to do so). sgemmPar also splits columns in multiples of it.
const gemmTile = 64

// sgemmSerial is sgemm (alpha 1) on the calling goroutine only. Where the
// product is gonum's (tileForSerial) it is cut into 64x64 output tiles, each
// too small for gonum to go parallel; package gemm and OpenBLAS run
// single-threaded and get it whole.
func sgemmSerial(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !tileForSerial {
		sgemm(transA, transB, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
		return
	}
	for i := 0; i < m; i += gemmTile {
		mi := min(gemmTile, m-i)
		ao := i * lda // rows i.. of op(A)
		if transA {
			ao = i
		}
		for j := 0; j < n; j += gemmTile {
			nj := min(gemmTile, n-j)
			bo := j // columns j.. of op(B)
			if transB {
				bo = j * ldb
			}
			sgemm(transA, transB, mi, nj, k, 1, a[ao:], lda, b[bo:], ldb, beta, c[i*ldc+j:], ldc)
		}
	}
}

// sgemmPar is sgemmSerial with C's columns split into one contiguous range
// per GOMAXPROCS goroutine when par is set.
func sgemmPar(par bool, transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !par {
		sgemmSerial(transA, transB, m, n, k, a, lda, b, ldb, beta, c, ldc)
		return
	}
	chunks := min(maxProcs(), (n+gemmTile-1)/gemmTile)
	per := (n/gemmTile + chunks - 1) / chunks * gemmTile
	if per == 0 {
		per = n
	}
	chunks = (n + per - 1) / per
	forEach(chunks, func(ci int) {
		j := ci * per
		nj := min(per, n-j)
		bo := j
		if transB {
			bo = j * ldb
		}
		sgemmSerial(transA, transB, m, nj, k, a, lda, b[bo:], ldb, beta, c[j:], ldc)
	})
}

// Sgemm is the single-threaded product exported for benchmarks that
// measure the build's ceiling on the network's shapes: C (m x n) = A (m x
// k) * B (k x n), all row-major and contiguous. par splits the columns over
// GOMAXPROCS goroutines, as a training step does.
func Sgemm(par bool, m, n, k int, a, b, c []float32) {
	sgemmPar(par, false, false, m, n, k, a, k, b, n, 0, c, n)
}
