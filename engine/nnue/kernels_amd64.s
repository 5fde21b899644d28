//go:build amd64 && !purego

#include "textflag.h"

// func head16(h2 *float32, x *float32, w2 *float32, n int)
// h2[0:16] += sum over i < n of clip(x[i]) * w2[16i : 16i+16], clip to [0, 1];
// n is even and positive. Two pairs of accumulators (even and odd i) hide
// the FMA latency.
TEXT ·head16(SB), NOSPLIT, $0-32
	MOVQ h2+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w2+16(FP), DX
	MOVQ n+24(FP), CX
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VXORPS  Y2, Y2, Y2
	VXORPS  Y3, Y3, Y3
	VXORPS  X6, X6, X6
	MOVL    $0x3f800000, AX
	MOVL    AX, X7

loop:
	VMOVSS       (SI), X4
	VMAXSS       X6, X4, X4
	VMINSS       X7, X4, X4
	VBROADCASTSS X4, Y4
	VMOVSS       4(SI), X5
	VMAXSS       X6, X5, X5
	VMINSS       X7, X5, X5
	VBROADCASTSS X5, Y5
	VFMADD231PS  (DX), Y4, Y0
	VFMADD231PS  32(DX), Y4, Y1
	VFMADD231PS  64(DX), Y5, Y2
	VFMADD231PS  96(DX), Y5, Y3
	ADDQ         $8, SI
	ADDQ         $128, DX
	SUBQ         $2, CX
	JNZ          loop

	VADDPS  Y2, Y0, Y0
	VADDPS  Y3, Y1, Y1
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VZEROUPPER
	RET

// func addRow8(dst, src *float32, n int)
// dst[i] += src[i] for i < n, n a positive multiple of 8.
TEXT ·addRow8(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

addloop:
	VMOVUPS (SI), Y0
	VADDPS  (DI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     addloop
	VZEROUPPER
	RET

// func subRow8(dst, src *float32, n int)
// dst[i] -= src[i] for i < n, n a positive multiple of 8.
TEXT ·subRow8(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

subloop:
	VMOVUPS (DI), Y0
	VSUBPS  (SI), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JNZ     subloop
	VZEROUPPER
	RET
