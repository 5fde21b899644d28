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

// NewLearned returns the learned evaluation of net for variant v, named
// name (as "nnue:fbgc.nnue"). A net trained for another variant, or for
// another input layout, is refused naming both.
func NewLearned(v *env.Variant, net *nnue.Net, name string) (Evaluator, error) {
	if net.Variant != v.Name {
		return nil, fmt.Errorf("net for variant %s, not %s", net.Variant, v.Name)
	}
	ev, err := nnue.NewEvaluator(net, nnue.NewFeatureSet(v), name)
	if err != nil {
		return nil, err
	}
	return learned{ev}, nil
}

// learnedName is the evaluator name of a net read from path.
func learnedName(path string) string { return "nnue:" + filepath.Base(path) }
