package datasets

import (
	"fmt"
	"math"

	"bomberzero/env"
)

// The sides named in GameRecord.WouldResign.
const (
	White = "white"
	Black = "black"
)

// GameRecord is one finished self-play game as a worker hands it to
// ChunkWriter.AddGame. Its game-level facts are repeated on every row of
// the chunk so that each row stands alone in a data-frame tool.
type GameRecord struct {
	// ID identifies the game uniquely across every worker and machine;
	// NewGameID makes one.
	ID      string
	Variant string // the variant's name, e.g. "fbgc"
	// Model names the network that played the game (checkpoint name or
	// path, or "none" for the network-free evaluator); Generation is the
	// training generation it belongs to (0 for the first).
	Model      string
	Generation int
	// Result is the final result from White's view: +1 White won, 0 draw,
	// -1 Black won.
	Result int
	// Termination is how the game ended; its text is the termination
	// column.
	Termination env.Termination
	// Length is the number of plies played in the game (at least one more
	// than the last recorded position's ply).
	Length int
	// ResignDisabled is true when resignation was switched off for this game
	// (to measure false resignations). WouldResign is White or Black when,
	// in such a game, that side's search value fell under the resignation
	// threshold (the first side to do so); "" when nobody would have
	// resigned or resignation was enabled.
	ResignDisabled bool
	WouldResign    string
	Positions      []PositionRecord // the searched positions, in ply order
}

// PositionRecord is one searched position of a game.
type PositionRecord struct {
	Ply         int    // half-moves played before this position (0 at the start)
	Position    string // the rules engine's position text (FEN-like)
	WhiteToMove bool   // the side to move, which fixes the side-to-move result
	// Repetitions is how many times the position (same side to move) occurred
	// before in its game since the last irreversible move, as the encoder's
	// repetition plane shows it (env.Position.Repetitions): the position
	// text has no history, so the trainer restores the count from here.
	Repetitions int
	// The search's visit distribution over legal moves as parallel lists:
	// the move's policy index, its text, and its share of the root visits
	// (each in [0,1], summing to 1). Moves without visits may be left out.
	PolicyIndex []int32
	MoveText    []string
	Visits      []float32
	Value       float32 // the search's value of the position, side to move's view, in [-1,1]
	FullSearch  bool    // false for playout-cap randomization's cheap searches, not trained on
	Played      string  // the move played from this position, in text form ("" if unknown)
	// Pieces counts every piece type on the board (and in hand) per side.
	Pieces []PieceCount
}

// PieceCount is the number of pieces of one type each side has.
type PieceCount struct {
	Piece string // the piece's letter in the variant (uppercase)
	White int32
	Black int32
}

// maxRepetitions bounds PositionRecord.Repetitions: a count that fits the
// column (a game is drawn at the second earlier occurrence).
const maxRepetitions = math.MaxInt8

// visitSumTolerance is how far a position's visit fractions may sum from 1.
const visitSumTolerance = 1e-3

// Validate reports the first fault in g, naming the field (and the
// position's ply) and what was expected.
func (g *GameRecord) Validate() error {
	switch {
	case g.ID == "":
		return fmt.Errorf("game record: empty ID")
	case g.Variant == "":
		return fmt.Errorf("game %s: empty Variant", g.ID)
	case g.Result < -1 || g.Result > 1:
		return fmt.Errorf("game %s: Result %d, want -1, 0 or +1 (White's view)", g.ID, g.Result)
	case g.Generation < 0 || g.Generation > math.MaxInt32:
		return fmt.Errorf("game %s: Generation %d out of range", g.ID, g.Generation)
	case len(g.Positions) == 0:
		return fmt.Errorf("game %s: no positions", g.ID)
	case g.Length <= 0 || g.Length > math.MaxInt32:
		return fmt.Errorf("game %s: Length %d, want the positive number of plies played", g.ID, g.Length)
	case g.WouldResign != "" && g.WouldResign != White && g.WouldResign != Black:
		return fmt.Errorf("game %s: WouldResign %q, want %q, %q or empty", g.ID, g.WouldResign, White, Black)
	case g.WouldResign != "" && !g.ResignDisabled:
		return fmt.Errorf("game %s: WouldResign %q set in a game with resignation enabled", g.ID, g.WouldResign)
	}
	if _, err := g.Termination.MarshalText(); err != nil {
		return fmt.Errorf("game %s: field Termination: %w", g.ID, err)
	}
	if decisive, known := g.Termination.Decisive(); known && decisive != (g.Result != 0) {
		return fmt.Errorf("game %s: Termination %q with Result %d: a %s ends %s", g.ID, g.Termination, g.Result,
			g.Termination, map[bool]string{true: "decisively", false: "in a draw"}[decisive])
	}
	if g.Termination == env.Resignation && g.ResignDisabled {
		return fmt.Errorf("game %s: Termination %q in a game with resignation disabled", g.ID, g.Termination)
	}
	last := -1
	for i := range g.Positions {
		p := &g.Positions[i]
		if p.Ply <= last {
			return fmt.Errorf("game %s: position %d: Ply %d after ply %d, want increasing plies", g.ID, i, p.Ply, last)
		}
		last = p.Ply
		if err := p.validate(); err != nil {
			return fmt.Errorf("game %s: ply %d: %w", g.ID, p.Ply, err)
		}
	}
	if last >= g.Length {
		return fmt.Errorf("game %s: Length %d but a position at ply %d", g.ID, g.Length, last)
	}
	return nil
}

func (p *PositionRecord) validate() error {
	switch {
	case p.Position == "":
		return fmt.Errorf("empty Position")
	case len(p.MoveText) != len(p.PolicyIndex) || len(p.Visits) != len(p.PolicyIndex):
		return fmt.Errorf("lists PolicyIndex, MoveText and Visits have lengths %d, %d, %d; want equal",
			len(p.PolicyIndex), len(p.MoveText), len(p.Visits))
	case p.FullSearch && len(p.Visits) == 0:
		return fmt.Errorf("full search without a visit distribution")
	case p.Repetitions < 0 || p.Repetitions > maxRepetitions:
		return fmt.Errorf("field Repetitions %d, want 0 to %d", p.Repetitions, maxRepetitions)
	case math.IsNaN(float64(p.Value)) || p.Value < -1 || p.Value > 1:
		return fmt.Errorf("field Value %v, want a number in [-1,1]", p.Value)
	}
	sum := 0.0
	for i, v := range p.Visits {
		if math.IsNaN(float64(v)) || v < 0 || v > 1 {
			return fmt.Errorf("field Visits[%d] (%s) = %v, want a fraction in [0,1]", i, p.MoveText[i], v)
		}
		if p.PolicyIndex[i] < 0 {
			return fmt.Errorf("field PolicyIndex[%d] (%s) = %d, want >= 0", i, p.MoveText[i], p.PolicyIndex[i])
		}
		sum += float64(v)
	}
	if len(p.Visits) > 0 && math.Abs(sum-1) > visitSumTolerance {
		return fmt.Errorf("field Visits sum to %v, want 1", sum)
	}
	seen := make(map[string]bool, len(p.Pieces))
	for _, c := range p.Pieces {
		switch {
		case c.Piece == "":
			return fmt.Errorf("field Pieces: empty piece letter")
		case seen[c.Piece]:
			return fmt.Errorf("field Pieces: piece %q listed twice", c.Piece)
		case c.White < 0 || c.Black < 0:
			return fmt.Errorf("field Pieces: piece %q has negative count %d/%d", c.Piece, c.White, c.Black)
		}
		seen[c.Piece] = true
	}
	return nil
}

// FalseResignation reports whether g is a resignation-disabled game in which
// the side that would have resigned went on not to lose. measured is false
// when the game says nothing about false resignations (resignation enabled,
// or nobody fell under the threshold).
func (g *GameRecord) FalseResignation() (falseResign, measured bool) {
	if !g.ResignDisabled || g.WouldResign == "" {
		return false, false
	}
	if g.WouldResign == White {
		return g.Result >= 0, true
	}
	return g.Result <= 0, true
}
