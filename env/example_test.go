package env_test

import (
	"fmt"

	"bomberzero/env"
)

// Load a variant with options, play moves given as text, and list the moves.
func Example() {
	v, err := env.LoadVariant("birds-ninjas+scepter")
	if err != nil {
		panic(err)
	}
	p := v.NewPosition()
	for _, text := range []string{"e2-e5", "e9-e6", "~P-e2;e2-e4"} {
		m, err := p.ParseMove(text)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s (canonical %s)\n", p.FormatGC(m), p.FormatMove(m))
		p.DoMove(m)
	}
	fmt.Println(p)
	moves := p.LegalMoves(make([]env.Move, 0, env.MaxMoves))
	fmt.Println(len(moves), "legal moves; in check:", p.InCheck())
	res, _ := p.Status()
	fmt.Println(res)
	// Output:
	// e2-e5 (canonical e2e5)
	// e9-e6 (canonical e9e6)
	// ~P-e2;e2-e4 (canonical J@e2e4)
	// ****gg****/frnbqkbnrf/pppp1ppppp/10/10/4p5/4P5/4J5/10/PPPP1PPPPP/FRNBQKBNRF/****GG****[JJJjjjj] b KQkq - 0 2
	// 47 legal moves; in check: false
	// *
}

// Count the move tree of a position given as text.
func ExamplePosition_Perft() {
	v, _ := env.LoadVariant("chess")
	p, _ := v.ParsePosition("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	fmt.Println(p.Perft(3))
	// Output: 97862
}
