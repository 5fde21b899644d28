package compare

import (
	"math"

	"bomberzero/study/values"
)

// PairedPawnOdds is the pawn-odds reading (values.ReadPawnOdds) with a
// paired bootstrap: when both matches started game i from the same opening
// with the same seeds (ImbalanceConfig.Book), replicate r resamples the
// same game indices in both, so what a pair's games share (the opening's
// lean, the seeds) drops out of the difference that makes the pawn. The
// points are the unpaired reading's; only the intervals differ, narrower
// where the pairs' games are alike.
type PairedPawnOdds struct {
	// Pawn is a pawn's worth in tanh units; Units is v(Y) − v(X) in the
	// player's pawns, nil when the pawn's point is not positive.
	Pawn  values.Estimate  `json:"pawn_tanh"`
	Units *values.Estimate `json:"units"`
	// Replicates is the bootstrap's size; Unbounded counts the replicates
	// with no finite ratio (a resampled pawn worth nothing or less, or a
	// resampled score of 0 or 1), which can leave an interval end
	// unbounded.
	Replicates int `json:"replicates"`
	Unbounded  int `json:"unbounded,omitempty"`
}

// pairedPawnOdds reads side A's per-game scores in the imbalance match and
// in the pawn-odds match, paired by index (aGives: side A gave the pawn),
// with b replicates drawn with seed. It returns nil when the lists do not
// pair (different lengths) or either match's score is 0 or 1 (the
// unpaired reading's note then says why).
func pairedPawnOdds(scores, odds []float64, aGives bool, b int, seed uint64) *PairedPawnOdds {
	if len(scores) == 0 || len(scores) != len(odds) || b < 1 {
		return nil
	}
	d1, d2 := atanhMean(scores), atanhMean(odds)
	if math.IsInf(d1, 0) || math.IsInf(d2, 0) {
		return nil
	}
	pawnOf := func(d1, d2 float64) float64 {
		if aGives {
			return d1 - d2
		}
		return d2 - d1
	}
	ones := make([]float64, b)
	for i := range ones {
		ones[i] = 1
	}
	// The same seed and length: replicate r draws the same indices in both.
	r1 := values.PairedImbalanceReplicates(scores, ones, seed)
	r2 := values.PairedImbalanceReplicates(odds, ones, seed)
	out := &PairedPawnOdds{Replicates: b}
	pawns := make([]float64, 0, b)
	units := make([]float64, b)
	for r := range b {
		p := pawnOf(r1[r], r2[r])
		switch {
		case math.IsNaN(p): // both resampled matches one-sided the same way
			units[r] = math.Copysign(math.Inf(1), d1)
		case p > 0 && !math.IsInf(p, 0) && !math.IsInf(r1[r], 0):
			units[r] = r1[r] / p
		default:
			units[r] = math.Copysign(math.Inf(1), r1[r])
		}
		if !math.IsNaN(p) {
			pawns = append(pawns, p)
		}
		if math.IsInf(units[r], 0) {
			out.Unbounded++
		}
	}
	pt := pawnOf(d1, d2)
	lo, hi := values.SafeInterval(pawns)
	out.Pawn = values.Estimate{Point: pt, Lo: lo, Hi: hi}
	if pt > 0 {
		lo, hi = values.SafeInterval(units)
		out.Units = &values.Estimate{Point: d1 / pt, Lo: lo, Hi: hi}
	}
	return out
}

// atanhMean is atanh(2·mean − 1) of side A's per-game scores, ±Inf at a
// mean of 1 or 0.
func atanhMean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return math.Atanh(2*s/float64(len(xs)) - 1)
}
