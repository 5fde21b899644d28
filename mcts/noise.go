package mcts

import (
	"math"
	"math/rand/v2"
)

// dirichlet fills out with one sample of a symmetric Dirichlet distribution
// with concentration alpha per component. Gamma variates are drawn in log
// space so that tiny alphas (many legal moves) neither underflow nor lose
// the sample.
func dirichlet(r *rand.Rand, alpha float64, out []float64) {
	maxLog := math.Inf(-1)
	for i := range out {
		out[i] = logGamma(r, alpha)
		maxLog = math.Max(maxLog, out[i])
	}
	sum := 0.0
	for i := range out {
		out[i] = math.Exp(out[i] - maxLog)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
}

// logGamma returns the logarithm of a Gamma(a, 1) variate (Marsaglia and
// Tsang 2000; for a < 1, Gamma(a) = Gamma(a+1) * U^(1/a)).
func logGamma(r *rand.Rand, a float64) float64 {
	if a < 1 {
		u := 1 - r.Float64() // in (0, 1]
		return logGamma(r, a+1) + math.Log(u)/a
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := 1 - r.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return math.Log(d * v)
		}
	}
}

// gumbel returns a standard Gumbel variate, -log(-log(U)) with U in (0, 1).
func gumbel(r *rand.Rand) float64 {
	for {
		if u := r.Float64(); u > 0 {
			return -math.Log(-math.Log(u))
		}
	}
}
