//go:build amd64 && !purego

package avx2

import "fmt"

//go:noescape
func bnNormalize(y, z, skip *float32, n int, mean, inv, scale, shift float32, relu bool)

//go:noescape
func bnMoments(z *float32, n int) (sum, sq float64)

//go:noescape
func bnMaskSums(gr, d, y, xhat *float32, n int, relu bool) (db, dg float64)

//go:noescape
func biasMaskSum(gr, d, y *float32, n int, relu bool) float64

//go:noescape
func bnBackward(out, gr, xhat *float32, n int, k, mdb, mdg float32)

// need panics unless s holds at least n elements (n > 0); it is called
// before any assembly so that a short slice panics in Go.
func need(fn, name string, s []float32, n int) {
	if len(s) < n {
		panic(fmt.Sprintf("avx2: %s: len(%s) = %d, want at least %d", fn, name, len(s), n))
	}
}

// Normalize is nn's bnNormalize over n = len(z): z[i] = (z[i]-mean)*inv,
// y[i] = relu?(scale*z[i] + shift (+ skip[i] when skip is not nil)). It
// panics when y or a non-nil skip is shorter than z.
func Normalize(y, z []float32, mean, inv, scale, shift float32, skip []float32, relu bool) {
	n := len(z)
	if n == 0 {
		return
	}
	need("Normalize", "y", y, n)
	var sk *float32
	if skip != nil {
		need("Normalize", "skip", skip, n)
		sk = &skip[0]
	}
	bnNormalize(&y[0], &z[0], sk, n, mean, inv, scale, shift, relu)
}

// Moments is nn's bnMoments: sum(z) and sum(z*z) in float64.
func Moments(z []float32) (sum, sq float64) {
	if len(z) == 0 {
		return 0, 0
	}
	return bnMoments(&z[0], len(z))
}

// MaskSums is nn's bnMaskSums over n = len(g): g[i] = d[i], or +0 where
// relu && y[i] <= 0, and returns sum(g) and sum(g*xhat) in float64. It
// panics when d, xhat or (with relu) y is shorter than g.
func MaskSums(g, d, y, xhat []float32, relu bool) (db, dg float64) {
	n := len(g)
	if n == 0 {
		return 0, 0
	}
	need("MaskSums", "d", d, n)
	need("MaskSums", "xhat", xhat, n)
	var yp *float32
	if relu {
		need("MaskSums", "y", y, n)
		yp = &y[0]
	}
	return bnMaskSums(&g[0], &d[0], yp, &xhat[0], n, relu)
}

// BiasMaskSum is nn's biasMaskSum over n = len(g): g[i] = d[i], or +0 where
// relu && y[i] <= 0, and returns sum(g) in float64. It panics when d or
// (with relu) y is shorter than g.
func BiasMaskSum(g, d, y []float32, relu bool) float64 {
	n := len(g)
	if n == 0 {
		return 0
	}
	need("BiasMaskSum", "d", d, n)
	var yp *float32
	if relu {
		need("BiasMaskSum", "y", y, n)
		yp = &y[0]
	}
	return biasMaskSum(&g[0], &d[0], yp, n, relu)
}

// Backward is nn's bnBackward over n = len(out): out[i] = k * (g[i] - mdb -
// xhat[i]*mdg). out may be g or xhat (each element is read before it is
// written). It panics when g or xhat is shorter than out.
func Backward(out, g, xhat []float32, k, mdb, mdg float32) {
	n := len(out)
	if n == 0 {
		return
	}
	need("Backward", "g", g, n)
	need("Backward", "xhat", xhat, n)
	bnBackward(&out[0], &g[0], &xhat[0], n, k, mdb, mdg)
}
