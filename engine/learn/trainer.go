package learn

import (
	"context"

	"bomberzero/engine"
	"bomberzero/env"
)

// Trainer is the learned evaluation the loop trains and plays: the NNUE
// of package engine/nnue (NNUE), or a stand-in in tests.
type Trainer interface {
	// Evaluator returns the engine evaluation of the net file at path for
	// variant v over piece table table. A net of another variant is an
	// error naming the file and both variants.
	Evaluator(v *env.Variant, table []int32, path string) (engine.Evaluator, error)
	// Train trains a net on rows, starting from the net at init ("" a new
	// one), writes it to out atomically, and says how it went. progress,
	// if not nil, is called with the steps done and their total.
	Train(ctx context.Context, v *env.Variant, rows []Row, init, out string, seed uint64, progress func(step, total int)) (TrainStats, error)
}

// TrainStats is how one generation's training went.
type TrainStats struct {
	Samples        int     `json:"samples"`
	Validation     int     `json:"validation"`
	TrainLoss      float64 `json:"train_loss"`
	ValidationLoss float64 `json:"val_loss"`
}
