package nn

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// sgemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices with
// the build's BLAS (gonum's pure Go code by default, OpenBLAS with the
// openblas build tag). op(A) is m x k and op(B) is k x n.
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

// Sgemm is sgemm exported for benchmarks that measure the build's BLAS
// ceiling on the shapes the network uses: C (m x n) = A (m x k) * B (k x n),
// all row-major and contiguous.
func Sgemm(m, n, k int, a, b, c []float32) {
	sgemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
}

// sgemmSerialNN computes C (m x n) = A (m x k) * B (k x n) + beta*C on the
// calling goroutine only. gonum's Sgemm spreads a product of 4 or more
// 64x64 output blocks over goroutines (and allocates to do so); an
// evaluator already runs one per core, so in the pure-Go build the product
// is cut into 64x64 output tiles, each too small to go parallel. OpenBLAS
// calls are made whole: its threading is set by SetBLASThreads.
func sgemmSerialNN(m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !tileForSerial {
		sgemm(false, false, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
		return
	}
	const tile = 64
	for i := 0; i < m; i += tile {
		mi := min(tile, m-i)
		for j := 0; j < n; j += tile {
			nj := min(tile, n-j)
			sgemm(false, false, mi, nj, k, 1, a[i*lda:], lda, b[j:], ldb, beta, c[i*ldc+j:], ldc)
		}
	}
}
