//go:build !amd64 || purego

package nn

// The BatchNorm/ReLU passes (bnkern.go) run as their Go references in this
// build.

func bnNormalizeImpl(y, z []float32, mean, inv, scale, shift float32, skip []float32, relu bool) {
	bnNormalizeGo(y, z, mean, inv, scale, shift, skip, relu)
}

func bnMomentsImpl(z []float32) (sum, sq float64) { return bnMomentsGo(z) }

func bnMaskSumsImpl(g, d, y, xhat []float32, relu bool) (db, dg float64) {
	return bnMaskSumsGo(g, d, y, xhat, relu)
}

func biasMaskSumImpl(g, d, y []float32, relu bool) float64 { return biasMaskSumGo(g, d, y, relu) }

func bnBackwardImpl(out, g, xhat []float32, k, mdb, mdg float32) {
	bnBackwardGo(out, g, xhat, k, mdb, mdg)
}
