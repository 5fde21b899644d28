package compare

import (
	"fmt"
	"math"

	"bomberzero/study/values"
)

// intervalP is the two-sided p-value of "no difference" for a bootstrap
// estimate: z = point / se with the standard error read from its 95%
// percentile interval, se = (hi − lo) / (2·1.96), the normal reading of
// the replicates. An unbounded interval, or one of no width around 0
// (the unit piece: nothing is tested), gives 1; no width around another
// point gives 0.
func intervalP(e values.Estimate) float64 {
	if !e.Bounded() || math.IsNaN(e.Point) {
		return 1
	}
	se := (e.Hi - e.Lo) / (2 * 1.959963984540054)
	switch {
	case se > 0:
		return math.Erfc(math.Abs(e.Point/se) / math.Sqrt2)
	case e.Point == 0:
		return 1
	}
	return 0
}

// tested reports whether an estimate's difference is a test at all: the
// unit piece's value difference is 0 [0, 0] by construction.
func tested(e values.Estimate) bool { return !(e.Point == 0 && e.Lo == 0 && e.Hi == 0) }

// correctFamily applies Holm's correction over every figure the report
// tests between the variants as one family: the game-level figures
// (values.Compare's), the piece values variant against variant and the
// imbalance readings. Each figure's adjusted p-value replaces the one of
// its own table's family, and decides its verdict, so the chance of any
// false "real difference" anywhere in the report's main comparison is at
// most 5%. The secondary analyses (compute levels, rule effects, network
// effects) keep their own families, as the report says. It returns the
// number of figures in the family.
func correctFamily(res *Result) int {
	var ps []float64
	var apply []func(p float64)
	if res.Comparison != nil {
		for i := range res.Comparison.Differences {
			d := &res.Comparison.Differences[i]
			ps, apply = append(ps, d.P), append(apply, d.Decide)
		}
	}
	for i := range res.ValueDifferences {
		d := &res.ValueDifferences[i]
		if !tested(d.Diff) {
			continue
		}
		ps = append(ps, d.P)
		apply = append(apply, func(p float64) { d.PHolm, d.WithinNoise = &p, p >= 0.05 || !d.Diff.Bounded() })
	}
	for k := range res.Imbalances {
		for i := range res.Imbalances[k].Differences {
			d := &res.Imbalances[k].Differences[i]
			ps = append(ps, d.P)
			apply = append(apply, func(p float64) { d.PHolm, d.WithinNoise = &p, p >= 0.05 || !d.Delta.Bounded() })
		}
	}
	for i, p := range values.HolmAdjust(ps) {
		apply[i](p)
	}
	return len(ps)
}

// holmCell writes an adjusted p-value for a table ("-" when there is none).
func holmCell(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.2g", *p)
}
