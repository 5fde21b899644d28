package values

import (
	"fmt"
	"math/rand/v2"
)

// ClusteredMean returns the mean of measurements that come in clusters, such
// as positions of one game: sum(sums) / sum(counts), where cluster i
// contributed sums[i] over counts[i] measurements. Its 95% interval is the
// percentile interval of a bootstrap that resamples whole clusters
// (replicates of them; replicate r draws from a generator seeded by (seed,
// r)), so the correlation inside a cluster widens it as it should. A paired
// difference of two quantities measured on the same items is the clustered
// mean of the per-cluster sums of differences. It fails when the lengths
// differ, a count is negative, or there is nothing to average.
func ClusteredMean(sums, counts []float64, replicates int, seed uint64) (Estimate, error) {
	if len(sums) != len(counts) {
		return Estimate{}, fmt.Errorf("values: clustered mean: %d sums for %d counts", len(sums), len(counts))
	}
	if replicates < 1 {
		return Estimate{}, fmt.Errorf("values: clustered mean: %d bootstrap replicates, want at least 1", replicates)
	}
	var s, c float64
	for i := range sums {
		if counts[i] < 0 {
			return Estimate{}, fmt.Errorf("values: clustered mean: cluster %d has a negative count %g", i, counts[i])
		}
		s, c = s+sums[i], c+counts[i]
	}
	if c == 0 {
		return Estimate{}, fmt.Errorf("values: clustered mean: no measurements in %d clusters", len(sums))
	}
	xs := make([]float64, 0, replicates)
	n := len(sums)
	for r := range replicates {
		rng := rand.New(rand.NewPCG(seed, uint64(r)))
		var rs, rc float64
		for range n {
			k := rng.IntN(n)
			rs, rc = rs+sums[k], rc+counts[k]
		}
		if rc > 0 {
			xs = append(xs, rs/rc)
		}
	}
	e := Estimate{Point: s / c}
	e.Lo, e.Hi = percentileInterval(xs)
	return e, nil
}
