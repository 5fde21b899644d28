// Package env is the rules engine of Charles Daniel's chess variants and of
// chess itself. A Variant is plain data read from a variant file (the board
// with its holes, the pieces and how they move, the setup, the rules of
// promotion, drops, castling and game end); a Position is a game of it,
// played with LegalMoves, DoMove and UndoMove and judged by Status, which
// names the Result and how the game ended (Termination). The package also
// reads and writes positions and moves as text, and turns a position
// into the network's input planes (Encoder) and a move into its policy index
// (MoveIndex), both seen from the side to move (docs/encoding.md).
//
// env imports no evaluator: the search sees it through agent's adapter.
package env
