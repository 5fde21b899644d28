package match_test

import (
	"context"
	"fmt"

	"bomberzero/env"
	"bomberzero/match"
)

// A short match of the depth-2 baseline against random moves.
func ExampleRun() {
	v, _ := env.LoadVariant("fbgc")
	a, _ := match.Parse("alphabeta:2", v, match.Options{})
	b, _ := match.Parse("random", v, match.Options{})
	res, err := match.Run(context.Background(), match.Config{A: a, B: b, Games: 2, Variant: v, MaxPlies: 200, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("A with White %d games, with Black %d; A lost %d\n", res.AWhite.Games(), res.ABlack.Games(), res.Total.Losses)
	// Output: A with White 1 games, with Black 1; A lost 0
}
