package mcts

import (
	"fmt"
	"slices"
	"testing"
)

// playSeeded plays tic-tac-toe games seeded by seeds on a searcher of
// slots slots, filling a slot with the next game as soon as one ends, and
// returns each game's moves by its index in seeds.
func playSeeded(t *testing.T, cfg Config, slots int, seeds []uint64) [][]int {
	t.Helper()
	s, err := NewSearcher(cfg, newUniform(t, newTicTacToe()), slots)
	if err != nil {
		t.Fatal(err)
	}
	moves := make([][]int, len(seeds))
	game := make([]int, slots) // the game index each slot plays, -1: none
	next := 0
	begin := func(i int) {
		game[i] = -1
		if next == len(seeds) {
			if err := s.Clear(i); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := s.Reset(i, newTicTacToe()); err != nil {
			t.Fatal(err)
		}
		if err := s.Seed(i, seeds[next]); err != nil {
			t.Fatal(err)
		}
		game[i], next = next, next+1
	}
	for i := range slots {
		begin(i)
	}
	for steps := 0; slices.ContainsFunc(game, func(g int) bool { return g >= 0 }); steps++ {
		if steps > 100000 {
			t.Fatal("the games never ended")
		}
		done, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range done {
			r := s.Result(i)
			if r.Move < 0 {
				begin(i)
				continue
			}
			moves[game[i]] = append(moves[game[i]], r.Move)
			if err := s.Play(i, r.Move); err != nil {
				t.Fatal(err)
			}
			if over, _ := s.Game(i).Status(); over {
				begin(i)
			}
		}
	}
	return moves
}

// TestSeededGamesDoNotDependOnTheirSlotOrNeighbours: a game whose slot is
// seeded (Searcher.Seed) plays the same moves alone on a searcher of one
// slot as among others on a searcher of three, whichever slot it lands in,
// with root noise, temperature and cheap searches all drawing.
func TestSeededGamesDoNotDependOnTheirSlotOrNeighbours(t *testing.T) {
	for _, gumbel := range []bool{false, true} {
		t.Run(fmt.Sprintf("gumbel=%v", gumbel), func(t *testing.T) {
			cfg := testConfig(48)
			cfg.Gumbel = gumbel
			cfg.NoiseFraction, cfg.TempPlies, cfg.CheapShare, cfg.CheapSims = 0.25, 9, 0.5, 12
			seeds := []uint64{11, 12, 13, 14, 15, 16, 17}
			together := playSeeded(t, cfg, 3, seeds)
			distinct := map[string]bool{}
			for k, seed := range seeds {
				alone := playSeeded(t, cfg, 1, []uint64{seed})[0]
				if !slices.Equal(alone, together[k]) {
					t.Errorf("game %d (seed %d): %v alone, %v among others", k, seed, alone, together[k])
				}
				distinct[fmt.Sprint(alone)] = true
			}
			if len(distinct) < 3 {
				t.Errorf("%d distinct games of %d seeds: want the seed to matter", len(distinct), len(seeds))
			}
		})
	}
}
