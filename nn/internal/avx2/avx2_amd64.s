//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 Winograd F(2x2, 3x3) tile-row transforms (see bomberzero/nn/winokern.go for
// the contracts). Eight channels per YMM register; unaligned loads and
// stores throughout; the same operations in the same order as the Go
// reference, so the results are bit for bit the same for ordinary numbers.
// Only VADDPS, VSUBPS and VMAXPS: no FMA, no rounding differences.

// WINO_BT_COL computes column b of Bᵀ d from the four input rows at P, P+RS,
// P+2RS, P+3RS (R8 = RS, R9 = 3RS, in bytes): r0 = d0-d2, r1 = d1+d2,
// r2 = d2-d1, r3 = d1-d3.
#define WINO_BT_COL(P, R0, R1, R2, R3) \
	VMOVUPS (P), R0; \
	VSUBPS  (P)(R8*2), R0, R0; \
	VMOVUPS (P)(R8*1), R1; \
	VADDPS  (P)(R8*2), R1, R1; \
	VMOVUPS (P)(R8*2), R2; \
	VSUBPS  (P)(R8*1), R2, R2; \
	VMOVUPS (P)(R8*1), R3; \
	VSUBPS  (P)(R9*1), R3, R3

// WINO_B_ROW computes row i of (Bᵀ d) B from r_i[0..3] in A, B, C, D and
// stores its four elements at Q, Q+DS, Q+2DS, Q+3DS (R10 = DS, R11 = 3DS):
// r0-r2, r1+r2, r2-r1, r1-r3. It overwrites A, C and D.
#define WINO_B_ROW(Q, A, B, C, D) \
	VSUBPS  C, A, A; \
	VMOVUPS A, (Q); \
	VADDPS  C, B, A; \
	VMOVUPS A, (Q)(R10*1); \
	VSUBPS  B, C, C; \
	VMOVUPS C, (Q)(R10*2); \
	VSUBPS  D, B, D; \
	VMOVUPS D, (Q)(R11*1)

// func inputRow(dst *float32, dstStride int, src *float32, rowStride, c, tiles int)
TEXT ·inputRow(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ dstStride+8(FP), R10
	MOVQ src+16(FP), SI
	MOVQ rowStride+24(FP), R8
	MOVQ c+32(FP), CX
	MOVQ tiles+40(FP), BX
	SHLQ $2, R10                // DS in bytes
	SHLQ $2, R8                 // RS in bytes
	SHLQ $2, CX                 // C in bytes
	LEAQ (R8)(R8*2), R9         // 3 RS
	LEAQ (R10)(R10*2), R11      // 3 DS
	MOVQ R10, R12
	SHLQ $2, R12                // 4 DS: from one row of V to the next

tile:
	MOVQ CX, AX                 // bytes of channels left in this tile

chan:
	// Bᵀ d, column by column: r_i[b] in Y(4b+i).
	MOVQ SI, DX
	WINO_BT_COL(DX, Y0, Y1, Y2, Y3)
	ADDQ CX, DX
	WINO_BT_COL(DX, Y4, Y5, Y6, Y7)
	ADDQ CX, DX
	WINO_BT_COL(DX, Y8, Y9, Y10, Y11)
	ADDQ CX, DX
	WINO_BT_COL(DX, Y12, Y13, Y14, Y15)

	// (Bᵀ d) B, row by row, into V[4i..4i+3].
	MOVQ DI, DX
	WINO_B_ROW(DX, Y0, Y4, Y8, Y12)
	ADDQ R12, DX
	WINO_B_ROW(DX, Y1, Y5, Y9, Y13)
	ADDQ R12, DX
	WINO_B_ROW(DX, Y2, Y6, Y10, Y14)
	ADDQ R12, DX
	WINO_B_ROW(DX, Y3, Y7, Y11, Y15)

	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $32, AX
	JNZ  chan

	// SI has moved one tile column (c channels); tiles step two.
	ADDQ CX, SI
	DECQ BX
	JNZ  tile

	VZEROUPPER
	RET

// WINO_AT_COL computes column j' of Aᵀ M from M[j'], M[4+j'], M[8+j'],
// M[12+j'] at P, P+4MS, P+8MS, P+12MS (R10 = 4MS, R11 = 12MS, in bytes):
// S0 = (M0+M1)+M2, S1 = (M1-M2)-M3.
#define WINO_AT_COL(P, S0, S1) \
	VMOVUPS (P)(R10*1), S1; \
	VADDPS  (P), S1, S0; \
	VADDPS  (P)(R10*2), S0, S0; \
	VSUBPS  (P)(R10*2), S1, S1; \
	VSUBPS  (P)(R11*1), S1, S1

// func outputRow(dst *float32, rowStride int, m *float32, mStride int, bias, skip *float32, c, tiles int, relu bool)
TEXT ·outputRow(SB), NOSPLIT, $0-65
	MOVQ rowStride+8(FP), R8
	MOVQ mStride+24(FP), R9
	MOVQ c+48(FP), CX
	SHLQ $2, R8                 // RS in bytes
	SHLQ $2, R9                 // MS in bytes
	SHLQ $2, CX                 // C in bytes
	MOVQ R9, R10
	SHLQ $2, R10                // 4 MS: from one row of M to the next
	LEAQ (R10)(R10*2), R11      // 12 MS
	LEAQ (R8)(CX*1), R12        // RS + C: output Y[1][1]
	VXORPS Y14, Y14, Y14        // zero, for the ReLU
	XORQ AX, AX                 // byte offset of this group of 8 channels

chan:
	MOVQ    bias+32(FP), DX
	VMOVUPS (DX)(AX*1), Y15
	MOVQ    m+16(FP), SI
	ADDQ    AX, SI
	MOVQ    dst+0(FP), DI
	ADDQ    AX, DI
	MOVQ    skip+40(FP), BX     // only dereferenced when skip != nil
	ADDQ    AX, BX
	MOVQ    tiles+56(FP), R13

tile:
	// Aᵀ M, column by column: s0[j'] in Y(j'), s1[j'] in Y(4+j').
	MOVQ SI, DX
	WINO_AT_COL(DX, Y0, Y4)
	ADDQ R9, DX
	WINO_AT_COL(DX, Y1, Y5)
	ADDQ R9, DX
	WINO_AT_COL(DX, Y2, Y6)
	ADDQ R9, DX
	WINO_AT_COL(DX, Y3, Y7)

	// (Aᵀ M) A: Y[0][0], Y[0][1], Y[1][0], Y[1][1] in Y8..Y11.
	VADDPS Y1, Y0, Y8
	VADDPS Y2, Y8, Y8
	VSUBPS Y2, Y1, Y9
	VSUBPS Y3, Y9, Y9
	VADDPS Y5, Y4, Y10
	VADDPS Y6, Y10, Y10
	VSUBPS Y6, Y5, Y11
	VSUBPS Y7, Y11, Y11

	// + bias
	VADDPS Y15, Y8, Y8
	VADDPS Y15, Y9, Y9
	VADDPS Y15, Y10, Y10
	VADDPS Y15, Y11, Y11

	// + skip
	CMPQ   skip+40(FP), $0
	JEQ    noskip
	VADDPS (BX), Y8, Y8
	VADDPS (BX)(CX*1), Y9, Y9
	VADDPS (BX)(R8*1), Y10, Y10
	VADDPS (BX)(R12*1), Y11, Y11

noskip:
	// ReLU: VMAXPS gives its first (Go order) operand, zero, for ±0 and NaN.
	CMPB   relu+64(FP), $0
	JEQ    store
	VMAXPS Y14, Y8, Y8
	VMAXPS Y14, Y9, Y9
	VMAXPS Y14, Y10, Y10
	VMAXPS Y14, Y11, Y11

store:
	VMOVUPS Y8, (DI)
	VMOVUPS Y9, (DI)(CX*1)
	VMOVUPS Y10, (DI)(R8*1)
	VMOVUPS Y11, (DI)(R12*1)

	ADDQ CX, SI                 // next tile: one tile column of M,
	ADDQ CX, DI                 // two output columns
	ADDQ CX, DI
	ADDQ CX, BX
	ADDQ CX, BX
	DECQ R13
	JNZ  tile

	ADDQ $32, AX
	CMPQ AX, CX
	JB   chan

	VZEROUPPER
	RET

// func maskedCopy(dst, src *float32, mask *uint32, n int)
// dst[i] = src[i] AND mask[i], 32 then 8 then 1 element at a time.
TEXT ·maskedCopy(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ mask+16(FP), DX
	MOVQ n+24(FP), CX

copy32:
	CMPQ CX, $32
	JLT  copy8
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VANDPS  (DX), Y0, Y0
	VANDPS  32(DX), Y1, Y1
	VANDPS  64(DX), Y2, Y2
	VANDPS  96(DX), Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  copy32

copy8:
	CMPQ CX, $8
	JLT  copy1
	VMOVUPS (SI), Y0
	VANDPS  (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  copy8

copy1:
	TESTQ CX, CX
	JEQ   copydone
	MOVL (SI), AX
	ANDL (DX), AX
	MOVL AX, (DI)
	ADDQ $4, SI
	ADDQ $4, DX
	ADDQ $4, DI
	DECQ CX
	JMP  copy1

copydone:
	VZEROUPPER
	RET

// func maskedAdd(dst, src *float32, mask *uint32, n int)
// dst[i] = dst[i] + (src[i] AND mask[i]), 32 then 8 then 1 element at a time.
TEXT ·maskedAdd(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ mask+16(FP), DX
	MOVQ n+24(FP), CX

add32:
	CMPQ CX, $32
	JLT  add8
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VANDPS  (DX), Y0, Y0
	VANDPS  32(DX), Y1, Y1
	VANDPS  64(DX), Y2, Y2
	VANDPS  96(DX), Y3, Y3
	VADDPS  (DI), Y0, Y0
	VADDPS  32(DI), Y1, Y1
	VADDPS  64(DI), Y2, Y2
	VADDPS  96(DI), Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $128, DI
	SUBQ $32, CX
	JMP  add32

add8:
	CMPQ CX, $8
	JLT  add1
	VMOVUPS (SI), Y0
	VANDPS  (DX), Y0, Y0
	VADDPS  (DI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JMP  add8

add1:
	TESTQ CX, CX
	JEQ   adddone
	VMOVSS (SI), X0
	VMOVSS (DX), X1
	VANDPS X1, X0, X0
	VADDSS (DI), X0, X0
	VMOVSS X0, (DI)
	ADDQ $4, SI
	ADDQ $4, DX
	ADDQ $4, DI
	DECQ CX
	JMP  add1

adddone:
	VZEROUPPER
	RET
