package gemm

import (
	"fmt"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// Cache blocking (see the package comment). A KC x NR panel of B (16 KiB)
// stays in L1 while the kernel sweeps the MC x KC block of A (120 KiB) held
// in L2; the KC x NC block of B (at most 2 MiB) streams from L2/L3.
const (
	mr = 6
	nr = 16
	kc = 256
	mc = 120
	nc = 2048
)

// buffers are one call's packing buffers; b grows to the largest packed
// block of B the goroutine's calls have needed (at most kc x nc).
type buffers struct {
	a     [mc * kc]float32
	edgeB [kc * nr]float32
	b     []float32
	t     []float32 // transposed's Cᵀ
}

// free holds the buffers no call is using. Unlike a sync.Pool it is never
// emptied by the garbage collector, so steady state allocates nothing; it
// holds at most as many buffers as calls have ever run at once.
var free struct {
	sync.Mutex
	bufs []*buffers
}

func getBuffers() *buffers {
	free.Lock()
	defer free.Unlock()
	if n := len(free.bufs); n > 0 {
		b := free.bufs[n-1]
		free.bufs = free.bufs[:n-1]
		return b
	}
	return new(buffers)
}

func putBuffers(b *buffers) {
	free.Lock()
	free.bufs = append(free.bufs, b)
	free.Unlock()
}

// Sgemm computes C = alpha*op(A)*op(B) + beta*C on the calling goroutine.
// All matrices are row-major; op(X) is X or its transpose as trans says;
// op(A) is m x k, op(B) is k x n and C is m x n, with leading dimensions
// lda, ldb and ldc. It panics, as gonum's Sgemm does, on bad dimensions or
// slices too short for them. With beta 0, C is overwritten (NaNs in it do
// not propagate).
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if !useAsm {
		Reference(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	check(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || alpha == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	if transB && m < mr && n >= mr {
		// Fewer rows than one panel: packing (transposing) B would cost as
		// much as the product. Cᵀ = op(B)ᵀ·op(A)ᵀ instead, whose A is B as
		// stored, read in place: the same kernels, so every element is
		// summed in the same order as in any other product (see Exact).
		transposed(transA, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if beta != 0 {
		scaleC(m, n, beta, c, ldc)
	}
	buf := getBuffers()
	defer putBuffers(buf)
	if need := min(k, kc) * min((n+nr-1)/nr*nr, nc); len(buf.b) < need {
		buf.b = make([]float32, need)
	}
	for jc := 0; jc < n; jc += nc {
		ncc := min(nc, n-jc)
		// A block serves ncc/nr panels of B: packing it pays only when
		// that is many.
		directA := ncc <= directANC
		for pc := 0; pc < k; pc += kc {
			kcc := min(kc, k-pc)
			var opB operand
			if !transB && (kcc*ldb <= directBElems || m <= directBM && ldb%256 != 0) {
				// B's rows are close enough to stay in L1 as they are, or
				// too few rows of A reuse a packed B to pay for packing it
				// (and its row stride is not a multiple of 1 KiB, which
				// would crowd its rows into a few cache sets): the kernel
				// reads it in place, and only a partial last panel is
				// packed (zero padded).
				opB = operand{s: b[pc*ldb+jc:], panel: nr, cs: ldb}
				if full := ncc / nr * nr; full < ncc {
					packB(false, kcc, ncc-full, b, ldb, pc, jc+full, buf.edgeB[:])
					opB.edge, opB.edgeCS = buf.edgeB[:], nr
				}
			} else {
				packB(transB, kcc, ncc, b, ldb, pc, jc, buf.b)
				opB = operand{s: buf.b, panel: nr * kcc, cs: nr}
			}
			for ic := 0; ic < m; ic += mc {
				mcc := min(mc, m-ic)
				var opA operand
				switch {
				case !directA:
					packA(transA, mcc, kcc, a, lda, ic, pc, buf.a[:])
					opA = operand{s: buf.a[:], panel: mr * kcc, rs: 1, cs: mr}
				case transA:
					opA = operand{s: a[pc*lda+ic:], panel: mr, rs: 1, cs: lda}
				default:
					opA = operand{s: a[ic*lda+pc:], panel: mr * lda, rs: lda, cs: 1}
				}
				// With beta 0 the first block of k sets C, the others add.
				macro(mcc, ncc, kcc, alpha, opA, opB, c[ic*ldc+jc:], ldc, beta != 0 || pc > 0)
			}
		}
	}
}

// transposed computes C = alpha*op(A)*op(B) + beta*C for a transposed B
// (m < mr <= n) as Cᵀ = alpha*op(B)ᵀ*op(A)ᵀ + beta*Cᵀ in a buffer, then
// copies Cᵀ back: op(B)ᵀ is B as stored, and op(A)ᵀ is A transposed once
// more. Each element gets exactly the operations Sgemm's main path gives
// it (beta*C first, then the blocks of k in order).
func transposed(transA bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	buf := getBuffers()
	defer putBuffers(buf)
	if len(buf.t) < m*n {
		buf.t = make([]float32, m*n)
	}
	t := buf.t[:m*n] // n x m
	innerBeta := float32(0)
	if beta != 0 {
		// As scaleC would: C itself when beta is 1, beta*C otherwise.
		for i := range m {
			row := c[i*ldc : i*ldc+n]
			for j, v := range row {
				if beta != 1 {
					v *= beta
				}
				t[j*m+i] = v
			}
		}
		innerBeta = 1
	}
	Sgemm(false, !transA, n, m, k, alpha, b, ldb, a, lda, innerBeta, t, m)
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		for j := range row {
			row[j] = t[j*m+i]
		}
	}
}

// When A and B are read in place rather than packed (see Sgemm).
const (
	directANC    = 4 * nr
	directBElems = 16384
	directBM     = 128
)

// operand says where the kernel finds a block's panels: panel p (of mr
// rows of A or nr columns of B) starts at s[p*panel], element (i, l) of
// an A panel is at i*rs + l*cs from there, row l of a B panel at l*cs. A
// partial last panel of B, when the block is read in place, is packed in
// edge (row l at l*edgeCS); a partial last panel of A needs no packing, as
// the kernels for fewer than mr rows read only those rows.
type operand struct {
	s             []float32
	panel, rs, cs int
	edge          []float32
	edgeCS        int
}

// Reference is gonum's pure-Go Sgemm with Sgemm's signature: the fallback
// where there is no assembly kernel, and the benchmarks' baseline. It calls
// gonum's implementation itself, not whatever blas32 has installed (nn
// installs this package's Sgemm there).
func Reference(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	ta, tb := blas.NoTrans, blas.NoTrans
	if transA {
		ta = blas.Trans
	}
	if transB {
		tb = blas.Trans
	}
	gonum.Implementation{}.Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// check panics unless every slice holds the matrix its dimensions describe.
func check(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("gemm: negative dimension m=%d n=%d k=%d", m, n, k))
	}
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	if lda < max(1, ac) || ldb < max(1, bc) || ldc < max(1, n) {
		panic(fmt.Sprintf("gemm: bad leading dimension lda=%d ldb=%d ldc=%d for m=%d n=%d k=%d", lda, ldb, ldc, m, n, k))
	}
	need := func(rows, cols, ld, have int, name string) {
		if rows > 0 && cols > 0 && have < (rows-1)*ld+cols {
			panic(fmt.Sprintf("gemm: %s is too short: %d < %d", name, have, (rows-1)*ld+cols))
		}
	}
	need(ar, ac, lda, len(a), "A")
	need(br, bc, ldb, len(b), "B")
	need(m, n, ldc, len(c), "C")
}

// scaleC sets C = beta*C (C = 0 when beta is 0).
func scaleC(m, n int, beta float32, c []float32, ldc int) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// packA copies the mcc x kcc block of op(A) at (ic, pc) into dst as panels
// of mr rows: panel p holds element (i, l) at p*mr*kcc + l*mr + i, with
// rows past mcc zero.
func packA(trans bool, mcc, kcc int, a []float32, lda, ic, pc int, dst []float32) {
	for ir := 0; ir < mcc; ir += mr {
		rows := min(mr, mcc-ir)
		panel := dst[ir*kcc : ir*kcc+mr*kcc]
		if !trans {
			// op(A)(i, l) = a[i*lda + l]
			base := (ic+ir)*lda + pc
			if rows == mr {
				r0 := a[base : base+kcc]
				r1 := a[base+lda : base+lda+kcc]
				r2 := a[base+2*lda : base+2*lda+kcc]
				r3 := a[base+3*lda : base+3*lda+kcc]
				r4 := a[base+4*lda : base+4*lda+kcc]
				r5 := a[base+5*lda : base+5*lda+kcc]
				for l := range kcc {
					d := panel[l*mr : l*mr+mr : l*mr+mr]
					d[0], d[1], d[2], d[3], d[4], d[5] = r0[l], r1[l], r2[l], r3[l], r4[l], r5[l]
				}
				continue
			}
			for l := range kcc {
				d := panel[l*mr : l*mr+mr]
				for i := range rows {
					d[i] = a[base+i*lda+l]
				}
				clear(d[rows:])
			}
			continue
		}
		// op(A)(i, l) = a[l*lda + i]
		for l := range kcc {
			d := panel[l*mr : l*mr+mr]
			src := a[(pc+l)*lda+ic+ir:]
			copy(d, src[:rows])
			clear(d[rows:])
		}
	}
}

// packB copies the kcc x ncc block of op(B) at (pc, jc) into dst as panels
// of nr columns: panel q holds element (l, j) at q*nr*kcc + l*nr + j, with
// columns past ncc zero.
func packB(trans bool, kcc, ncc int, b []float32, ldb, pc, jc int, dst []float32) {
	for jr := 0; jr < ncc; jr += nr {
		cols := min(nr, ncc-jr)
		panel := dst[jr*kcc : jr*kcc+nr*kcc]
		if !trans {
			// op(B)(l, j) = b[l*ldb + j]
			if cols == nr {
				for l := range kcc {
					*(*[nr]float32)(panel[l*nr:]) = *(*[nr]float32)(b[(pc+l)*ldb+jc+jr:])
				}
				continue
			}
			for l := range kcc {
				d := panel[l*nr : l*nr+nr]
				copy(d, b[(pc+l)*ldb+jc+jr:][:cols])
				clear(d[cols:])
			}
			continue
		}
		// op(B)(l, j) = b[j*ldb + l]
		l0 := 0
		if cols == nr && kcc >= 8 {
			// Whole 8x8 blocks in assembly; the bounds were checked
			// by Sgemm's check.
			_ = b[(jc+jr+nr-1)*ldb+pc+kcc-1]
			packBT16(kcc/8, &b[(jc+jr)*ldb+pc], ldb, &panel[0])
			l0 = kcc / 8 * 8
		}
		for j := range cols {
			src := b[(jc+jr+j)*ldb+pc:][:kcc]
			for l := l0; l < kcc; l++ {
				panel[l*nr+j] = src[l]
			}
		}
		if cols < nr {
			for l := range kcc {
				clear(panel[l*nr+cols : l*nr+nr])
			}
		}
	}
}

// macro adds alpha times the mcc x kcc block of op(A) times the kcc x ncc
// block of op(B) (described by opA and opB) to the mcc x ncc block of C at c
// (acc), or sets the block to it (!acc). It sweeps A's panels for each B
// panel (which stays in L1), or, when all of the B block fits in L1 beside
// an A panel, B's panels for each A panel.
func macro(mcc, ncc, kcc int, alpha float32, opA, opB operand, c []float32, ldc int, acc bool) {
	var tile [mr * nr]float32
	do := func(ir, jr int) {
		rows, cols := min(mr, mcc-ir), min(nr, ncc-jr)
		var bp []float32
		bcs := opB.cs
		if cols < nr && opB.edge != nil {
			bp, bcs = opB.edge, opB.edgeCS
		} else {
			bp = opB.s[jr/nr*opB.panel:]
		}
		ap := opA.s[ir/mr*opA.panel:]
		if cols == nr {
			kernel(rows, kcc, &ap[0], opA.rs, opA.cs, &bp[0], bcs, &c[ir*ldc+jr], ldc, alpha, acc)
			return
		}
		// A partial panel goes through a whole tile: C's block in it first
		// when accumulating, so that each element gets the same fused
		// C + alpha*sum as in a whole panel.
		if acc {
			for i := range rows {
				copy(tile[i*nr:][:cols], c[(ir+i)*ldc+jr:][:cols])
			}
		}
		kernel(rows, kcc, &ap[0], opA.rs, opA.cs, &bp[0], bcs, &tile[0], nr, alpha, acc)
		for i := range rows {
			copy(c[(ir+i)*ldc+jr:][:cols], tile[i*nr:][:cols])
		}
	}
	// do2 is do for two whole B panels at once (AVX-512).
	do2 := func(ir, jr int) {
		bp := opB.s[jr/nr*opB.panel:]
		ap := opA.s[ir/mr*opA.panel:]
		kernel512(min(mr, mcc-ir), kcc, &ap[0], opA.rs, opA.cs, &bp[0], opB.cs, opB.panel, &c[ir*ldc+jr], ldc, alpha, acc)
	}
	// width is the columns of B the step at jr takes: two panels when the
	// AVX-512 kernels run and both are whole.
	width := func(jr int) int {
		if useAVX512 && jr+2*nr <= ncc {
			return 2 * nr
		}
		return nr
	}
	if kcc*ncc <= smallB {
		for ir := 0; ir < mcc; ir += mr {
			for jr := 0; jr < ncc; {
				w := width(jr)
				if w == nr {
					do(ir, jr)
				} else {
					do2(ir, jr)
				}
				jr += w
			}
		}
		return
	}
	for jr := 0; jr < ncc; {
		w := width(jr)
		for ir := 0; ir < mcc; ir += mr {
			if w == nr {
				do(ir, jr)
			} else {
				do2(ir, jr)
			}
		}
		jr += w
	}
}

// smallB is the most elements of a B block that macro keeps in L1 whole
// (24 KiB of the 32 KiB).
const smallB = 6144

// Exact reports whether every element of C is computed by the same
// operations whatever the shape of the product it is part of, its place in
// C and the micro-kernel that computes it: with beta*C first (C = 0 for
// beta 0), then for each block of kc = 256 products in order, from the
// first, their fused multiply-add chain from zero, s, and C = alpha*s (the
// first block with beta 0) or C = fma(alpha, s, C). So a row of a product
// has the same bits alone or in a batch of any size, at any place in it.
// It holds for the assembly kernels (Available); gonum's fallback sums in
// an order that depends on the operands' alignment and its own blocking.
func Exact() bool { return useAsm }

// Available reports whether Sgemm runs this package's assembly kernel
// (amd64 with AVX2 and FMA, built without the purego tag); when it is false
// Sgemm is gonum's blas32 Sgemm, which spreads large products over
// goroutines of its own.
func Available() bool { return useAsm }

// Kernels names the micro-kernels Sgemm runs on this CPU: "avx512" (the
// 6x32 AVX-512 kernels beside the AVX2 ones), "avx2", or "gonum" when
// Available is false.
func Kernels() string {
	switch {
	case useAVX512:
		return "avx512"
	case useAsm:
		return "avx2"
	}
	return "gonum"
}
