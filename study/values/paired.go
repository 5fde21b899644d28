package values

import (
	"fmt"
	"math"
)

// pairedDifferences is Differences for the two sides of a paired design
// (CompareConfig.Pairs): each figure is tested on the differences within
// pairs of games, b's game minus a's game of the same Index.
func pairedDifferences(a, b *VariantStats, cfg CompareConfig) ([]Difference, error) {
	ia, ib, err := pairUp(a, b, cfg.Pairs)
	if err != nil {
		return nil, err
	}
	per := func(s *VariantStats, at []int, f func(s *VariantStats, g int) float64) []float64 {
		xs := make([]float64, len(at))
		for k, g := range at {
			xs[k] = f(s, g)
		}
		return xs
	}
	figure := func(f func(s *VariantStats, g int) float64) ([]float64, []float64) {
		return per(a, ia, f), per(b, ib, f)
	}
	var out []Difference
	xa, xb := figure(func(s *VariantStats, g int) float64 { return float64(s.results[g]+1) / 2 })
	out = append(out, pairedDifference("White's score", a, b, xa, xb))
	xa, xb = figure(func(s *VariantStats, g int) float64 { return indicator(s.results[g] == 0) })
	out = append(out, pairedDifference("draw rate", a, b, xa, xb))
	for _, r := range endings(a, b) {
		xa, xb = figure(func(s *VariantStats, g int) float64 { return indicator(s.reasons[g] == r) })
		out = append(out, pairedDifference("ending by "+r, a, b, xa, xb))
	}
	xa, xb = figure(func(s *VariantStats, g int) float64 { return s.lengths[g] })
	out = append(out, pairedDifference("mean length (plies)", a, b, xa, xb))
	if len(a.openings) > 0 && len(b.openings) > 0 {
		out = append(out, bootstrapDifference("opening entropy (bits)", a, b, cfg))
	}
	return out, nil
}

// PairPlaces places the n games of one side of a paired design of pairs
// games a side by their pair (indexOf(k) is the Index of the game at place
// k): places[i] is the place of pair i's game, -1 where the side has none.
// A game whose index is out of range, or whose pair another game has
// taken, is an error that names it (name(k)).
func PairPlaces(n, pairs int, indexOf func(k int) int, name func(k int) string) ([]int, error) {
	places := make([]int, pairs)
	for i := range places {
		places[i] = -1
	}
	for k := range n {
		switch idx := indexOf(k); {
		case idx < 0 || idx >= pairs:
			return nil, fmt.Errorf("values: paired design of %d games a side: %s has index %d, want 0 to %d", pairs, name(k), idx, pairs-1)
		case places[idx] >= 0:
			return nil, fmt.Errorf("values: paired design: %s has index %d, which another game has too; want one game a pair", name(k), idx)
		default:
			places[idx] = k
		}
	}
	return places, nil
}

// pairUp returns, pair by pair (Index 0 to pairs-1), the place of the
// pair's game among a's games and among b's: each side must hold exactly
// one game of every pair.
func pairUp(a, b *VariantStats, pairs int) ([]int, []int, error) {
	places := func(s *VariantStats) ([]int, error) {
		at, err := PairPlaces(len(s.index), pairs, func(k int) int { return s.index[k] },
			func(int) string { return "a game of " + s.Variant })
		if err != nil {
			return nil, err
		}
		for idx, g := range at {
			if g < 0 {
				return nil, fmt.Errorf("values: paired design of %d games a side: %s has no game of pair %d (%d games); want one game of every pair", pairs, s.Variant, idx, s.Games)
			}
		}
		return at, nil
	}
	ia, err := places(a)
	if err != nil {
		return nil, nil, err
	}
	ib, err := places(b)
	if err != nil {
		return nil, nil, err
	}
	return ia, ib, nil
}

// pairedDifference tests the mean of the differences xb[k] − xa[k] within
// n pairs: the z-test on their standard error √(Var(d)/n), where Var(d) is
// the two sides' variances less twice their covariance, so that what a
// pair's games share drops out; the pairs needed to resolve a true
// difference of the observed size δ at 5% (two-sided) with 80% power are
// n = (z_{α/2} + z_β)²·Var(d)/δ².
func pairedDifference(metric string, a, b *VariantStats, xa, xb []float64) Difference {
	n := float64(len(xa))
	ds := make([]float64, len(xa))
	ma, mb := 0.0, 0.0
	for k := range xa {
		ds[k] = xb[k] - xa[k]
		ma += xa[k]
		mb += xb[k]
	}
	ma, mb = ma/n, mb/n
	d := Difference{Metric: metric, A: a.Variant, B: b.Variant, ValueA: ma, ValueB: mb}
	delta := mb - ma
	vd := variance(ds) * n / max(n-1, 1)
	se := math.Sqrt(vd / n)
	d.Delta = Estimate{Point: delta, Lo: delta - z95*se, Hi: delta + z95*se}
	needed := math.NaN()
	if delta != 0 {
		needed = (z95 + zPower80) * (z95 + zPower80) * vd / (delta * delta)
	}
	finishTest(&d, delta, se, needed, len(xa))
	return d
}

// indicator is 1 for true and 0 for false.
func indicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
