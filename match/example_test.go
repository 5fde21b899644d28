package match_test

import (
	"context"
	"fmt"

	"bomberzero/env"
	"bomberzero/match"
)

// A 60% score is +70.4 Elo; the interval and LOS follow docs/match.md.
func ExampleNewEstimate() {
	e := match.NewEstimate(60, 0, 40)
	fmt.Printf("score %.2f, Elo %+.1f [%+.1f, %+.1f], LOS %.1f%%\n", e.Score, e.Elo, e.EloLow, e.EloHigh, 100*e.LOS)
	// Output: score 0.60, Elo +70.4 [+2.8, +143.9], LOS 97.7%
}

// Ratings anchored at random = 0 from pairwise results.
func ExampleLadder() {
	ladder, err := match.Ladder([]match.Pairing{
		{A: "greedy", B: "random", WDL: match.WDL{Wins: 60, Draws: 0, Losses: 40}},
		{A: "alphabeta:1", B: "greedy", WDL: match.WDL{Wins: 60, Draws: 0, Losses: 40}},
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

// A short match of the depth-2 baseline against random moves.
func ExampleRun() {
	v, _ := env.LoadVariant("fbgc")
	a, _ := match.Parse("alphabeta:2", v, match.Options{})
	b, _ := match.Parse("random", v, match.Options{})
	res, err := match.Run(context.Background(), match.Config{A: a, B: b, Games: 2, Variant: v, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("A with White %d games, with Black %d; A lost %d\n", res.AWhite.Games(), res.ABlack.Games(), res.Total.Losses)
	// Output: A with White 1 games, with Black 1; A lost 0
}
