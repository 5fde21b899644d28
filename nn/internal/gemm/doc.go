// Package gemm is a single-threaded float32 matrix product for row-major
// matrices, C = alpha*op(A)*op(B) + beta*C, the pure-Go build's BLAS for
// package nn.
//
// It follows the BLIS/GotoBLAS structure: op(B) is packed KC x NC at a time
// into panels NR columns wide, op(A) MC x KC at a time into panels MR rows
// tall (both padded with zeros to whole panels), and a register-blocked
// micro-kernel multiplies one A panel by one B panel into an MR x NR tile of
// C. On amd64 the micro-kernel is AVX2+FMA assembly (6x16, twelve YMM
// accumulators) when the CPU has them, and the build lacks the purego tag;
// elsewhere Sgemm hands the product to gonum's pure-Go blas32.
//
// Packing buffers come from a sync.Pool, so Sgemm allocates nothing in
// steady state and may be called from many goroutines at once; each call
// runs on the calling goroutine only.
package gemm
