package values

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLogisticFitMatchesClosedFormOnABinaryFeature: with one 0/1 feature
// and an intercept, the unpenalised logistic MLE is the pair of empirical
// log-odds, an independent truth.
func TestLogisticFitMatchesClosedFormOnABinaryFeature(t *testing.T) {
	// x=0: 30 wins of 100; x=1: 70 wins of 100.
	d := design{k: 2, scale: 1, penal: []float64{1e-12, 1e-12}}
	add := func(x float64, wins, n int) {
		for i := 0; i < n; i++ {
			y := 0.0
			if i < wins {
				y = 1
			}
			d.x = append(d.x, 1, x)
			d.y = append(d.y, y)
			d.game = append(d.game, len(d.game))
			d.count = append(d.count, 1)
			d.weight = append(d.weight, 1)
		}
	}
	add(0, 30, 100)
	add(1, 70, 100)
	gw := make([]float64, len(d.y))
	for i := range gw {
		gw[i] = 1
	}
	beta := make([]float64, 2)
	if err := d.fit(beta, gw, newGLMWork(2)); err != nil {
		t.Fatal(err)
	}
	logit := func(p float64) float64 { return math.Log(p / (1 - p)) }
	want := []float64{logit(0.3), logit(0.7) - logit(0.3)}
	for j := range want {
		if math.Abs(beta[j]-want[j]) > 1e-6 {
			t.Errorf("beta[%d] = %.9g, want %.9g", j, beta[j], want[j])
		}
	}
	// The tanh link on the same data: tanh(β) = 2p-1, so β = atanh(2p-1) = logit(p)/2.
	d.scale = 2
	if err := d.fit(beta, gw, newGLMWork(2)); err != nil {
		t.Fatal(err)
	}
	for j := range want {
		if math.Abs(beta[j]-want[j]/2) > 1e-6 {
			t.Errorf("tanh link: beta[%d] = %.9g, want %.9g", j, beta[j], want[j]/2)
		}
	}
}

// TestFitSatisfiesStationarityOnRandomData checks the optimum by its
// definition, computed independently of the solver: the penalised
// gradient Σ w·a·(σ(a·x·β) - y)·x + λβ vanishes, with weights and duplicate
// counts.
func TestFitSatisfiesStationarityOnRandomData(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		k := 2 + rng.IntN(5)
		n := 50 + rng.IntN(200)
		games := 1 + n/5
		d := design{k: k, scale: float64(1 + trial%2), penal: make([]float64, k)}
		for j := range d.penal {
			d.penal[j] = rng.Float64()
		}
		for i := 0; i < n; i++ {
			d.x = append(d.x, 1)
			for j := 1; j < k; j++ {
				d.x = append(d.x, float64(rng.IntN(5)-2))
			}
			d.y = append(d.y, float64(rng.IntN(3))/2)
			d.game = append(d.game, rng.IntN(games))
			d.count = append(d.count, float64(1+rng.IntN(3)))
			d.weight = append(d.weight, 1/float64(1+rng.IntN(4))) // EqualGames' 1/n
		}
		gw := make([]float64, games)
		for i := range gw {
			gw[i] = float64(rng.IntN(3))
		}
		beta := make([]float64, k)
		if err := d.fit(beta, gw, newGLMWork(k)); err == errNoData {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		grad := make([]float64, k)
		for j := range grad {
			grad[j] = d.penal[j] * beta[j]
		}
		for i := 0; i < n; i++ {
			z := 0.0
			for j := 0; j < k; j++ {
				z += d.x[i*k+j] * beta[j]
			}
			p := 1 / (1 + math.Exp(-d.scale*z))
			for j := 0; j < k; j++ {
				grad[j] += gw[d.game[i]] * d.count[i] * d.weight[i] * d.scale * (p - d.y[i]) * d.x[i*k+j]
			}
		}
		for j, g := range grad {
			if math.Abs(g) > 1e-6 {
				t.Errorf("trial %d: gradient[%d] = %g at the optimum, want 0", trial, j, g)
			}
		}
	}
}

func TestFitRejectsEmptyWeights(t *testing.T) {
	d := design{k: 1, scale: 1, penal: []float64{1}, x: []float64{1}, y: []float64{1}, game: []int{0}, count: []float64{1}, weight: []float64{1}}
	if err := d.fit([]float64{0}, []float64{0}, newGLMWork(1)); err != errNoData {
		t.Errorf("error %v, want errNoData", err)
	}
}

func TestPercentileIntervalHandlesUnboundedReplicates(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(i)
	}
	if lo, hi := percentileInterval(xs); math.Abs(lo-2.475) > 1e-12 || math.Abs(hi-96.525) > 1e-12 {
		t.Errorf("interval [%g, %g], want [2.475, 96.525] (type 7)", lo, hi)
	}
	xs[0], xs[1], xs[2], xs[3] = math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)
	if lo, hi := percentileInterval(xs); !math.IsInf(lo, -1) || math.IsNaN(hi) {
		t.Errorf("with 4%% -Inf: interval [%g, %g], want [-Inf, finite]", lo, hi)
	}
}
