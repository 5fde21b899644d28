package env

import (
	"fmt"
	"strings"
)

// Termination says how a game ended: by the rules (checkmate, stalemate,
// repetition, the fifty-move rule, a king on the scepter squares) or by
// something outside them (the length cap, adjudication, resignation, a
// forfeit, a draw agreed). Its
// text form (String, MarshalText) is what training data, game records and
// match reports store; ParseTermination reads it back, and also the older
// texts written before there was one vocabulary.
type Termination uint8

// The ways a game ends. NotOver, the zero value, is a game still going on.
const (
	NotOver      Termination = iota
	Checkmate                // decisive: the side to move is mated
	Stalemate                // draw: the side to move has no legal move and is not in check
	Repetition               // draw: the third occurrence of a position
	FiftyMoves               // draw: 100 half-moves without a capture, pawn move or drop
	Scepter                  // decisive: a king reached the enemy scepter squares
	LengthCap                // draw: the game reached the player's maximum length while still going on
	Adjudication             // a referee outside the rules scored the game (either result)
	Resignation              // decisive: the side to move gave up
	Forfeit                  // decisive: a player broke the rules of the match (an outside engine crashed, hung or sent an illegal move)
	Agreement                // draw: the players agreed to a draw
	numTerminations
)

// terminationText is each Termination's text, the form the data stores.
var terminationText = [numTerminations]string{"", "checkmate", "stalemate", "repetition", "fifty-move", "scepter",
	"length-cap", "adjudication", "resignation", "forfeit", "agreement"}

// String returns t's text: "checkmate", "stalemate", "repetition",
// "fifty-move", "scepter", "length-cap", "adjudication", "resignation",
// "forfeit" or "agreement"; "" for NotOver.
func (t Termination) String() string {
	if t >= numTerminations {
		return fmt.Sprintf("termination(%d)", uint8(t))
	}
	return terminationText[t]
}

// MarshalText returns t's text; NotOver and unknown values have none.
func (t Termination) MarshalText() ([]byte, error) {
	if t == NotOver || t >= numTerminations {
		return nil, fmt.Errorf("termination %d: not a way a game ends", uint8(t))
	}
	return []byte(terminationText[t]), nil
}

// UnmarshalText sets t from its text, as ParseTermination reads it.
func (t *Termination) UnmarshalText(text []byte) error {
	v, err := ParseTermination(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// ParseTermination reads a termination's text: one of String's texts, or
// one of the older texts ("threefold repetition", "50-move rule",
// "scepter captured", "length cap"). Anything else, "" included, is an
// error that lists the known texts.
func ParseTermination(text string) (Termination, error) {
	for t := Checkmate; t < numTerminations; t++ {
		if terminationText[t] == text {
			return t, nil
		}
	}
	// The texts written before the one vocabulary: the rules' and the
	// match runner's descriptions.
	switch text {
	case "threefold repetition":
		return Repetition, nil
	case "50-move rule":
		return FiftyMoves, nil
	case "scepter captured":
		return Scepter, nil
	case "length cap":
		return LengthCap, nil
	}
	return NotOver, fmt.Errorf("termination %q: want one of %s", text, strings.Join(terminationText[Checkmate:], ", "))
}

// Decisive reports whether a game ended by t always has a winner (true)
// or is always drawn (false); known is false when t allows either result
// (Adjudication) or is not an ending.
func (t Termination) Decisive() (decisive, known bool) {
	switch t {
	case Checkmate, Scepter, Resignation, Forfeit:
		return true, true
	case Stalemate, Repetition, FiftyMoves, LengthCap, Agreement:
		return false, true
	}
	return false, false
}
