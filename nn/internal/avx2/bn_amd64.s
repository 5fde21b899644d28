//go:build amd64 && !purego

#include "textflag.h"

// The BatchNorm and ReLU passes of training (nn/bnkern.go has their
// contracts and the Go references they equal bit for bit). Each runs 8
// elements at a time, then one at a time. The float64 sums keep 8 lane
// sums in two YMM registers (lanes 0-3 and 4-7, lane i%8 over the 8-wide
// part), fold them as ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)) and add a
// separate sum of the tail.

// func bnNormalize(y, z, skip *float32, n int, mean, inv, scale, shift float32, relu bool)
TEXT ·bnNormalize(SB), NOSPLIT, $0-49
	MOVQ         y+0(FP), DI
	MOVQ         z+8(FP), SI
	MOVQ         skip+16(FP), DX
	MOVQ         n+24(FP), CX
	VBROADCASTSS mean+32(FP), Y8
	VBROADCASTSS inv+36(FP), Y9
	VBROADCASTSS scale+40(FP), Y10
	VBROADCASTSS shift+44(FP), Y11
	MOVBLZX      relu+48(FP), R8

norm8:
	CMPQ    CX, $8
	JLT     norm1
	VMOVUPS (SI), Y0
	VSUBPS  Y8, Y0, Y0
	VMULPS  Y9, Y0, Y0
	VMOVUPS Y0, (SI)
	VMULPS  Y10, Y0, Y1
	VADDPS  Y11, Y1, Y1
	TESTQ   DX, DX
	JZ      norm8noskip
	VADDPS  (DX), Y1, Y1
	ADDQ    $32, DX

norm8noskip:
	TESTQ   R8, R8
	JZ      norm8store
	VPSRAD  $31, Y1, Y2
	VANDNPS Y1, Y2, Y1

norm8store:
	VMOVUPS Y1, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $8, CX
	JMP     norm8

norm1:
	TESTQ  CX, CX
	JEQ    normdone
	VMOVSS (SI), X0
	VSUBSS X8, X0, X0
	VMULSS X9, X0, X0
	VMOVSS X0, (SI)
	VMULSS X10, X0, X1
	VADDSS X11, X1, X1
	TESTQ  DX, DX
	JZ     norm1noskip
	VADDSS (DX), X1, X1
	ADDQ   $4, DX

norm1noskip:
	TESTQ   R8, R8
	JZ      norm1store
	VPSRAD  $31, X1, X2
	VANDNPS X1, X2, X1

norm1store:
	VMOVSS X1, (DI)
	ADDQ   $4, SI
	ADDQ   $4, DI
	DECQ   CX
	JMP    norm1

normdone:
	VZEROUPPER
	RET

// func bnMoments(z *float32, n int) (sum, sq float64)
TEXT ·bnMoments(SB), NOSPLIT, $0-32
	MOVQ   z+0(FP), SI
	MOVQ   n+8(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD X4, X4, X4
	VXORPD X5, X5, X5

mom8:
	CMPQ      CX, $8
	JLT       mom1
	VCVTPS2PD (SI), Y6
	VCVTPS2PD 16(SI), Y7
	VADDPD    Y6, Y0, Y0
	VADDPD    Y7, Y1, Y1
	VMULPD    Y6, Y6, Y6
	VMULPD    Y7, Y7, Y7
	VADDPD    Y6, Y2, Y2
	VADDPD    Y7, Y3, Y3
	ADDQ      $32, SI
	SUBQ      $8, CX
	JMP       mom8

mom1:
	TESTQ     CX, CX
	JEQ       momdone
	VCVTSS2SD (SI), X6, X6
	VADDSD    X6, X4, X4
	VMULSD    X6, X6, X6
	VADDSD    X6, X5, X5
	ADDQ      $4, SI
	DECQ      CX
	JMP       mom1

momdone:
	VADDPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VUNPCKHPD    X0, X0, X1
	VADDSD       X1, X0, X0
	VADDSD       X4, X0, X0
	VMOVSD       X0, sum+16(FP)
	VADDPD       Y3, Y2, Y2
	VEXTRACTF128 $1, Y2, X3
	VADDPD       X3, X2, X2
	VUNPCKHPD    X2, X2, X3
	VADDSD       X3, X2, X2
	VADDSD       X5, X2, X2
	VMOVSD       X2, sq+24(FP)
	VZEROUPPER
	RET

// func bnMaskSums(gr, d, y, xhat *float32, n int, relu bool) (db, dg float64)
TEXT ·bnMaskSums(SB), NOSPLIT, $0-64
	MOVQ    gr+0(FP), DI
	MOVQ    d+8(FP), SI
	MOVQ    y+16(FP), DX
	MOVQ    xhat+24(FP), BX
	MOVQ    n+32(FP), CX
	MOVBLZX relu+40(FP), R8
	VXORPS  Y15, Y15, Y15
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  Y2, Y2, Y2
	VXORPD  Y3, Y3, Y3
	VXORPD  X4, X4, X4
	VXORPD  X5, X5, X5

ms8:
	CMPQ    CX, $8
	JLT     ms1
	VMOVUPS (SI), Y6
	TESTQ   R8, R8
	JZ      ms8store
	VCMPPS  $13, (DX), Y15, Y7 // 0 >= y
	VANDNPS Y6, Y7, Y6

ms8store:
	VMOVUPS      Y6, (DI)
	VCVTPS2PD    X6, Y8
	VEXTRACTF128 $1, Y6, X9
	VCVTPS2PD    X9, Y9
	VADDPD       Y8, Y0, Y0
	VADDPD       Y9, Y1, Y1
	VCVTPS2PD    (BX), Y10
	VCVTPS2PD    16(BX), Y11
	VMULPD       Y10, Y8, Y8
	VMULPD       Y11, Y9, Y9
	VADDPD       Y8, Y2, Y2
	VADDPD       Y9, Y3, Y3
	ADDQ         $32, SI
	ADDQ         $32, DI
	ADDQ         $32, DX
	ADDQ         $32, BX
	SUBQ         $8, CX
	JMP          ms8

ms1:
	TESTQ  CX, CX
	JEQ    msdone
	VMOVSS (SI), X6
	TESTQ  R8, R8
	JZ     ms1store
	VCMPSS $13, (DX), X15, X7
	VANDNPS X6, X7, X6

ms1store:
	VMOVSS    X6, (DI)
	VCVTSS2SD X6, X6, X8
	VADDSD    X8, X4, X4
	VCVTSS2SD (BX), X10, X10
	VMULSD    X10, X8, X8
	VADDSD    X8, X5, X5
	ADDQ      $4, SI
	ADDQ      $4, DI
	ADDQ      $4, DX
	ADDQ      $4, BX
	DECQ      CX
	JMP       ms1

msdone:
	VADDPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VUNPCKHPD    X0, X0, X1
	VADDSD       X1, X0, X0
	VADDSD       X4, X0, X0
	VMOVSD       X0, db+48(FP)
	VADDPD       Y3, Y2, Y2
	VEXTRACTF128 $1, Y2, X3
	VADDPD       X3, X2, X2
	VUNPCKHPD    X2, X2, X3
	VADDSD       X3, X2, X2
	VADDSD       X5, X2, X2
	VMOVSD       X2, dg+56(FP)
	VZEROUPPER
	RET

// func biasMaskSum(gr, d, y *float32, n int, relu bool) float64
TEXT ·biasMaskSum(SB), NOSPLIT, $0-48
	MOVQ    gr+0(FP), DI
	MOVQ    d+8(FP), SI
	MOVQ    y+16(FP), DX
	MOVQ    n+24(FP), CX
	MOVBLZX relu+32(FP), R8
	VXORPS  Y15, Y15, Y15
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  X4, X4, X4

bs8:
	CMPQ    CX, $8
	JLT     bs1
	VMOVUPS (SI), Y6
	TESTQ   R8, R8
	JZ      bs8store
	VCMPPS  $13, (DX), Y15, Y7 // 0 >= y
	VANDNPS Y6, Y7, Y6

bs8store:
	VMOVUPS      Y6, (DI)
	VCVTPS2PD    X6, Y8
	VEXTRACTF128 $1, Y6, X9
	VCVTPS2PD    X9, Y9
	VADDPD       Y8, Y0, Y0
	VADDPD       Y9, Y1, Y1
	ADDQ         $32, SI
	ADDQ         $32, DI
	ADDQ         $32, DX
	SUBQ         $8, CX
	JMP          bs8

bs1:
	TESTQ  CX, CX
	JEQ    bsdone
	VMOVSS (SI), X6
	TESTQ  R8, R8
	JZ     bs1store
	VCMPSS $13, (DX), X15, X7
	VANDNPS X6, X7, X6

bs1store:
	VMOVSS    X6, (DI)
	VCVTSS2SD X6, X6, X8
	VADDSD    X8, X4, X4
	ADDQ      $4, SI
	ADDQ      $4, DI
	ADDQ      $4, DX
	DECQ      CX
	JMP       bs1

bsdone:
	VADDPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VUNPCKHPD    X0, X0, X1
	VADDSD       X1, X0, X0
	VADDSD       X4, X0, X0
	VMOVSD       X0, ret+40(FP)
	VZEROUPPER
	RET

// func bnBackward(out, gr, xhat *float32, n int, k, mdb, mdg float32)
TEXT ·bnBackward(SB), NOSPLIT, $0-44
	MOVQ         out+0(FP), DI
	MOVQ         gr+8(FP), SI
	MOVQ         xhat+16(FP), BX
	MOVQ         n+24(FP), CX
	VBROADCASTSS k+32(FP), Y8
	VBROADCASTSS mdb+36(FP), Y9
	VBROADCASTSS mdg+40(FP), Y10

bw8:
	CMPQ    CX, $8
	JLT     bw1
	VMOVUPS (SI), Y0
	VSUBPS  Y9, Y0, Y0
	VMULPS  (BX), Y10, Y1
	VSUBPS  Y1, Y0, Y0
	VMULPS  Y8, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	ADDQ    $32, BX
	SUBQ    $8, CX
	JMP     bw8

bw1:
	TESTQ  CX, CX
	JEQ    bwdone
	VMOVSS (SI), X0
	VSUBSS X9, X0, X0
	VMULSS (BX), X10, X1
	VSUBSS X1, X0, X0
	VMULSS X8, X0, X0
	VMOVSS X0, (DI)
	ADDQ   $4, SI
	ADDQ   $4, DI
	ADDQ   $4, BX
	DECQ   CX
	JMP    bw1

bwdone:
	VZEROUPPER
	RET
