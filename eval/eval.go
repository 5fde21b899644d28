// Package eval is the one interface between the search and whatever values
// positions: the Gorgonia network (package nn) and the network-free
// evaluators both implement Evaluator, and the search never knows which one
// it talks to.
//
// Shapes are fixed per variant: a position is encoded as Channels planes of
// Height x Width float32 values (NCHW, from the side to move's point of view),
// and the policy is a vector of PolicySize entries laid out plane-major
// (index = plane*Height*Width + rank*Width + file), so a convolutional policy
// head with PolicySize/(Height*Width) output planes maps onto it directly.
package eval

import "fmt"

// Shape is the size of an evaluator's inputs and outputs.
type Shape struct {
	Channels   int // input planes per position
	Height     int // board ranks (grid rows, holes included)
	Width      int // board files (grid columns)
	PolicySize int // entries in the policy vector
}

// InputSize is the number of float32 values that encode one position.
func (s Shape) InputSize() int { return s.Channels * s.Height * s.Width }

// Validate reports whether every dimension is positive.
func (s Shape) Validate() error {
	if s.Channels <= 0 || s.Height <= 0 || s.Width <= 0 || s.PolicySize <= 0 {
		return fmt.Errorf("eval: shape %+v: every dimension must be positive", s)
	}
	return nil
}

// Batch holds a batch of encoded positions and the buffers their evaluations
// are written to. The caller owns every slice; an Evaluator only reads
// Planes and Legal and only writes Policy and WDL, so one Batch can be
// reused for every call without allocation.
type Batch struct {
	Size   int       // positions in use, 0 < Size <= capacity
	Planes []float32 // at least Size*InputSize: the encoded positions, NCHW
	Legal  []float32 // at least Size*PolicySize: 1 for a legal move's index, 0 elsewhere
	Policy []float32 // at least Size*PolicySize, written: probabilities over the legal moves, 0 elsewhere
	WDL    []float32 // at least Size*3, written: win, draw, loss probabilities for the side to move
	// MovesLeft is optional: when it holds at least Size values, an
	// evaluator that predicts game length (the network's moves-left head)
	// writes the expected plies until the game ends; others leave it as it
	// is. NewBatch does not allocate it.
	MovesLeft []float32
}

// NewBatch allocates a Batch with room for capacity positions of shape s.
func NewBatch(s Shape, capacity int) *Batch {
	return &Batch{
		Size:   capacity,
		Planes: make([]float32, capacity*s.InputSize()),
		Legal:  make([]float32, capacity*s.PolicySize),
		Policy: make([]float32, capacity*s.PolicySize),
		WDL:    make([]float32, capacity*3),
	}
}

// Check reports whether b's buffers are large enough for b.Size positions of shape s.
func (b *Batch) Check(s Shape) error {
	switch {
	case b.Size <= 0:
		return fmt.Errorf("eval: batch size %d, want > 0", b.Size)
	case len(b.Planes) < b.Size*s.InputSize():
		return fmt.Errorf("eval: batch planes hold %d values, want >= %d", len(b.Planes), b.Size*s.InputSize())
	case len(b.Legal) < b.Size*s.PolicySize:
		return fmt.Errorf("eval: batch legal mask holds %d values, want >= %d", len(b.Legal), b.Size*s.PolicySize)
	case len(b.Policy) < b.Size*s.PolicySize:
		return fmt.Errorf("eval: batch policy holds %d values, want >= %d", len(b.Policy), b.Size*s.PolicySize)
	case len(b.WDL) < b.Size*3:
		return fmt.Errorf("eval: batch WDL holds %d values, want >= %d", len(b.WDL), b.Size*3)
	}
	return nil
}

// Evaluator values batches of positions. An Evaluator is not safe for
// concurrent use: give each goroutine its own (they may share read-only
// weights).
type Evaluator interface {
	// Shape returns the input and policy shape the evaluator expects.
	Shape() Shape
	// MaxBatch returns the largest Batch.Size Evaluate accepts.
	MaxBatch() int
	// Evaluate writes b.Policy and b.WDL for the first b.Size positions of b.
	Evaluate(b *Batch) error
}
