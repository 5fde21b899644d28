package engine

import "fmt"

// Scores are centipawns for the side to move. A won game is worth Mate less
// the plies to it, so that the quickest mate scores highest; scores beyond
// MateBound (in absolute value) are mates.
const (
	// MaxPly bounds the plies of one search line, extensions and quiescence included.
	MaxPly = 128
	// Mate is the score of a position in which the side to move has won.
	Mate int32 = 32000
	// MateBound is the least absolute score that means a forced game end.
	MateBound = Mate - MaxPly
	// Infinite is above every score.
	Infinite int32 = Mate + 1
)

// matedIn is the score of the side to move, lost at ply.
func matedIn(ply int) int32 { return -Mate + int32(ply) }

// mateIn is the score of the side to move, winning at ply.
func mateIn(ply int) int32 { return Mate - int32(ply) }

// IsMate says whether s announces a forced game end (a win or a loss).
func IsMate(s int32) bool { return s >= MateBound || s <= -MateBound }

// MateMoves returns the moves to the end a mate score announces: positive
// when the side to move wins, negative when it loses, 0 for other scores.
func MateMoves(s int32) int {
	switch {
	case s >= MateBound:
		return int(Mate-s+1) / 2
	case s <= -MateBound:
		return -int(Mate+s) / 2
	}
	return 0
}

// ScoreText writes a score as UCI does: "cp 35" or "mate -3".
func ScoreText(s int32) string {
	if IsMate(s) {
		return fmt.Sprintf("mate %d", MateMoves(s))
	}
	return fmt.Sprintf("cp %d", s)
}

// toTT turns a score of the node at ply into the form the table keeps:
// mates counted from the node, not the root, so that the entry holds
// wherever the position recurs.
func toTT(s int32, ply int) int32 {
	switch {
	case s >= MateBound:
		return s + int32(ply)
	case s <= -MateBound:
		return s - int32(ply)
	}
	return s
}

// fromTT is toTT's inverse: a stored score read at ply.
func fromTT(s int32, ply int) int32 {
	switch {
	case s >= MateBound:
		return s - int32(ply)
	case s <= -MateBound:
		return s + int32(ply)
	}
	return s
}
