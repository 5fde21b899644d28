package compare

import (
	"fmt"
	"math"

	"bomberzero/study/values"
)

// ScoreDifference is the paired difference of side A's score in one
// imbalance between two variants: game j of both variants' matches starts
// from the same position with the same seeds, so d_j = s_B,j − s_A,j is
// one pair's difference and the test is on their mean. It is the
// confirmatory endpoint of a rule comparison (docs/RESULTS.md, "A
// confirmatory Super Power test"): no conversion to pawns enters it.
type ScoreDifference struct {
	// Pairs is the number of game pairs.
	Pairs int `json:"pairs"`
	// Mean is the mean of d_j with a 95% interval (mean ± 1.96 standard
	// errors: a normal approximation, sound for the hundreds of pairs a
	// comparison plays).
	Mean values.Estimate `json:"mean"`
	// SD is the standard deviation of d_j (n−1 in the denominator).
	SD float64 `json:"sd"`
	// P is the two-sided p-value of "the mean difference is 0" (paired z).
	P float64 `json:"p"`
	// Higher, Same and Lower count the pairs where side A scored more,
	// the same and less in variant B than in variant A.
	Higher int `json:"higher"`
	Same   int `json:"same"`
	Lower  int `json:"lower"`
}

// PairedScoreDifference compares side A's per-game scores a (variant A)
// and b (variant B), game j of each being one pair. The lists must have
// the same length of at least two; every score must be 0, ½ or 1.
func PairedScoreDifference(a, b []float64) (*ScoreDifference, error) {
	if len(a) != len(b) {
		return nil, fmt.Errorf("compare: paired scores: %d games against %d; a paired comparison needs the same games in both variants", len(a), len(b))
	}
	n := len(a)
	if n < 2 {
		return nil, fmt.Errorf("compare: paired scores: %d pairs; want at least 2", n)
	}
	d := &ScoreDifference{Pairs: n}
	var sum float64
	for j := range a {
		for _, s := range [2]float64{a[j], b[j]} {
			if s != 0 && s != 0.5 && s != 1 {
				return nil, fmt.Errorf("compare: paired scores: game %d scored %v; want 0, 0.5 or 1", j, s)
			}
		}
		x := b[j] - a[j]
		sum += x
		switch {
		case x > 0:
			d.Higher++
		case x < 0:
			d.Lower++
		default:
			d.Same++
		}
	}
	mean := sum / float64(n)
	var ss float64
	for j := range a {
		x := b[j] - a[j] - mean
		ss += x * x
	}
	d.SD = math.Sqrt(ss / float64(n-1))
	se := d.SD / math.Sqrt(float64(n))
	const z95 = 1.959963984540054
	d.Mean = values.Estimate{Point: mean, Lo: mean - z95*se, Hi: mean + z95*se}
	switch {
	case se > 0:
		d.P = math.Erfc(math.Abs(mean/se) / math.Sqrt2)
	case mean == 0:
		d.P = 1
	default:
		d.P = 0 // every pair differs by the same nonzero amount
	}
	return d, nil
}
