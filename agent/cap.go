package agent

import (
	"bomberzero/env"
	"bomberzero/eval"
)

// AtLengthCap reports whether a game still going on after plies plies ends as
// a draw by the length cap maxPlies (0 or negative: no cap). This is the one
// statement of the rule; self-play, matches and the adapter all call it.
func AtLengthCap(plies, maxPlies int) bool {
	return maxPlies > 0 && plies >= maxPlies
}

// ShapeOf returns the evaluator shape of encoder e with the policy of move
// index x: the network's input and output sizes for their variant.
func ShapeOf(e *env.Encoder, x *env.MoveIndex) eval.Shape {
	return eval.Shape{Channels: e.Channels(), Height: e.Height(), Width: e.Width(), PolicySize: x.Size()}
}

// Adjudicate scores a game stopped at the length cap by material: material is
// the balance in pawns for the side to move (Game.Material, the one piece
// table), margin the lead in pawns that wins (0 or less: no adjudication).
// It returns +1 when the side to move leads by at least margin, -1 when it
// trails by at least margin, and 0 (a draw by the cap) otherwise. This is the
// one statement of the adjudication rule; self-play and the accuracy check
// of AdjudicationCheck both call it.
func Adjudicate(material, margin float64) int {
	switch {
	case margin <= 0:
		return 0
	case material >= margin:
		return 1
	case material <= -margin:
		return -1
	}
	return 0
}
