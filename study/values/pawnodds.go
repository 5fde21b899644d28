package values

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// PawnOddsReading is an imbalance read in the player's own pawns the way
// H. G. Muller does it: the imbalance match (side A lacks X, side B lacks
// Y) is replayed with a pawn taken from the side that scored more, and
// the drop in that side's score is a pawn's worth to this player. In the
// tanh model, with Δ = atanh(2·score − 1) side A's advantage,
//
//	pawn = |Δ(imbalance) − Δ(imbalance with the pawn gone)|
//	v(Y) − v(X) in pawns = Δ(imbalance) / pawn
//
// (the sign taken so that a pawn is worth more than nothing when the side
// that lost it scores less). The intervals are a bootstrap over the games
// of both matches, resampled independently (they are different games).
type PawnOddsReading struct {
	// Giver is the side that gave the pawn: "A" or "B".
	Giver string `json:"giver"`
	// Score is side A's score in the pawn-odds match, with its interval.
	Score Estimate `json:"score"`
	// Pawn is a pawn's worth in tanh units; nil when it has no finite
	// estimate (a score of 0 or 1 in either match).
	Pawn *Estimate `json:"pawn_tanh"`
	// Units is v(Y) − v(X) in the player's pawns; nil without Pawn or
	// when the pawn's worth is not positive.
	Units *Estimate `json:"units"`
	// Replicates is the bootstrap's size; Unbounded counts the replicates
	// whose ratio had no finite value (a pawn worth nothing or less, or a
	// resampled score of 0 or 1), which leave an interval end unbounded.
	Replicates int    `json:"replicates"`
	Unbounded  int    `json:"unbounded,omitempty"`
	Note       string `json:"note,omitempty"`
}

// ReadPawnOdds reads side A's per-game scores (1, ½, 0) in the imbalance
// match and in the pawn-odds match, where aGave says whether side A (true)
// or side B gave the pawn, with B bootstrap replicates drawn with seed.
func ReadPawnOdds(scores, oddsScores []float64, aGave bool, b int, seed uint64) (PawnOddsReading, error) {
	if len(scores) == 0 || len(oddsScores) == 0 || b < 1 {
		return PawnOddsReading{}, fmt.Errorf("values: pawn odds: want games in both matches and replicates (got %d, %d, %d)", len(scores), len(oddsScores), b)
	}
	r := PawnOddsReading{Giver: "B", Replicates: b}
	if aGave {
		r.Giver = "A"
	}
	r.Score = scoreEstimate(oddsScores)
	s1, s2 := mean(scores), mean(oddsScores)
	d1, d2 := atanhScore(s1), atanhScore(s2)
	if math.IsInf(d1, 0) || math.IsInf(d2, 0) {
		r.Note = fmt.Sprintf("a score of 0 or 1 (imbalance %.3f, pawn odds %.3f): one side won every game of a match, so a pawn's worth has no finite estimate; "+
			"play more games or a smaller imbalance (about %d games a match would likely see the other result)", s1, s2, 4*max(len(scores), len(oddsScores)))
		return r, nil
	}
	pawn := func(d1, d2 float64) float64 {
		if aGave {
			return d1 - d2
		}
		return d2 - d1
	}
	pt := pawn(d1, d2)
	rng := rand.New(rand.NewPCG(seed, 0x706177)) // "paw"
	pawns := make([]float64, b)
	units := make([]float64, b)
	for i := range b {
		e1, e2 := atanhScore(resampleMean(rng, scores)), atanhScore(resampleMean(rng, oddsScores))
		pawns[i] = pawn(e1, e2)
		units[i] = ratioOrInf(e1, pawns[i])
		if math.IsInf(units[i], 0) {
			r.Unbounded++
		}
	}
	lo, hi := SafeInterval(pawns)
	r.Pawn = &Estimate{Point: pt, Lo: lo, Hi: hi}
	if pt <= 0 {
		r.Note = fmt.Sprintf("taking the pawn did not lower the giver's score (%.3f against %.3f): this player's games do not show a pawn's worth; "+
			"play about %d games a match, or a stronger player", s1, s2, max(4*len(scores), 400))
		return r, nil
	}
	lo, hi = SafeInterval(units)
	r.Units = &Estimate{Point: d1 / pt, Lo: lo, Hi: hi}
	if r.Unbounded > 0 {
		r.Note = fmt.Sprintf("%d of %d replicates found the pawn worth nothing or one match one-sided, so the interval is unbounded there; "+
			"about %d games a match would bound it", r.Unbounded, b, max(4*len(scores), 400))
	}
	return r, nil
}

// atanhScore is side A's advantage in tanh units, ±Inf at scores 1 and 0.
func atanhScore(s float64) float64 { return math.Atanh(2*s - 1) }

// ratioOrInf is d / pawn, or ±Inf (d's sign; + for 0) when pawn is not
// positive or either is infinite: never NaN.
func ratioOrInf(d, pawn float64) float64 {
	if pawn > 0 && !math.IsInf(pawn, 0) && !math.IsInf(d, 0) {
		return d / pawn
	}
	if pawn > 0 && math.IsInf(pawn, 1) && !math.IsInf(d, 0) {
		return 0
	}
	if d < 0 {
		return math.Inf(-1)
	}
	return math.Inf(1)
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func resampleMean(rng *rand.Rand, xs []float64) float64 {
	s := 0.0
	for range xs {
		s += xs[rng.IntN(len(xs))]
	}
	return s / float64(len(xs))
}

// scoreEstimate is the score of per-game scores with ScoreInterval.
func scoreEstimate(xs []float64) Estimate {
	var w, d, l int
	for _, x := range xs {
		switch {
		case x > 0.75:
			w++
		case x > 0.25:
			d++
		default:
			l++
		}
	}
	return ScoreInterval(w, d, l)
}

// SafeInterval is the 95% percentile interval of bootstrap replicates xs
// (sorted in place), infinite replicates allowed: an end that falls next to
// an infinite replicate takes the nearer order statistic instead of
// interpolating, so it is a number or ±Inf, never NaN. Empty xs gives an
// unbounded interval.
func SafeInterval(xs []float64) (lo, hi float64) {
	if len(xs) == 0 {
		return math.Inf(-1), math.Inf(1)
	}
	slices.Sort(xs)
	q := func(p float64) float64 {
		h := p * float64(len(xs)-1)
		i := int(math.Floor(h))
		if i >= len(xs)-1 {
			return xs[len(xs)-1]
		}
		a, b := xs[i], xs[i+1]
		if math.IsInf(a, 0) || math.IsInf(b, 0) {
			return xs[int(math.Round(h))]
		}
		return a + (h-float64(i))*(b-a)
	}
	return q(0.025), q(0.975)
}
