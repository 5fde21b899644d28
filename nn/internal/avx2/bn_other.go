//go:build !amd64 || purego

package avx2

// Normalize must not be called when Available is false.
func Normalize(y, z []float32, mean, inv, scale, shift float32, skip []float32, relu bool) {
	panic("avx2: no assembly kernels in this build")
}

// Moments must not be called when Available is false.
func Moments(z []float32) (sum, sq float64) {
	panic("avx2: no assembly kernels in this build")
}

// MaskSums must not be called when Available is false.
func MaskSums(g, d, y, xhat []float32, relu bool) (db, dg float64) {
	panic("avx2: no assembly kernels in this build")
}

// BiasMaskSum must not be called when Available is false.
func BiasMaskSum(g, d, y []float32, relu bool) float64 {
	panic("avx2: no assembly kernels in this build")
}

// Backward must not be called when Available is false.
func Backward(out, g, xhat []float32, k, mdb, mdg float32) {
	panic("avx2: no assembly kernels in this build")
}
