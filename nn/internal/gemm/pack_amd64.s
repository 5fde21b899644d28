//go:build amd64 && !purego

#include "textflag.h"

// TRANSPOSE8 transposes the 8x8 block of floats in Y0..Y7 (row i in Yi)
// into Y8..Y15 (column i in Y(8+i)), using Y0..Y7 as scratch.
#define TRANSPOSE8 \
	VUNPCKLPS Y1, Y0, Y8; \
	VUNPCKHPS Y1, Y0, Y9; \
	VUNPCKLPS Y3, Y2, Y10; \
	VUNPCKHPS Y3, Y2, Y11; \
	VUNPCKLPS Y5, Y4, Y12; \
	VUNPCKHPS Y5, Y4, Y13; \
	VUNPCKLPS Y7, Y6, Y14; \
	VUNPCKHPS Y7, Y6, Y15; \
	VSHUFPS $0x44, Y10, Y8, Y0; \
	VSHUFPS $0xEE, Y10, Y8, Y1; \
	VSHUFPS $0x44, Y11, Y9, Y2; \
	VSHUFPS $0xEE, Y11, Y9, Y3; \
	VSHUFPS $0x44, Y14, Y12, Y4; \
	VSHUFPS $0xEE, Y14, Y12, Y5; \
	VSHUFPS $0x44, Y15, Y13, Y6; \
	VSHUFPS $0xEE, Y15, Y13, Y7; \
	VPERM2F128 $0x20, Y4, Y0, Y8; \
	VPERM2F128 $0x20, Y5, Y1, Y9; \
	VPERM2F128 $0x20, Y6, Y2, Y10; \
	VPERM2F128 $0x20, Y7, Y3, Y11; \
	VPERM2F128 $0x31, Y4, Y0, Y12; \
	VPERM2F128 $0x31, Y5, Y1, Y13; \
	VPERM2F128 $0x31, Y6, Y2, Y14; \
	VPERM2F128 $0x31, Y7, Y3, Y15

// LOAD8 loads 8 floats from each of the 8 rows at P, P+S, ..., P+7S
// (R9 = S, R10 = 3S, R11 = 5S, R12 = 7S in bytes) into Y0..Y7.
#define LOAD8(P) \
	VMOVUPS (P), Y0; \
	VMOVUPS (P)(R9*1), Y1; \
	VMOVUPS (P)(R9*2), Y2; \
	VMOVUPS (P)(R10*1), Y3; \
	VMOVUPS (P)(R9*4), Y4; \
	VMOVUPS (P)(R11*1), Y5; \
	VMOVUPS (P)(R10*2), Y6; \
	VMOVUPS (P)(R12*1), Y7

// STORE8(OFF) stores Y8..Y15 as the first (OFF 0) or second (OFF 32) half
// of 8 consecutive 16-float rows at DI.
#define STORE8(OFF) \
	VMOVUPS Y8, (OFF+0)(DI); \
	VMOVUPS Y9, (OFF+64)(DI); \
	VMOVUPS Y10, (OFF+128)(DI); \
	VMOVUPS Y11, (OFF+192)(DI); \
	VMOVUPS Y12, (OFF+256)(DI); \
	VMOVUPS Y13, (OFF+320)(DI); \
	VMOVUPS Y14, (OFF+384)(DI); \
	VMOVUPS Y15, (OFF+448)(DI)

// func packBT16(k8 int, src *float32, ld int, dst *float32)
//
// Writes dst[l*16 + j] = src[j*ld + l] for j < 16, l < 8*k8: 16 rows of
// the source become one 16-column panel, 8x8 blocks at a time.
TEXT ·packBT16(SB), NOSPLIT, $0-32
	MOVQ k8+0(FP), CX
	MOVQ src+8(FP), SI
	MOVQ ld+16(FP), R9
	MOVQ dst+24(FP), DI
	SHLQ $2, R9
	LEAQ (R9)(R9*2), R10
	LEAQ (R9)(R9*4), R11
	LEAQ (R10)(R9*4), R12
	LEAQ (SI)(R9*8), R8         // rows 8..15

loop:
	LOAD8(SI)
	TRANSPOSE8
	STORE8(0)
	LOAD8(R8)
	TRANSPOSE8
	STORE8(32)
	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $512, DI
	DECQ CX
	JNZ  loop
	VZEROUPPER
	RET
