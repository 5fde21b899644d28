package values

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestEntropyIntervalContainsItsEstimateWhenOpeningsAreDistinct checks the
// undersampled case that used to print 12.36 [12.69, 12.77]: when all or
// nearly all openings are distinct, resampling creates duplicates that
// pull every replicate far below the estimate, and the interval must still
// hold the estimate it is printed with, per variant and for the difference.
func TestEntropyIntervalContainsItsEstimateWhenOpeningsAreDistinct(t *testing.T) {
	cfg := CompareConfig{Seed: 1, Bootstrap: 200, OpeningPlies: 4}
	for _, tc := range []struct {
		name            string
		games, distinct int
	}{
		{"all distinct", 2000, 2000},
		{"nearly all distinct", 2000, 1950},
		{"all distinct, few games", 60, 60},
	} {
		keys := make([]string, tc.games)
		for i := range keys {
			keys[i] = fmt.Sprintf("opening %d", i%tc.distinct)
		}
		o := openingStats(keys, keys, cfg)
		for _, e := range []struct {
			what string
			est  Estimate
		}{{"entropy", o.Entropy}, {"first-move entropy", o.FirstMoveEntropy}, {"effective openings", o.Effective}} {
			if !(e.est.Lo <= e.est.Point && e.est.Point <= e.est.Hi) {
				t.Errorf("%s: %s %.4f outside its interval [%.4f, %.4f]", tc.name, e.what, e.est.Point, e.est.Lo, e.est.Hi)
			}
		}
		// The estimate may not fall below the plug-in entropy log2(distinct).
		if lower := math.Log2(float64(tc.distinct)); o.Entropy.Point < lower {
			t.Errorf("%s: entropy %.4f below the plug-in %.4f", tc.name, o.Entropy.Point, lower)
		}
		a := &VariantStats{Variant: "a", Openings: o, openings: keys}
		other := make([]string, tc.games)
		for i := range other {
			other[i] = fmt.Sprintf("other %d", i%(tc.distinct/2+1))
		}
		b := &VariantStats{Variant: "b", Openings: openingStats(other, other, cfg), openings: other}
		for _, pair := range [][2]*VariantStats{{a, b}, {b, a}, {a, a}} {
			d := bootstrapDifference("opening entropy (bits)", pair[0], pair[1], cfg)
			if !d.Delta.Contains(d.Delta.Point) {
				t.Errorf("%s: %s vs %s difference %.4f outside [%.4f, %.4f]", tc.name, pair[0].Variant, pair[1].Variant, d.Delta.Point, d.Delta.Lo, d.Delta.Hi)
			}
			if want := pair[1].Openings.Entropy.Point - pair[0].Openings.Entropy.Point; math.Abs(d.Delta.Point-want) > 1e-9 {
				t.Errorf("%s: difference %.6f, want the printed entropies' difference %.6f", tc.name, d.Delta.Point, want)
			}
		}
	}
}

// zipfOpenings returns a sampler of openings from a Zipf-like distribution
// over k openings (p ∝ 1/rank) and that distribution's entropy in bits.
func zipfOpenings(k int) (draw func(rng *rand.Rand, n int) []string, bits float64) {
	p, cdf := make([]float64, k), make([]float64, k)
	sum := 0.0
	for i := range p {
		p[i] = 1 / float64(i+1)
		sum += p[i]
	}
	acc := 0.0
	for i := range p {
		p[i] /= sum
		bits -= p[i] * math.Log2(p[i])
		acc += p[i]
		cdf[i] = acc
	}
	names := make([]string, k)
	for i := range names {
		names[i] = fmt.Sprintf("o%d", i)
	}
	draw = func(rng *rand.Rand, n int) []string {
		keys := make([]string, n)
		for j := range keys {
			u := rng.Float64()
			i := 0
			for i < k-1 && cdf[i] < u {
				i++
			}
			keys[j] = names[i]
		}
		return keys
	}
	return draw, bits
}

// TestEntropyIntervalCoversTheKnownEntropy draws openings from a Zipf-like
// distribution with known entropy. With five games per opening the 95%
// interval must cover the true entropy in at least 85% of trials; with
// about as many games as openings (undersampled, where no interval from
// the sample alone can promise coverage) the bias-corrected point must at
// least be closer to the truth on average than the Miller-Madow estimate
// it corrects, which is itself closer than the plug-in.
func TestEntropyIntervalCoversTheKnownEntropy(t *testing.T) {
	for _, tc := range []struct {
		outcomes, games, trials int
		minCoverage             float64
	}{
		{200, 1000, 120, 0.85},
		{400, 500, 40, 0},
	} {
		draw, truth := zipfOpenings(tc.outcomes)
		trials := tc.trials
		if testing.Short() {
			trials /= 2
		}
		covered, pointCovered := 0, 0
		var biasPlugIn, biasMM, biasPoint float64
		for trial := range trials {
			keys := draw(rand.New(rand.NewPCG(uint64(trial), 7)), tc.games)
			e := openingStats(keys, nil, CompareConfig{Seed: uint64(trial), Bootstrap: 200}).Entropy
			if e.Contains(truth) {
				covered++
			}
			if e.Contains(e.Point) {
				pointCovered++
			}
			biasPlugIn += (plugInBits(keys) - truth) / float64(trials)
			biasMM += (entropyBits(keys) - truth) / float64(trials)
			biasPoint += (e.Point - truth) / float64(trials)
		}
		t.Logf("%d openings, %d games: true entropy %.4f bits, coverage %d/%d, mean bias plug-in %.3f, Miller-Madow %.3f, corrected %.3f",
			tc.outcomes, tc.games, truth, covered, trials, biasPlugIn, biasMM, biasPoint)
		if rate := float64(covered) / float64(trials); rate < tc.minCoverage {
			t.Errorf("%d openings, %d games: 95%% interval covered the true entropy %.4f in %d of %d trials, want at least %.0f%%",
				tc.outcomes, tc.games, truth, covered, trials, 100*tc.minCoverage)
		}
		if pointCovered != trials {
			t.Errorf("%d openings, %d games: interval held its own estimate in only %d of %d trials", tc.outcomes, tc.games, pointCovered, trials)
		}
		if !(math.Abs(biasPoint) < math.Abs(biasMM) && math.Abs(biasMM) < math.Abs(biasPlugIn)) {
			t.Errorf("%d openings, %d games: mean bias corrected %.3f, Miller-Madow %.3f, plug-in %.3f; want each smaller in size than the next",
				tc.outcomes, tc.games, biasPoint, biasMM, biasPlugIn)
		}
	}
}
