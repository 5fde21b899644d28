package values

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"bomberzero/stats"
)

// Comparison sets two or more variants side by side: each one's
// statistics, every pairwise difference with its test, and optionally each
// variant's piece values.
type Comparison struct {
	Variants    []*VariantStats `json:"variants"`
	Differences []Difference    `json:"differences"`
	// Values holds piece values per variant when the caller fitted them
	// (PieceValues), in the order of Variants; nil entries are left out of
	// the report.
	Values []*Report `json:"values,omitempty"`
	// ValueNotes head the report's piece-value section: which player the
	// values come from and its calibration, warnings, and why a variant
	// has no values (a nil entry of Values).
	// (compare.Result keeps them in its JSON.)
	ValueNotes []string `json:"-"`
}

// Difference is one figure compared between variants A and B: the
// difference B - A with its 95% interval, a two-sided test of "no
// difference", and how many games would resolve a difference of the
// observed size.
type Difference struct {
	Metric string   `json:"metric"`
	A      string   `json:"a"`
	B      string   `json:"b"`
	ValueA float64  `json:"value_a"`
	ValueB float64  `json:"value_b"`
	Delta  Estimate `json:"delta"` // B - A
	// Z is the test statistic (for bootstrap-tested figures, the
	// difference over its bootstrap standard error) and P its two-sided
	// p-value.
	Z float64 `json:"z"`
	P float64 `json:"p"`
	// PHolm is P adjusted by Holm's step-down correction over every
	// figure the comparison tests (Compare), so that the family of tests
	// keeps a 5% chance of any false "real difference".
	// nil for a lone Differences call.
	PHolm *float64 `json:"p_holm"`
	// Primary marks the endpoints named before any game is played:
	// White's score, the draw rate (the decisive share is its
	// complement) and the mean length. The rest are secondary.
	Primary bool `json:"primary"`
	// MinDetectable is the smallest true difference these samples would
	// find at the 5% level (two-sided, before the Holm correction) with
	// 80% power: (1.96 + 0.84) standard errors; nil without a standard
	// error.
	MinDetectable *float64 `json:"min_detectable"`
	// WithinNoise is true when the difference is not significant at the
	// 5% level: by PHolm once Compare has corrected the family, by P (or
	// the bootstrap interval) for a lone Differences call.
	WithinNoise bool `json:"within_noise"`
	// GamesNeeded is the number of games per variant at which a true
	// difference of the observed size would be found significant at 5%
	// (two-sided) with 80% power; MoreGames is how many more games per
	// variant that is beyond the smaller sample (0 once resolved). Both
	// are nil when no size can be given (no observed difference, or a
	// figure without a sample-size formula).
	GamesNeeded *int `json:"games_needed"`
	MoreGames   *int `json:"more_games"`
	// Verdict says the above in one plain sentence.
	Verdict string `json:"verdict"`

	have int // the smaller sample, for MoreGames
}

// zPower80 is the one-sided normal quantile for 80% power.
var zPower80 = 0.8416212335729143

// Compare describes each variant of sets (name -> games; names in the
// given order) and tests every pair on White's score, the draw rate, the
// mean game length, each way of ending and the opening entropy.
func Compare(names []string, sets []*Dataset, cfg CompareConfig) (*Comparison, error) {
	if len(names) != len(sets) || len(names) < 2 {
		return nil, fmt.Errorf("values: compare needs two or more variants with their games (got %d names, %d data sets)", len(names), len(sets))
	}
	c := &Comparison{}
	for i, name := range names {
		s, err := Describe(name, sets[i], cfg)
		if err != nil {
			return nil, err
		}
		c.Variants = append(c.Variants, s)
	}
	for i := 0; i < len(c.Variants); i++ {
		for j := i + 1; j < len(c.Variants); j++ {
			ds, err := Differences(c.Variants[i], c.Variants[j], cfg)
			if err != nil {
				return nil, err
			}
			c.Differences = append(c.Differences, ds...)
		}
	}
	holm(c.Differences)
	return c, nil
}

// primaryMetrics are the endpoints a comparison names before its games.
var primaryMetrics = []string{"White's score", "draw rate", "mean length (plies)"}

// holm sets every difference's Holm-adjusted p-value over the family ds
// and decides significance by it (Decide).
func holm(ds []Difference) {
	ps := make([]float64, len(ds))
	for i := range ds {
		ps[i] = ds[i].P
	}
	for i, p := range HolmAdjust(ps) {
		ds[i].Decide(p)
	}
}

// HolmAdjust returns Holm's step-down adjusted p-values of the family ps
// (Holm 1979), in the order given: sorted by p, the k-th smallest of m
// becomes the largest of min(1, (m − j + 1)·p_(j)) over j ≤ k. Declaring
// "real" every figure whose adjusted p is under 5% keeps the chance of any
// false one in the family at 5%, whatever the dependence between them.
func HolmAdjust(ps []float64) []float64 {
	m := len(ps)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ps[a], ps[b]) })
	out := make([]float64, m)
	running := 0.0
	for k, i := range order {
		running = math.Max(running, math.Min(1, float64(m-k)*ps[i]))
		out[i] = running
	}
	return out
}

// Decide sets d's Holm-adjusted p-value, and from it whether d is within
// noise, how many more games it needs and its verdict.
func (d *Difference) Decide(pHolm float64) {
	d.PHolm = &pHolm
	d.Primary = slices.Contains(primaryMetrics, d.Metric)
	d.WithinNoise = pHolm >= 0.05 || d.Delta.Contains(0) && strings.HasPrefix(d.Metric, "opening entropy")
	if d.GamesNeeded != nil && d.MoreGames != nil {
		more := 0
		if d.WithinNoise {
			more = max(0, *d.GamesNeeded-d.have)
		}
		*d.MoreGames = more
	}
	d.Verdict = verdict(d)
}

// Differences tests every compared figure between two variants described
// by Describe (the tests need the per-game figures Describe keeps, so
// stats read back from JSON cannot be compared).
func Differences(a, b *VariantStats, cfg CompareConfig) ([]Difference, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(a.lengths) != a.Games || len(b.lengths) != b.Games || a.Games == 0 || b.Games == 0 {
		return nil, fmt.Errorf("values: differences need variants described by Describe (per-game figures missing for %s or %s)", a.Variant, b.Variant)
	}
	if cfg.Pairs > 0 {
		return pairedDifferences(a, b, cfg)
	}
	na, nb := float64(a.Games), float64(b.Games)
	var out []Difference

	// White's score: unpooled z-test on per-game score variances.
	va, vb := stats.ScoreVariance(a.WhiteWins, a.Draws, a.BlackWins), stats.ScoreVariance(b.WhiteWins, b.Draws, b.BlackWins)
	out = append(out, meanDifference("White's score", a, b, a.WhiteScore.Point, b.WhiteScore.Point, va, vb))

	// Draw rate: two-proportion z-test (decisive rate is its complement).
	out = append(out, proportionDifference("draw rate", a, b, float64(a.Draws), float64(b.Draws)))

	// Ways of ending, over the union of reasons.
	for _, r := range endings(a, b) {
		out = append(out, proportionDifference("ending by "+r, a, b, float64(count(a.reasons, r)), float64(count(b.reasons, r))))
	}

	// Mean length: Welch's z with the sample variances.
	out = append(out, meanDifference("mean length (plies)", a, b, a.Length.Mean.Point, b.Length.Mean.Point,
		variance(a.lengths)*na/max(na-1, 1), variance(b.lengths)*nb/max(nb-1, 1)))

	// Opening entropy: bootstrap both sides.
	if len(a.openings) > 0 && len(b.openings) > 0 {
		out = append(out, bootstrapDifference("opening entropy (bits)", a, b, cfg))
	}
	return out, nil
}

// endings lists the ways of ending a's or b's games, sorted.
func endings(a, b *VariantStats) []string {
	var reasons []string
	for _, s := range []*VariantStats{a, b} {
		for _, t := range s.Terminations {
			if !slices.Contains(reasons, t.Reason) {
				reasons = append(reasons, t.Reason)
			}
		}
	}
	slices.Sort(reasons)
	return reasons
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

func variance(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return v / float64(len(xs))
}

// meanDifference tests means with per-game variances va and vb (unpooled
// z-test) and sizes the samples: n = (z_{α/2} + z_β)²(va + vb)/δ² per
// variant.
func meanDifference(metric string, a, b *VariantStats, ma, mb, va, vb float64) Difference {
	na, nb := float64(a.Games), float64(b.Games)
	d := Difference{Metric: metric, A: a.Variant, B: b.Variant, ValueA: ma, ValueB: mb}
	delta := mb - ma
	se := math.Sqrt(va/na + vb/nb)
	d.Delta = Estimate{Point: delta, Lo: delta - z95*se, Hi: delta + z95*se}
	var needed float64 = math.NaN()
	if delta != 0 {
		needed = (z95 + zPower80) * (z95 + zPower80) * (va + vb) / (delta * delta)
	}
	finishTest(&d, delta, se, needed, min(a.Games, b.Games))
	return d
}

// proportionDifference tests two proportions xa/na and xb/nb: the pooled
// two-proportion z-test, a Newcombe-style interval (unpooled Wald on the
// difference), and the classical equal-n sample size
// n = [z_{α/2}·√(2p̄q̄) + z_β·√(p₁q₁+p₂q₂)]²/δ².
func proportionDifference(metric string, a, b *VariantStats, xa, xb float64) Difference {
	na, nb := float64(a.Games), float64(b.Games)
	pa, pb := xa/na, xb/nb
	d := Difference{Metric: metric, A: a.Variant, B: b.Variant, ValueA: pa, ValueB: pb}
	delta := pb - pa
	seWald := math.Sqrt(pa*(1-pa)/na + pb*(1-pb)/nb)
	d.Delta = Estimate{Point: delta, Lo: max(-1, delta-z95*seWald), Hi: min(1, delta+z95*seWald)}
	pool := (xa + xb) / (na + nb)
	se0 := math.Sqrt(pool * (1 - pool) * (1/na + 1/nb))
	needed := math.NaN()
	if delta != 0 {
		pbar := (pa + pb) / 2
		root := z95*math.Sqrt(2*pbar*(1-pbar)) + zPower80*math.Sqrt(pa*(1-pa)+pb*(1-pb))
		needed = root * root / (delta * delta)
	}
	finishTest(&d, delta, se0, needed, min(a.Games, b.Games))
	return d
}

// bootstrapDifference compares the opening entropies by resampling each
// variant's games independently. The difference is that of the entropies
// Describe printed (each the pivotal estimate of its own variant), and its
// interval is the basic bootstrap interval of the difference read around
// that point: [δ - (q97.5 - m), δ + (m - q2.5)] for the median m of the
// resampled differences, which is pivotal's interval shifted to its
// point, so it always holds it.
func bootstrapDifference(metric string, a, b *VariantStats, cfg CompareConfig) Difference {
	xa, xb := a.openings, b.openings
	d := Difference{Metric: metric, A: a.Variant, B: b.Variant, ValueA: a.Openings.Entropy.Point, ValueB: b.Openings.Entropy.Point}
	delta := d.ValueB - d.ValueA
	reps := make([]float64, cfg.Bootstrap)
	ba, bb := make([]string, len(xa)), make([]string, len(xb))
	for r := range reps {
		rng := rand.New(rand.NewPCG(cfg.Seed, 0xd1ff<<32^uint64(r)))
		for i := range ba {
			ba[i] = xa[rng.IntN(len(xa))]
		}
		for i := range bb {
			bb[i] = xb[rng.IntN(len(xb))]
		}
		reps[r] = entropyBits(bb) - entropyBits(ba)
	}
	se := math.Sqrt(variance(reps)) // spread of the resampled differences
	lo, hi := percentileInterval(reps)
	med := quantileSorted(reps, 0.5)
	d.Delta = Estimate{Point: delta, Lo: delta - (hi - med), Hi: delta + (med - lo)}
	finishTest(&d, delta, se, math.NaN(), min(a.Games, b.Games))
	// The bootstrap interval, not the normal approximation, decides.
	d.WithinNoise = d.Delta.Contains(0)
	d.Verdict = verdict(&d)
	return d
}

// finishTest fills the test, the sample size and the verdict.
func finishTest(d *Difference, delta, se, needed float64, have int) {
	d.have, d.PHolm = have, nil
	if se > 0 && !math.IsInf(se, 0) {
		mde := (1.959963984540054 + zPower80) * se
		d.MinDetectable = &mde
	}
	switch {
	case se > 0:
		d.Z = delta / se
		d.P = twoSidedP(d.Z)
	case delta == 0:
		d.Z, d.P = 0, 1
	default: // no variance at all yet a difference: certain
		d.Z, d.P = math.Copysign(math.MaxFloat64, delta), 0
	}
	d.WithinNoise = d.P >= 0.05
	if !math.IsNaN(needed) && !math.IsInf(needed, 0) && needed < 1e12 {
		n := int(math.Ceil(needed))
		more := 0
		if d.WithinNoise {
			more = max(0, n-have)
		}
		d.GamesNeeded, d.MoreGames = &n, &more
	}
	d.Verdict = verdict(d)
}

// verdict states a difference's outcome in one sentence.
func verdict(d *Difference) string {
	if !d.WithinNoise {
		dir := "higher"
		if d.Delta.Point < 0 {
			dir = "lower"
		}
		return fmt.Sprintf("%s's %s is %s than %s's (p %s%s): a real difference", d.B, d.Metric, dir, d.A, formatP(d.P), holmNote(d))
	}
	s := fmt.Sprintf("within noise (p %s%s)", formatP(d.P), holmNote(d))
	switch {
	case d.Delta.Point == 0:
		s += "; no difference observed, so no sample size can be given"
	case d.MoreGames != nil && *d.MoreGames > 0:
		s += fmt.Sprintf("; about %d more games per variant (%d in all per variant) would resolve a difference this size at 95%% confidence and 80%% power",
			*d.MoreGames, *d.GamesNeeded)
	case d.MoreGames != nil:
		s += fmt.Sprintf("; the samples already reach the %d games per variant that would resolve a true difference this size 80%% of the time: this one may be chance", *d.GamesNeeded)
	}
	return s
}

// holmNote is ", Holm p = ..." once the family is corrected.
func holmNote(d *Difference) string {
	if d.PHolm == nil {
		return ""
	}
	return ", Holm p " + formatP(*d.PHolm)
}

// formatP writes a p-value as "= 0.034" or "< 0.0001".
func formatP(p float64) string {
	if p < 1e-4 {
		return "< 0.0001"
	}
	return fmt.Sprintf("= %.2g", p)
}
