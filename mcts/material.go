package mcts

import (
	"fmt"
	"math"

	"bomberzero/eval"
)

// Material is a network-free evaluator: the uniform policy over the legal
// moves and the value tanh(material/Scale) for the side to move. It reads
// the material from the planes (Evaluate, a plain eval.Evaluator) when it
// has plane weights, and from games that implement Materialer
// (EvaluateGames, which a Searcher prefers: it need not encode planes);
// both give the same value.
type Material struct {
	shape    eval.Shape
	maxBatch int
	scale    float64
	weights  []float64 // per plane, nil: games only
}

// NewMaterial returns a Material evaluator for shape and batches of up to
// maxBatch positions; scale is the material balance (in pawns) worth a
// value of tanh(1) = 0.76. weights, one per input plane (as
// env.Encoder.MaterialWeights gives them), read the balance from planes: the
// sum over planes of weight times the plane's sum of cells; nil leaves
// Evaluate refusing planes (games without planes, as in tests).
func NewMaterial(shape eval.Shape, maxBatch int, scale float64, weights []float64) (*Material, error) {
	if err := shape.Validate(); err != nil {
		return nil, fmt.Errorf("mcts: material evaluator: %w", err)
	}
	if maxBatch < 1 || !(scale > 0) {
		return nil, fmt.Errorf("mcts: material evaluator: max batch %d, scale %g: want >= 1 and > 0", maxBatch, scale)
	}
	if weights != nil && len(weights) != shape.Channels {
		return nil, fmt.Errorf("mcts: material evaluator: %d plane weights for %d planes", len(weights), shape.Channels)
	}
	return &Material{shape: shape, maxBatch: maxBatch, scale: scale, weights: weights}, nil
}

// Shape returns the evaluator's shape.
func (m *Material) Shape() eval.Shape { return m.shape }

// MaxBatch returns the largest batch it accepts.
func (m *Material) MaxBatch() int { return m.maxBatch }

// Evaluate writes the uniform policy and the material value of each
// position of b, reading the material from its planes; without plane
// weights it fails (see EvaluateGames).
func (m *Material) Evaluate(b *eval.Batch) error {
	if m.weights == nil {
		return errNeedsGames
	}
	if err := b.Check(m.shape); err != nil {
		return err
	}
	hw, in := m.shape.Height*m.shape.Width, m.shape.InputSize()
	for j := 0; j < b.Size; j++ {
		planes := b.Planes[j*in : (j+1)*in]
		sum := 0.0
		for c, w := range m.weights {
			if w == 0 {
				continue
			}
			cells := float32(0)
			for _, x := range planes[c*hw : (c+1)*hw] {
				cells += x
			}
			sum += w * float64(cells)
		}
		uniformPolicy(b, m.shape.PolicySize, j)
		setValue(b, j, float32(math.Tanh(sum/m.scale)))
	}
	return nil
}

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
