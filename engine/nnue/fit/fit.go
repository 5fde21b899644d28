// Package fit trains an engine/nnue net with Gorgonia on positions scored
// by the engine's search and the games' results.
package fit

import (
	"context"
	"errors"

	"bomberzero/engine/nnue"
	"bomberzero/env"
)

// Sample is one training position.
type Sample struct {
	FEN    string
	Score  int32   // the search's score, centipawns for the side to move
	Result float32 // the game's result for the side to move: 1, 0.5 or 0
}

// Config sets the net's sizes and the training.
type Config struct {
	Hidden, L2   int
	Epochs       int
	Batch        int
	LearningRate float64
	// Lambda weighs the search score against the result in the target,
	// as nnue-pytorch's lambda: 1 is the score alone, 0 the result alone.
	Lambda float64
	// Scale is the centipawns per unit of the net's output (400).
	Scale           float64
	ValidationShare float64
	Seed            uint64
}

// DefaultConfig returns settings that fit two cores.
func DefaultConfig() Config {
	return Config{Hidden: nnue.DefaultHidden, L2: nnue.DefaultL2, Epochs: 10, Batch: 256,
		LearningRate: 1e-3, Lambda: 0.75, Scale: nnue.DefaultScale, ValidationShare: 0.1, Seed: 1}
}

// Report says how a training went.
type Report struct {
	Samples, Train, Validation int
	TrainLoss                  []float64 // mean loss per epoch
	ValidationLoss             []float64 // per epoch; the first entry precedes the first epoch
	Seconds                    float64
}

// Train fits a net for variant v to samples and returns it with a report;
// init, when not nil, is the net to continue from (its sizes win over
// cfg's). progress, when not nil, is called after each step.
func Train(ctx context.Context, v *env.Variant, samples []Sample, cfg Config, init *nnue.Net, progress func(step, total int)) (*nnue.Net, Report, error) {
	return nil, Report{}, errors.New("fit.Train: not implemented yet")
}
