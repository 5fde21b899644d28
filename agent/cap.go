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
