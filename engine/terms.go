package engine

import (
	"fmt"
	"math"

	"bomberzero/env"
)

// NumTerms is the number of the classical evaluation's terms: the fields
// of Weights, in the order TermNames lists them.
const NumTerms = 12

// TermNames names the classical terms as Weights' fields, in vector order.
var TermNames = [NumTerms]string{
	"Material", "Centre", "PawnAdvance", "MobilityTenths", "KingShelter", "KingTropism",
	"KingCentre", "Scepter", "Doubled", "Isolated", "Passed", "Tempo",
}

// Vector returns the weights in TermNames' order.
func (w Weights) Vector() [NumTerms]float64 {
	return [NumTerms]float64{
		float64(w.Material), float64(w.Centre), float64(w.PawnAdvance), float64(w.MobilityTenths),
		float64(w.KingShelter), float64(w.KingTropism), float64(w.KingCentre), float64(w.Scepter),
		float64(w.Doubled), float64(w.Isolated), float64(w.Passed), float64(w.Tempo),
	}
}

// WeightsOf returns the weights of vector x (TermNames' order), each
// rounded to the nearest whole number and Material kept within 0 to 1000,
// the range NewClassical accepts.
func WeightsOf(x [NumTerms]float64) Weights {
	r := func(f float64) int32 {
		return int32(math.Max(math.MinInt32/4, math.Min(math.MaxInt32/4, math.Round(f))))
	}
	return Weights{
		Material: min(max(r(x[0]), 0), 1000), Centre: r(x[1]), PawnAdvance: r(x[2]), MobilityTenths: r(x[3]),
		KingShelter: r(x[4]), KingTropism: r(x[5]), KingCentre: r(x[6]), Scepter: r(x[7]),
		Doubled: r(x[8]), Isolated: r(x[9]), Passed: r(x[10]), Tempo: r(x[11]),
	}
}

// termUnit is the weight each unit evaluator of Terms gives its term: large,
// so that the integer divisions inside the evaluation lose little.
const termUnit = 1000

// Terms splits the classical evaluation of one variant into its terms:
// Of(pos)[i] is what one unit of weight i adds to pos's score for the
// side to move, so that the evaluation with weights w is, up to the
// rounding of its integer arithmetic, the dot product of w.Vector() and
// Of(pos). It reads the evaluation itself (one evaluation per term, with
// that term alone switched on), so the two cannot drift apart. It keeps
// scratch state: one Terms per goroutine.
type Terms struct {
	base *Classical // material alone, at 100%
	unit [NumTerms]*Classical
}

// NewTerms returns the terms of the classical evaluation of variant v over
// piece table table.
func NewTerms(v *env.Variant, table []int32) (*Terms, error) {
	t := &Terms{}
	var err error
	if t.base, err = NewClassical(v, table, Weights{Material: 100}); err != nil {
		return nil, fmt.Errorf("terms: %w", err)
	}
	for i := 1; i < NumTerms; i++ {
		var x [NumTerms]float64
		x[0], x[i] = 100, termUnit
		if t.unit[i], err = NewClassical(v, table, WeightsOf(x)); err != nil {
			return nil, fmt.Errorf("terms: %s: %w", TermNames[i], err)
		}
	}
	return t, nil
}

// Of returns pos's terms, for the side to move (see Terms).
func (t *Terms) Of(pos *env.Position) [NumTerms]float64 {
	var x [NumTerms]float64
	b := t.base.Evaluate(pos)
	x[0] = float64(b) / 100 // per percent of the piece table
	for i := 1; i < NumTerms; i++ {
		x[i] = float64(t.unit[i].Evaluate(pos)-b) / termUnit
	}
	return x
}

// Dot returns the score of terms x under weights w: w.Vector() · x.
func Dot(w [NumTerms]float64, x [NumTerms]float64) float64 {
	s := 0.0
	for i := range w {
		s += w[i] * x[i]
	}
	return s
}
