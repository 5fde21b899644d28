package nn

import (
	"fmt"
	"math"
)

// The per-channel passes of training's BatchNorm and ReLU (conv.go): the
// forward normalisation epilogue, the batch moments, the ReLU gradient mask
// with BatchNorm's backward sums, BatchNorm's input gradient and the
// bias-mode gradient mask. On amd64 with AVX2 they run as assembly (package
// nn/internal/avx2) that gives the same bits as the Go below, so each Go
// function here is written to do exactly what the vector code does:
// float32 products are rounded before they are added (explicit
// conversions forbid fused multiply-adds), and every float64 sum keeps 8
// lane sums (element i of the 8-wide part goes to lane i%8) plus a
// sequential sum of the last len%8 elements, folded by bnFold8.

// bnNormalize is the training forward epilogue over n = len(z): z[i]
// becomes xh = (z[i]-mean)*inv, and y[i] = scale*xh + shift (+ skip[i]
// when skip is not nil), then relu0 when relu. It panics when y or a
// non-nil skip is shorter than z.
func bnNormalize(y, z []float32, mean, inv, scale, shift float32, skip []float32, relu bool) {
	bnNormalizeImpl(y, z, mean, inv, scale, shift, skip, relu)
}

// bnMoments returns sum(z) and sum(z*z), accumulated in float64.
func bnMoments(z []float32) (sum, sq float64) { return bnMomentsImpl(z) }

// bnMaskSums writes g[i] = d[i], or +0 where relu && y[i] <= 0 (the ReLU's
// gradient mask; y is the ReLU's output, so that is y == ±0), for
// i < len(g), and returns sum(g) and sum(g*xhat) in float64. y is read only
// when relu. It panics when d, xhat or (with relu) y is shorter than g.
func bnMaskSums(g, d, y, xhat []float32, relu bool) (db, dg float64) {
	return bnMaskSumsImpl(g, d, y, xhat, relu)
}

// bnBackward writes out[i] = k * (g[i] - mdb - xhat[i]*mdg), BatchNorm's
// input gradient, for i < len(out). out may be g or xhat. It panics when g
// or xhat is shorter than out.
func bnBackward(out, g, xhat []float32, k, mdb, mdg float32) {
	bnBackwardImpl(out, g, xhat, k, mdb, mdg)
}

// biasMaskSum is the bias-mode backward: g[i] = d[i], or +0 where
// relu && y[i] <= 0, for i < len(g); it returns sum(g) in float64. y is
// read only when relu. It panics when d or (with relu) y is shorter than g.
func biasMaskSum(g, d, y []float32, relu bool) float64 { return biasMaskSumImpl(g, d, y, relu) }

// bnNeed panics unless s holds at least n elements, so that the Go and the
// assembly kernels fail the same way on a short slice.
func bnNeed(fn, name string, s []float32, n int) {
	if len(s) < n {
		panic(fmt.Sprintf("nn: %s: len(%s) = %d, want at least %d", fn, name, len(s), n))
	}
}

// bnFold8 adds 8 lane sums in the order the assembly does:
// ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)).
func bnFold8(l *[8]float64) float64 {
	a0, a1, a2, a3 := l[0]+l[4], l[1]+l[5], l[2]+l[6], l[3]+l[7]
	return (a0 + a2) + (a1 + a3)
}

// bnNormalizeGo is the portable bnNormalize.
func bnNormalizeGo(y, z []float32, mean, inv, scale, shift float32, skip []float32, relu bool) {
	n := len(z)
	bnNeed("bnNormalize", "y", y, n)
	y = y[:n]
	if skip != nil {
		bnNeed("bnNormalize", "skip", skip, n)
		skip = skip[:n]
	}
	for i, v := range z {
		xh := float32((v - mean) * inv)
		z[i] = xh
		o := float32(scale*xh) + shift
		if skip != nil {
			o += skip[i]
		}
		if relu {
			o = relu0(o)
		}
		y[i] = o
	}
}

// bnMomentsGo is the portable bnMoments.
func bnMomentsGo(z []float32) (sum, sq float64) {
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	var q0, q1, q2, q3, q4, q5, q6, q7 float64
	i := 0
	for ; i+8 <= len(z); i += 8 {
		v := [8]float32(z[i : i+8])
		f0, f1, f2, f3 := float64(v[0]), float64(v[1]), float64(v[2]), float64(v[3])
		f4, f5, f6, f7 := float64(v[4]), float64(v[5]), float64(v[6]), float64(v[7])
		s0, s1, s2, s3, s4, s5, s6, s7 = s0+f0, s1+f1, s2+f2, s3+f3, s4+f4, s5+f5, s6+f6, s7+f7
		q0, q1, q2, q3 = q0+float64(f0*f0), q1+float64(f1*f1), q2+float64(f2*f2), q3+float64(f3*f3)
		q4, q5, q6, q7 = q4+float64(f4*f4), q5+float64(f5*f5), q6+float64(f6*f6), q7+float64(f7*f7)
	}
	var ts, tq float64
	for _, x := range z[i:] {
		f := float64(x)
		ts += f
		tq += float64(f * f)
	}
	return bnFold8(&[8]float64{s0, s1, s2, s3, s4, s5, s6, s7}) + ts,
		bnFold8(&[8]float64{q0, q1, q2, q3, q4, q5, q6, q7}) + tq
}

// bnKeep returns v, or +0 where y <= 0 (a NaN y keeps v), as the
// assembly's compare-and-mask does; the compiler makes the choice a
// conditional move, not a branch that a ReLU's coin-toss signs mispredict.
func bnKeep(v, y float32) float32 {
	m := ^uint32(0)
	if y <= 0 {
		m = 0
	}
	return math.Float32frombits(math.Float32bits(v) & m)
}

// bnMaskSumsGo is the portable bnMaskSums.
func bnMaskSumsGo(g, d, y, xhat []float32, relu bool) (db, dg float64) {
	n := len(g)
	bnNeed("bnMaskSums", "d", d, n)
	bnNeed("bnMaskSums", "xhat", xhat, n)
	d, xhat = d[:n], xhat[:n]
	if relu {
		bnNeed("bnMaskSums", "y", y, n)
		y = y[:n]
	}
	var b0, b1, b2, b3, b4, b5, b6, b7 float64
	var p0, p1, p2, p3, p4, p5, p6, p7 float64
	i := 0
	for ; i+8 <= n; i += 8 {
		v := bnMask8(g, d, y, i, relu)
		x := [8]float32(xhat[i : i+8])
		f0, f1, f2, f3 := float64(v[0]), float64(v[1]), float64(v[2]), float64(v[3])
		f4, f5, f6, f7 := float64(v[4]), float64(v[5]), float64(v[6]), float64(v[7])
		b0, b1, b2, b3, b4, b5, b6, b7 = b0+f0, b1+f1, b2+f2, b3+f3, b4+f4, b5+f5, b6+f6, b7+f7
		p0 += float64(f0 * float64(x[0]))
		p1 += float64(f1 * float64(x[1]))
		p2 += float64(f2 * float64(x[2]))
		p3 += float64(f3 * float64(x[3]))
		p4 += float64(f4 * float64(x[4]))
		p5 += float64(f5 * float64(x[5]))
		p6 += float64(f6 * float64(x[6]))
		p7 += float64(f7 * float64(x[7]))
	}
	var tb, tp float64
	for ; i < n; i++ {
		v := d[i]
		if relu {
			v = bnKeep(v, y[i])
		}
		g[i] = v
		f := float64(v)
		tb += f
		tp += float64(f * float64(xhat[i]))
	}
	return bnFold8(&[8]float64{b0, b1, b2, b3, b4, b5, b6, b7}) + tb,
		bnFold8(&[8]float64{p0, p1, p2, p3, p4, p5, p6, p7}) + tp
}

// bnMask8 writes and returns g[i:i+8] = d[i:i+8], each zeroed where relu is
// set and y <= 0 (bnKeep).
func bnMask8(g, d, y []float32, i int, relu bool) [8]float32 {
	v := [8]float32(d[i : i+8])
	if relu {
		yy := [8]float32(y[i : i+8])
		v = [8]float32{bnKeep(v[0], yy[0]), bnKeep(v[1], yy[1]), bnKeep(v[2], yy[2]), bnKeep(v[3], yy[3]),
			bnKeep(v[4], yy[4]), bnKeep(v[5], yy[5]), bnKeep(v[6], yy[6]), bnKeep(v[7], yy[7])}
	}
	copy(g[i:i+8], v[:])
	return v
}

// biasMaskSumGo is the portable biasMaskSum.
func biasMaskSumGo(g, d, y []float32, relu bool) float64 {
	n := len(g)
	bnNeed("biasMaskSum", "d", d, n)
	d = d[:n]
	if relu {
		bnNeed("biasMaskSum", "y", y, n)
		y = y[:n]
	}
	var b0, b1, b2, b3, b4, b5, b6, b7 float64
	i := 0
	for ; i+8 <= n; i += 8 {
		v := bnMask8(g, d, y, i, relu)
		b0, b1, b2, b3 = b0+float64(v[0]), b1+float64(v[1]), b2+float64(v[2]), b3+float64(v[3])
		b4, b5, b6, b7 = b4+float64(v[4]), b5+float64(v[5]), b6+float64(v[6]), b7+float64(v[7])
	}
	var tb float64
	for ; i < n; i++ {
		v := d[i]
		if relu {
			v = bnKeep(v, y[i])
		}
		g[i] = v
		tb += float64(v)
	}
	return bnFold8(&[8]float64{b0, b1, b2, b3, b4, b5, b6, b7}) + tb
}

// bnBackwardGo is the portable bnBackward.
func bnBackwardGo(out, g, xhat []float32, k, mdb, mdg float32) {
	n := len(out)
	bnNeed("bnBackward", "g", g, n)
	bnNeed("bnBackward", "xhat", xhat, n)
	g, xhat = g[:n], xhat[:n]
	for i, v := range g {
		out[i] = k * ((v - mdb) - float32(xhat[i]*mdg))
	}
}
