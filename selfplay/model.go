package selfplay

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"bomberzero/eval"
	"bomberzero/mcts"
	"bomberzero/nn"
)

// Model makes the evaluators of a run, one per worker: network evaluators
// sharing one read-only folded network, or network-free evaluators.
type Model struct {
	// Name is what game records and chunks call the model: the checkpoint
	// file's base name, or "none".
	Name      string
	rules     *Rules
	folded    *nn.Folded // nil without a network
	evaluator string     // the network-free evaluator's name
}

// LoadModel returns the model named by spec: "none" for the network-free
// evaluator called evaluator ("material", "uniform" or "rollout"), or the
// path of a checkpoint, which must exist, verify, and belong to the rules'
// variant and shape.
func LoadModel(spec, evaluator string, r *Rules) (*Model, error) {
	if spec == "none" {
		switch evaluator {
		case "material", "uniform", "rollout":
		default:
			return nil, fmt.Errorf("evaluator %q: want material, uniform or rollout", evaluator)
		}
		return &Model{Name: "none", rules: r, evaluator: evaluator}, nil
	}
	ck, err := nn.ReadCheckpoint(spec)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("model %s: no such checkpoint file (give a checkpoint path, or \"none\" to play without a network)", spec)
		}
		return nil, fmt.Errorf("model %s: %w", spec, err)
	}
	if ck.Variant != r.Variant.Name {
		return nil, fmt.Errorf("model %s: it was trained for variant %q, not %q", spec, ck.Variant, r.Variant.Name)
	}
	net, err := ck.Net(ck.Config, ck.Variant)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", spec, err)
	}
	return NewNetModel(filepath.Base(spec), net.Fold(), r)
}

// NewNetModel returns a model of an in-memory network, checking that its
// shape is the rules' encoding shape.
func NewNetModel(name string, f *nn.Folded, r *Rules) (*Model, error) {
	if got, want := f.Config().Shape(), r.Shape(); got != want {
		return nil, fmt.Errorf("model %s: network shape %d planes x %dx%d, policy %d; variant %s needs %d planes x %dx%d, policy %d",
			name, got.Channels, got.Height, got.Width, got.PolicySize,
			r.Variant.Name, want.Channels, want.Height, want.Width, want.PolicySize)
	}
	return &Model{Name: name, rules: r, folded: f}, nil
}

// HasNetwork says whether the model is a network.
func (m *Model) HasNetwork() bool { return m.folded != nil }

// NewEvaluator returns a fresh evaluator for batches of up to maxBatch
// positions, for one worker (seed feeds a rollout evaluator's random moves).
func (m *Model) NewEvaluator(maxBatch int, seed uint64) (eval.Evaluator, error) {
	shape := m.rules.Shape()
	if m.folded != nil {
		ev, err := nn.NewEvaluator(m.folded, maxBatch)
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", m.Name, err)
		}
		return ev, nil
	}
	switch m.evaluator {
	case "uniform":
		return mcts.NewUniform(shape, maxBatch)
	case "rollout":
		return mcts.NewRollout(shape, maxBatch, 1, 200, seed)
	}
	return mcts.NewMaterial(shape, maxBatch, 3)
}
