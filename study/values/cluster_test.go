package values

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestClusteredMean(t *testing.T) {
	// The point is the pooled mean, not the mean of cluster means.
	e, err := ClusteredMean([]float64{1, 9}, []float64{1, 3}, 200, 1)
	if err != nil || e.Point != 2.5 || e.Lo < 1 || e.Hi > 3 {
		t.Errorf("pooled mean of 1/1 and 9/3: %+v, %v; want 2.5 within [1, 3]", e, err)
	}
	// Identical clusters leave no spread.
	e, err = ClusteredMean([]float64{2, 2, 2}, []float64{4, 4, 4}, 50, 1)
	if err != nil || e != (Estimate{0.5, 0.5, 0.5}) {
		t.Errorf("identical clusters: %+v, %v; want 0.5 [0.5, 0.5]", e, err)
	}
	for _, c := range []struct {
		name         string
		sums, counts []float64
		reps         int
	}{
		{"lengths differ", []float64{1}, []float64{1, 2}, 10},
		{"negative count", []float64{1}, []float64{-1}, 10},
		{"nothing to average", []float64{0, 0}, []float64{0, 0}, 10},
		{"empty", nil, nil, 10},
		{"no replicates", []float64{1}, []float64{1}, 0},
	} {
		if _, err := ClusteredMean(c.sums, c.counts, c.reps, 1); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

// Clusters whose members share one value (perfect correlation inside a
// cluster) carry the information of one measurement each: the clustered
// interval must be as wide as that of the cluster means, about sqrt(m)
// times the naive interval that counts every member, and cover the truth
// at about the nominal rate.
func TestClusteredMeanWidensForCorrelatedClustersAndCovers(t *testing.T) {
	const clusters, members, trials = 60, 25, 200
	covered := 0
	var width float64
	for trial := range trials {
		rng := rand.New(rand.NewPCG(3, uint64(trial)))
		sums, counts := make([]float64, clusters), make([]float64, clusters)
		for i := range sums {
			x := rng.NormFloat64() // truth: mean 0, sd 1 per cluster
			sums[i], counts[i] = x*members, members
		}
		e, err := ClusteredMean(sums, counts, 200, uint64(trial))
		if err != nil {
			t.Fatal(err)
		}
		if e.Contains(0) {
			covered++
		}
		width += e.Width() / trials
	}
	// The cluster means have sd 1, so the 95% interval's width is about
	// 2 * 1.96 / sqrt(60) = 0.51; counting 1,500 independent members would
	// give 0.10.
	if width < 0.4 || width > 0.6 {
		t.Errorf("mean width %.3f, want about 0.51 (the cluster means' interval)", width)
	}
	if rate := float64(covered) / trials; math.Abs(rate-0.95) > 0.05 {
		t.Errorf("coverage %.3f over %d trials, want about 0.95", rate, trials)
	}
}
