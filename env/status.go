package env

// Result is the outcome of a game, or Ongoing.
type Result uint8

// The results.
const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
)

// String returns "1-0", "0-1", "1/2-1/2" or "*".
func (r Result) String() string { return [...]string{"*", "1-0", "0-1", "1/2-1/2"}[r] }

// For returns the result's value for side c: +1 a win for c, -1 a loss,
// 0 a draw or a game not over.
func (r Result) For(c Color) int {
	switch r {
	case WhiteWins, BlackWins:
		if (r == WhiteWins) == (c == White) {
			return 1
		}
		return -1
	}
	return 0
}

// winFor returns the result of a win by c.
func winFor(c Color) Result {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

// Status says whether the game is over and why: a king on the enemy scepter
// squares, checkmate, stalemate, the 50-move rule, threefold repetition.
func (p *Position) Status() (Result, Termination) {
	var buf [MaxMoves]Move
	return p.status(buf[:0])
}

// status is Status with a caller's move buffer.
func (p *Position) status(buf []Move) (Result, Termination) {
	return p.StatusOf(len(p.LegalMoves(buf)))
}

// StatusOf is Status for a position whose legal moves the caller has just
// generated: n is their number. It saves generating them a second time.
func (p *Position) StatusOf(n int) (Result, Termination) {
	them := p.side.Other()
	if k := p.king[them]; k != NoSquare && p.v.scepter[them].has(k) {
		return winFor(them), Scepter
	}
	if n == 0 {
		if p.InCheck() {
			return winFor(them), Checkmate
		}
		return Draw, Stalemate
	}
	if p.half >= 100 {
		return Draw, FiftyMoves
	}
	if p.repetitions() >= 2 {
		return Draw, Repetition
	}
	return Ongoing, NotOver
}

// repetitions counts the earlier occurrences of this position (same side to
// move) since the last irreversible move.
func (p *Position) repetitions() int {
	n := 0
	for i := len(p.hist) - 2; i >= 0 && i >= len(p.hist)-p.half; i -= 2 {
		if p.hist[i] == p.hash {
			n++
		}
	}
	return n
}
