package engine

import "bomberzero/env"

// Evaluator scores a position that is not over, in centipawns for the side
// to move. The search calls it at every leaf, so an implementation must be
// fast and allocation-free; it may keep scratch state, so each search
// thread has its own (Fork). The classical evaluation implements it; a
// learned one will.
type Evaluator interface {
	// Evaluate returns pos's score for the side to move.
	Evaluate(pos *env.Position) int32
	// Fork returns an evaluator of the same weights for another thread.
	Fork() Evaluator
	// Name says which evaluation this is, as a player spec writes it.
	Name() string
}

// WindowEvaluator is an Evaluator that can save work when the caller only
// needs to know how the score stands against a window: EvaluateWithin
// returns the exact score when it lies inside (alpha, beta), and otherwise
// a score on the same side of the window as the exact one (lazy
// evaluation). The search uses it where it has a window.
type WindowEvaluator interface {
	Evaluator
	EvaluateWithin(pos *env.Position, alpha, beta int32) int32
}
