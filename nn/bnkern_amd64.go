//go:build amd64 && !purego

package nn

import "bomberzero/nn/internal/avx2"

// The BatchNorm/ReLU passes (bnkern.go) run as AVX2 assembly when
// avx2Kernels is set, else as their Go references.

func bnNormalizeImpl(y, z []float32, mean, inv, scale, shift float32, skip []float32, relu bool) {
	if !avx2Kernels {
		bnNormalizeGo(y, z, mean, inv, scale, shift, skip, relu)
		return
	}
	avx2.Normalize(y, z, mean, inv, scale, shift, skip, relu)
}

func bnMomentsImpl(z []float32) (sum, sq float64) {
	if !avx2Kernels {
		return bnMomentsGo(z)
	}
	return avx2.Moments(z)
}

func bnMaskSumsImpl(g, d, y, xhat []float32, relu bool) (db, dg float64) {
	if !avx2Kernels {
		return bnMaskSumsGo(g, d, y, xhat, relu)
	}
	return avx2.MaskSums(g, d, y, xhat, relu)
}

func biasMaskSumImpl(g, d, y []float32, relu bool) float64 {
	if !avx2Kernels {
		return biasMaskSumGo(g, d, y, relu)
	}
	return avx2.BiasMaskSum(g, d, y, relu)
}

func bnBackwardImpl(out, g, xhat []float32, k, mdb, mdg float32) {
	if !avx2Kernels {
		bnBackwardGo(out, g, xhat, k, mdb, mdg)
		return
	}
	avx2.Backward(out, g, xhat, k, mdb, mdg)
}
