package mcts

import (
	"fmt"
	"math"

	"bomberzero/eval"
)

// Material is a network-free evaluator for games that implement
// Materialer: the uniform policy over the legal moves and the value
// tanh(material/Scale) for the side to move.
type Material struct {
	shape    eval.Shape
	maxBatch int
	scale    float64
}

// NewMaterial returns a Material evaluator for shape and batches of up to
// maxBatch positions; scale is the material balance (in pawns) worth a
// value of tanh(1) = 0.76.
func NewMaterial(shape eval.Shape, maxBatch int, scale float64) (*Material, error) {
	if err := shape.Validate(); err != nil {
		return nil, fmt.Errorf("mcts: material evaluator: %w", err)
	}
	if maxBatch < 1 || !(scale > 0) {
		return nil, fmt.Errorf("mcts: material evaluator: max batch %d, scale %g: want >= 1 and > 0", maxBatch, scale)
	}
	return &Material{shape: shape, maxBatch: maxBatch, scale: scale}, nil
}

// Shape returns the evaluator's shape.
func (m *Material) Shape() eval.Shape { return m.shape }

// MaxBatch returns the largest batch it accepts.
func (m *Material) MaxBatch() int { return m.maxBatch }

// Evaluate fails: material is read from the games (see EvaluateGames).
func (m *Material) Evaluate(*eval.Batch) error { return errNeedsGames }

// EvaluateGames writes the uniform policy and the material value of each
// game.
func (m *Material) EvaluateGames(games []Game, b *eval.Batch) error {
	if err := b.Check(m.shape); err != nil {
		return err
	}
	for j := 0; j < b.Size; j++ {
		mg, ok := games[j].(Materialer)
		if !ok {
			return fmt.Errorf("mcts: material evaluator: game type %T has no Material method", games[j])
		}
		uniformPolicy(b, m.shape.PolicySize, j)
		setValue(b, j, float32(math.Tanh(mg.Material()/m.scale)))
	}
	return nil
}
