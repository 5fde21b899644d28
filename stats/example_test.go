package stats_test

import (
	"fmt"

	"bomberzero/stats"
)

// A 60% score is +70.4 Elo; the interval and LOS follow docs/stats.md.
func ExampleNewEstimate() {
	e := stats.NewEstimate(60, 0, 40)
	fmt.Printf("score %.2f, Elo %+.1f [%+.1f, %+.1f], LOS %.1f%%\n", e.Score, e.Elo, e.EloLow, e.EloHigh, 100*e.LOS)
	// Output: score 0.60, Elo +70.4 [+1.4, +139.5], LOS 97.7%
}

// Ratings anchored at random = 0 from pairwise results.
func ExampleLadder() {
	ladder, err := stats.Ladder([]stats.Pairing{
		{A: "greedy", B: "random", WDL: stats.WDL{Wins: 60, Draws: 0, Losses: 40}},
		{A: "alphabeta:1", B: "greedy", WDL: stats.WDL{Wins: 60, Draws: 0, Losses: 40}},
	}, "random", 0)
	if err != nil {
		panic(err)
	}
	for _, r := range ladder {
		fmt.Printf("%-12s %+6.1f\n", r.Player, r.Elo)
	}
	// Output:
	// alphabeta:1  +140.9
	// greedy        +70.4
	// random         +0.0
}
