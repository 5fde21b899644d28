package mcts

import (
	"fmt"

	"bomberzero/eval"
)

// Uniform is the simplest network-free evaluator: the uniform policy over
// the legal moves and a drawn value (W=0, D=1, L=0) for every position. It
// reads only the legal mask, so it works from planes like the network.
type Uniform struct {
	shape    eval.Shape
	maxBatch int
}

// NewUniform returns a Uniform evaluator for shape accepting batches of up
// to maxBatch positions.
func NewUniform(shape eval.Shape, maxBatch int) (*Uniform, error) {
	if err := shape.Validate(); err != nil {
		return nil, fmt.Errorf("mcts: uniform evaluator: %w", err)
	}
	if maxBatch < 1 {
		return nil, fmt.Errorf("mcts: uniform evaluator: max batch %d, want >= 1", maxBatch)
	}
	return &Uniform{shape: shape, maxBatch: maxBatch}, nil
}

// Shape returns the evaluator's shape.
func (u *Uniform) Shape() eval.Shape { return u.shape }

// MaxBatch returns the largest batch it accepts.
func (u *Uniform) MaxBatch() int { return u.maxBatch }

// Evaluate writes the uniform policy and a draw for every position of b.
func (u *Uniform) Evaluate(b *eval.Batch) error {
	if err := b.Check(u.shape); err != nil {
		return err
	}
	for j := 0; j < b.Size; j++ {
		uniformPolicy(b, u.shape.PolicySize, j)
		setValue(b, j, 0)
	}
	return nil
}
