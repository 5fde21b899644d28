package selfplay

import (
	"testing"

	"bomberzero/agent"
	"bomberzero/datasets"
)

// gameWith is a game of the given result (White's view) whose position at
// ply 10 has White's material lead lead (in queens, worth 11 each) with
// side to move white or not.
func gameWith(result, lead int, whiteToMove bool) datasets.GameRecord {
	pcs := []datasets.PieceCount{{Piece: "K", White: 1, Black: 1}, {Piece: "Q", White: int32(max(lead, 0)), Black: int32(max(-lead, 0))}}
	return datasets.GameRecord{Result: result, Length: 20, Positions: []datasets.PositionRecord{
		{Ply: 9, WhiteToMove: !whiteToMove, Pieces: pcs},
		{Ply: 10, WhiteToMove: whiteToMove, Pieces: pcs},
	}}
}

func TestCheckAdjudicationComparesTheVerdictAtAPlyWithTheResult(t *testing.T) {
	games := []datasets.GameRecord{
		gameWith(1, 1, true),   // White a queen up, White to move, White won: confirmed
		gameWith(1, 1, false),  // the same with Black to move (verdict -1 for Black): confirmed
		gameWith(0, 1, true),   // White up, drawn
		gameWith(-1, 1, false), // White up, Black won: reversed
		gameWith(-1, -1, true), // Black up, Black won: confirmed
		gameWith(1, 0, true),   // level: not adjudicated, won after all
		gameWith(0, 0, false),  // level, drawn
		{Result: 1, Length: 8, Positions: []datasets.PositionRecord{{Ply: 7}}}, // ended before ply 10
	}
	c := CheckAdjudication(games, 10, 3, agent.DefaultValues())
	want := AdjudicationCheck{At: 10, Margin: 3, Reached: 7, Adjudicated: 5, Confirmed: 3, Drawn: 1, Reversed: 1, UndecidedWon: 1}
	got := c
	got.Accuracy, got.AccuracyLow, got.AccuracyHigh = 0, 0, 0
	if got != want {
		t.Fatalf("CheckAdjudication = %+v, want %+v", got, want)
	}
	if c.Accuracy != 0.6 || !(c.AccuracyLow < 0.6 && 0.6 < c.AccuracyHigh) {
		t.Errorf("accuracy %v [%v, %v], want 0.6 inside its interval", c.Accuracy, c.AccuracyLow, c.AccuracyHigh)
	}
	// A margin above a queen adjudicates nothing.
	if c := CheckAdjudication(games, 10, 12, agent.DefaultValues()); c.Adjudicated != 0 || c.Reached != 7 || c.UndecidedWon != 5 {
		t.Errorf("margin 12: %+v, want nothing adjudicated and 5 of 7 won after all", c)
	}
}
