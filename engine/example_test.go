package engine_test

import (
	"context"
	"fmt"

	"bomberzero/engine"
	"bomberzero/env"
)

// The engine finds a back-rank mate and announces it.
func ExampleEngine_Search() {
	v, _ := env.LoadVariant("chess")
	table := make([]int32, len(v.Pieces)) // centipawns by piece type
	for t := 1; t < len(v.Pieces); t++ {
		table[t] = map[byte]int32{'P': 100, 'N': 300, 'B': 300, 'R': 500, 'Q': 900}[v.Pieces[t].Letter]
	}
	e, err := engine.New(v, engine.Options{HashMB: 1, Table: table})
	if err != nil {
		panic(err)
	}
	pos, _ := v.ParsePosition("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
	res, err := e.Search(context.Background(), pos, engine.Limits{Depth: 3}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(pos.FormatMove(res.Move), engine.ScoreText(res.Score))
	// Output: d1d8 mate 1
}
