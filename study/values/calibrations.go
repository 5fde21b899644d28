package values

import (
	"fmt"
	"strings"
)

// Tomasev holds the chess piece values of Tomašev et al. 2020 (AlphaZero's
// own games, pawn = 1), the reference of the chess check.
var Tomasev = map[string]float64{"N": 3.05, "B": 3.33, "R": 5.63, "Q": 9.5}

// ChessCheck is the calibration's pass rule: every fitted N, B, R, Q within
// this share of Tomasev's value and Q/R within [QRLo, QRHi].
const (
	ChessCheckShare = 0.20
	QRLo, QRHi      = 1.5, 2.1
)

// CalibrationRun is one chess calibration of a player, as docs/RESULTS.md
// records it: the player's orthodox-chess games fitted and held against
// Tomasev.
type CalibrationRun struct {
	Player   string // the player spec
	Games    int    // games fitted
	Strength string // the player's strength, if measured ("" otherwise)
	Passes   bool   // every value within 20% and Q/R in [1.5, 2.1]
	Summary  string // the fitted values, briefly
	Where    string // where the run is written up
}

// Calibrations are the chess calibrations run so far, newest last.
var Calibrations = []CalibrationRun{
	{Player: "alphabeta:2", Games: 6000,
		Summary: "N 1.7-2.2, R 4.0-4.1, Q 11-13, Q/R 2.8-3.1 against Tomašev's N 3.05, R 5.63, Q 9.5, Q/R 1.7; every interval excludes them",
		Where:   "issue 35"},
	{Player: "engine:nodes=1000", Games: 2997,
		Strength: "not measured at 1,000 nodes; at movetime=100ms about Stockfish UCI_Elo 1700",
		Summary: "logistic N 2.51, B 2.63, R 3.54, Q 7.36 (-18%, -21%, -37%, -23% of Tomašev's), Q/R 2.08 [1.93, 2.27]: " +
			"a pilot, the rook and the scale against the pawn off",
		Where: "docs/RESULTS.md, \"Chess calibration pilot with the engine\""},
}

// CalibrationLine says which player a set of piece values comes from, its
// strength if known, and whether it passes the chess check; when no
// calibration has been run for the player it says so.
func CalibrationLine(player string) string {
	var run *CalibrationRun
	for i := range Calibrations {
		if strings.EqualFold(Calibrations[i].Player, strings.TrimSpace(player)) {
			run = &Calibrations[i]
		}
	}
	if run == nil {
		return fmt.Sprintf("Calibration: no chess calibration has been run for %s, so its piece values are not known to match strong play "+
			"(docs/values.md; the check: N, B, R, Q within 20%% of Tomašev's 3.05, 3.33, 5.63, 9.5 and Q/R in [1.5, 2.1])", player)
	}
	strength := run.Strength
	if strength == "" {
		strength = "strength not measured against a rated ladder"
	}
	verdict := "fails"
	if run.Passes {
		verdict = "passes"
	}
	return fmt.Sprintf("Calibration: %s (%s) %s the chess check on %d games: %s (%s)", run.Player, strength, verdict, run.Games, run.Summary, run.Where)
}
