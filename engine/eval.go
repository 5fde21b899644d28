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
