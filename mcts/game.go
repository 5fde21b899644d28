package mcts

// Game is one position of a two-player, alternating-turn, zero-sum game as
// the search sees it. Moves are named by their policy index (the index of
// the move in the evaluator's policy vector). Every move passes the turn to
// the opponent. The rules engine implements Game through an adapter.
type Game interface {
	// Hash identifies the position for the evaluation cache: two positions
	// with the same hash must get the same evaluation, so the hash covers
	// everything the evaluator sees (side to move, repetition counts, ...).
	Hash() uint64
	// Status reports whether the game is over and, if so, its value for
	// the side to move: +1 won, 0 drawn, -1 lost (values in between are
	// allowed). A position with no legal moves must report over.
	Status() (over bool, value float32)
	// LegalMoves appends the policy indices of the legal moves to buf[:0]
	// and returns it. The order must be the same every time the same
	// position is asked.
	LegalMoves(buf []int) []int
	// Play makes the legal move with the given policy index.
	Play(move int)
	// Encode writes the position's planes (every one of the shape's
	// InputSize values, from the side to move's point of view) into planes.
	Encode(planes []float32)
	// Clone returns an independent copy of the position.
	Clone() Game
	// CopyFrom makes the receiver a copy of src, a Game of the same
	// concrete type, reusing the receiver's storage (no allocation in
	// steady state).
	CopyFrom(src Game)
}

// Materialer is a Game that can report its material balance, for the
// Material evaluator.
type Materialer interface {
	// Material returns the material balance for the side to move, in
	// pawns (positive: the side to move is ahead).
	Material() float64
}

// Quiescer is a Game that can report its material balance once the
// captures in the position are played out, for the search's
// leaf_material_mix.
type Quiescer interface {
	// Quiescence returns the material balance for the side to move, in
	// pawns, after a capture-only search from the position (positive: the
	// side to move is ahead), leaving the game as it was.
	Quiescence() float64
}

// Lookahead is a Game that can tell what Status would say after one of its
// legal moves without making it, faster than a copy, Play and Status. The
// MCTS-solver asks it for every child of every node it expands; a Game
// without it is probed on a scratch copy.
type Lookahead interface {
	// StatusAfter returns what Status would return after the legal move
	// with policy index move (the value is for the side to move then),
	// leaving the game as it was. To stay cheap it may report a finished
	// game as not over (the search sees it when it visits the child), but
	// never the reverse, and a game it reports over has Status's value.
	StatusAfter(move int) (over bool, value float32)
}
