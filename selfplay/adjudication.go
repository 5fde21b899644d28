package selfplay

import (
	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/stats"
)

// AdjudicationCheck measures how often adjudication at a length cap would
// have been right: over games that were played past ply At, it applies the
// adjudication rule (agent.Adjudicate with Margin pawns, material counted
// with the piece table of the position's recorded piece counts) to the
// position at ply At, and compares the verdict with how the game really
// ended. Games must be played with a cap above At for this to measure
// anything: the games that reached At are exactly the ones a cap of At
// would have stopped.
type AdjudicationCheck struct {
	At     int     `json:"at"`     // the ply the rule is applied at
	Margin float64 `json:"margin"` // pawns ahead that win
	// Reached counts games that were still going at ply At.
	Reached int `json:"reached"`
	// Adjudicated counts those the rule would have given to one side;
	// Confirmed those the same side went on to win, Drawn those that ended
	// drawn, Reversed those the other side won. Undecided (Reached -
	// Adjudicated) would have been drawn by the cap; UndecidedWon counts
	// those that were won by either side after all.
	Adjudicated  int `json:"adjudicated"`
	Confirmed    int `json:"confirmed"`
	Drawn        int `json:"drawn"`
	Reversed     int `json:"reversed"`
	UndecidedWon int `json:"undecided_won"`
	// Accuracy is Confirmed / Adjudicated with its 95% Wilson interval
	// (all 0 when nothing was adjudicated).
	Accuracy     float64 `json:"accuracy"`
	AccuracyLow  float64 `json:"accuracy_low"`
	AccuracyHigh float64 `json:"accuracy_high"`
}

// CheckAdjudication applies the adjudication rule at ply at with margin
// pawns to every game of games that has a recorded position at that ply,
// counting material with vals (a letter the table lacks counts 0: royal
// pieces, or pieces of another table), and compares it with the games'
// results.
func CheckAdjudication(games []datasets.GameRecord, at int, margin float64, vals agent.Values) AdjudicationCheck {
	c := AdjudicationCheck{At: at, Margin: margin}
	for i := range games {
		g := &games[i]
		p := positionAt(g, at)
		if p == nil {
			continue
		}
		c.Reached++
		verdict := agent.Adjudicate(material(p, vals), margin)
		winner := g.Result // White's view
		if !p.WhiteToMove {
			winner = -winner // side to move's view, as the verdict
		}
		switch {
		case verdict == 0 && winner != 0:
			c.UndecidedWon++
		case verdict == 0:
		case winner == verdict:
			c.Adjudicated++
			c.Confirmed++
		case winner == 0:
			c.Adjudicated++
			c.Drawn++
		default:
			c.Adjudicated++
			c.Reversed++
		}
	}
	if c.Adjudicated > 0 {
		c.Accuracy = float64(c.Confirmed) / float64(c.Adjudicated)
		c.AccuracyLow, c.AccuracyHigh = stats.Wilson(float64(c.Confirmed), float64(c.Adjudicated))
	}
	return c
}

// positionAt returns g's recorded position at ply, or nil when the game did
// not go past it (a position with no move played is never recorded).
func positionAt(g *datasets.GameRecord, ply int) *datasets.PositionRecord {
	for i := range g.Positions {
		if g.Positions[i].Ply == ply {
			return &g.Positions[i]
		}
	}
	return nil
}

// material is p's balance in pawns for the side to move, from its recorded
// piece counts.
func material(p *datasets.PositionRecord, vals agent.Values) float64 {
	sum := 0.0
	for _, pc := range p.Pieces {
		if len(pc.Piece) != 1 {
			continue
		}
		sum += vals[pc.Piece[0]] * float64(pc.White-pc.Black)
	}
	if !p.WhiteToMove {
		sum = -sum
	}
	return sum
}
