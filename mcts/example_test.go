package mcts

import (
	"fmt"
)

// The self-play loop of one worker: Step until searches finish, record
// each finished search's Result, play its move, start a new game (or clear
// the slot) when a game ends. Here two subtraction games (take 1-3 stones,
// taking the last wins) are played by the search with the Uniform
// evaluator; the winning move always leaves a multiple of 4.
func ExampleSearcher() {
	cfg := DefaultConfig()
	cfg.Sims, cfg.CheapShare, cfg.NoiseFraction, cfg.TempPlies = 400, 0, 0, 0
	ev, err := NewUniform(subShape, 64)
	if err != nil {
		panic(err)
	}
	s, err := NewSearcher(cfg, ev, 2)
	if err != nil {
		panic(err)
	}
	start := []int{7, 10}
	for i, n := range start {
		if err := s.Reset(i, &subtraction{stones: n}); err != nil {
			panic(err)
		}
	}
	left := len(start)
	for left > 0 {
		done, err := s.Step()
		if err != nil {
			panic(err)
		}
		for _, i := range done {
			r := s.Result(i)
			if r.Move < 0 { // the game is over: Value is the rules' value for the side to move
				fmt.Printf("game %d over after %d plies, side to move %+g\n", i, s.Ply(i), r.Value)
				if err := s.Clear(i); err != nil {
					panic(err)
				}
				left--
				continue
			}
			stones := s.Game(i).(*subtraction).stones
			fmt.Printf("game %d: %d stones, takes %d\n", i, stones, r.Move+1)
			if err := s.Play(i, r.Move); err != nil {
				panic(err)
			}
		}
	}
	// Output:
	// game 0: 7 stones, takes 3
	// game 1: 10 stones, takes 2
	// game 0: 4 stones, takes 1
	// game 1: 8 stones, takes 2
	// game 0: 3 stones, takes 3
	// game 1: 6 stones, takes 2
	// game 0 over after 3 plies, side to move -1
	// game 1: 4 stones, takes 3
	// game 1: 1 stones, takes 1
	// game 1 over after 5 plies, side to move -1
}
