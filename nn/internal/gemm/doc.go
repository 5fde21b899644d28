// Package gemm is a single-threaded float32 matrix product for row-major
// matrices, C = alpha*op(A)*op(B) + beta*C, the pure-Go build's BLAS for
// package nn.
//
// It follows the BLIS/GotoBLAS structure: op(B) is packed KC x NC at a time
// into panels NR = 16 columns wide, op(A) MC x KC at a time into panels
// MR = 6 rows tall, and a register-blocked micro-kernel multiplies one A
// panel by one B panel into an MR x NR tile of C (AVX2+FMA assembly, twelve
// YMM accumulators; kernels for 1 to 5 rows take a partial last A panel).
// With AVX-512F a 6x32 kernel (twelve ZMM accumulators) takes two whole B
// panels at once.
// Small operands, common in inference, are read in place instead: A when
// few B panels reuse it, B when its rows are close together. Fewer than MR
// rows of op(A) times a transposed B is computed as its transpose: B as
// stored times op(A)ᵀ.
//
// Every element of C gets the same operations in the same order whatever
// the product's shape and its place in it (Exact), so a network's output
// for one position has the same bits in a batch of any size.
//
// The assembly runs on amd64 with AVX2 and FMA (checked once with
// golang.org/x/sys/cpu) in builds without the purego tag; elsewhere Sgemm
// is gonum's blas32 Sgemm (Available reports which).
//
// Packing buffers come from a free list that keeps them, so Sgemm
// allocates nothing in steady state and may be called from many goroutines
// at once; each call runs on the calling goroutine only.
package gemm
