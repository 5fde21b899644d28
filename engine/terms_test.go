package engine

import (
	"math"
	"math/rand/v2"
	"testing"

	"bomberzero/env"
)

// TestTermsDotIsTheEvaluation checks on random positions of every variant
// and option that the terms' dot product with the weights is the
// evaluation, up to the rounding of its integer arithmetic, for the
// default weights and for random ones.
func TestTermsDotIsTheEvaluation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 31))
	weights := []Weights{DefaultWeights(), {Material: 100}}
	for range 3 {
		var x [NumTerms]float64
		x[0] = float64(50 + rng.IntN(150))
		for i := 1; i < NumTerms; i++ {
			x[i] = float64(rng.IntN(61) - 20)
		}
		weights = append(weights, WeightsOf(x))
	}
	for _, v := range variantsUnderTest(t) {
		terms, err := NewTerms(v, testTable(v))
		if err != nil {
			t.Fatal(err)
		}
		for wi, w := range weights {
			e, err := NewClassical(v, testTable(v), w)
			if err != nil {
				t.Fatal(err)
			}
			for g := range 4 {
				pos := v.NewPosition()
				var buf [env.MaxMoves]env.Move
				for ply := 0; ply < 40; ply++ {
					moves := pos.LegalMoves(buf[:0])
					if r, _ := pos.StatusOf(len(moves)); r != env.Ongoing {
						break
					}
					pos.DoMove(moves[rng.IntN(len(moves))])
					got := Dot(w.Vector(), terms.Of(pos))
					want := float64(e.Evaluate(pos))
					// Each integer division in Evaluate loses under one
					// centipawn: one per piece type, file and king term.
					tol := float64(len(v.Pieces) + v.Geo.Files + 6)
					if math.Abs(got-want) > tol {
						t.Fatalf("%s weights #%d game %d ply %d %s: dot %.2f, Evaluate %.0f (tolerance %.0f)", v.Name, wi, g, ply, pos, got, want, tol)
					}
				}
			}
		}
	}
}

// TestTermsExactWithoutRounding checks that the material term alone is
// exact: Evaluate with material weights only is its dot product.
func TestTermsExactWithoutRounding(t *testing.T) {
	for _, v := range variantsUnderTest(t) {
		terms, _ := NewTerms(v, testTable(v))
		e, _ := NewClassical(v, testTable(v), Weights{Material: 100, Tempo: 7})
		pos := v.NewPosition()
		var buf [env.MaxMoves]env.Move
		rng := rand.New(rand.NewPCG(1, 2))
		for range 30 {
			moves := pos.LegalMoves(buf[:0])
			if r, _ := pos.StatusOf(len(moves)); r != env.Ongoing {
				break
			}
			pos.DoMove(moves[rng.IntN(len(moves))])
			w := Weights{Material: 100, Tempo: 7}.Vector()
			if got, want := Dot(w, terms.Of(pos)), float64(e.Evaluate(pos)); got != want {
				t.Fatalf("%s %s: dot %v, Evaluate %v", v.Name, pos, got, want)
			}
		}
	}
}

func TestWeightsVectorRoundTrips(t *testing.T) {
	for _, w := range []Weights{DefaultWeights(), {}, {Material: 1000, Tempo: -5, Passed: 33}} {
		if got := WeightsOf(w.Vector()); got != w {
			t.Errorf("WeightsOf(%+v.Vector()) = %+v", w, got)
		}
	}
	if got := WeightsOf([NumTerms]float64{2000}).Material; got != 1000 {
		t.Errorf("material 2000 kept as %d, want clamped to 1000", got)
	}
}
