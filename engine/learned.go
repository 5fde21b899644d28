package engine

import (
	"fmt"
	"path/filepath"

	"bomberzero/engine/nnue"
	"bomberzero/env"
)

// learned is the learned evaluation (engine/nnue) as an Evaluator.
type learned struct{ *nnue.Evaluator }

// Fork returns an evaluator of the same net with its own accumulators.
func (e learned) Fork() Evaluator { return learned{e.Evaluator.Fork()} }

// residual is a residual net's evaluation: the classical evaluation over
// the net's base piece values plus the net's correction.
type residual struct {
	net  *nnue.Evaluator
	base WindowEvaluator
}

// Name returns the net's name.
func (e residual) Name() string { return e.net.Name() }

// Fork returns an evaluator of the same net and base with its own
// accumulators and cache.
func (e residual) Fork() Evaluator {
	b, _ := e.base.Fork().(WindowEvaluator)
	return residual{e.net.Fork(), b}
}

// Evaluate returns the classical score plus the net's correction.
func (e residual) Evaluate(pos *env.Position) int32 {
	return e.EvaluateWithin(pos, -Infinite, Infinite)
}

// residualMargin bounds a residual net's correction (centipawns). With it
// the net is skipped where the classical score alone settles how the
// score stands against the search's window: the classical evaluation is
// asked first within the window widened by the margin, and a score
// outside that wider window is returned as it is, since no correction can
// bring it back (the net costs about what the classical evaluation costs,
// so every skipped call is a node nearly half as dear).
const residualMargin = 300

// EvaluateWithin returns the classical score plus the correction, clamped
// to ±residualMargin; it keeps WindowEvaluator's promise (exact inside
// (alpha, beta), on the right side of it outside) and calls the net only
// when the classical score is within the margin of the window.
func (e residual) EvaluateWithin(pos *env.Position, alpha, beta int32) int32 {
	b := e.base.EvaluateWithin(pos, sat(alpha, -residualMargin), sat(beta, residualMargin))
	if b <= sat(alpha, -residualMargin) || b >= sat(beta, residualMargin) {
		return max(-nnue.MaxScore, min(nnue.MaxScore, b))
	}
	c := max(-residualMargin, min(residualMargin, e.net.Evaluate(pos)))
	return max(-nnue.MaxScore, min(nnue.MaxScore, b+c))
}

// sat is a+b kept inside (-Infinite, Infinite), so that a shifted open
// window stays open.
func sat(a, b int32) int32 {
	if a <= -Infinite || a >= Infinite {
		return a
	}
	return max(-Infinite, min(Infinite, a+b))
}

// NewLearned returns the learned evaluation of net for variant v, named
// name (as "nnue:fbgc.nnue"): the net's score, or for a residual net
// (nnue.Net.Base "classical") the classical evaluation with the net's base
// piece values and DefaultWeights plus the net's correction. A net trained
// for another variant, or for another input layout, is refused naming
// both.
func NewLearned(v *env.Variant, net *nnue.Net, name string) (Evaluator, error) {
	if net.Variant != v.Name {
		return nil, fmt.Errorf("net for variant %s, not %s", net.Variant, v.Name)
	}
	fs, err := nnue.FeatureSetOf(v, net)
	if err != nil {
		return nil, err
	}
	ev, err := nnue.NewEvaluator(net, fs, name)
	if err != nil {
		return nil, err
	}
	switch net.Base {
	case "":
		return learned{ev}, nil
	case nnue.BaseClassical:
		base, err := NewClassical(v, net.BaseTable, DefaultWeights())
		if err != nil {
			return nil, fmt.Errorf("the residual net's base: %w", err)
		}
		return residual{ev, base}, nil
	}
	return nil, fmt.Errorf("net's base evaluation %q; want none or %s", net.Base, nnue.BaseClassical)
}

// learnedName is the evaluator name of a net read from path.
func learnedName(path string) string { return "nnue:" + filepath.Base(path) }
