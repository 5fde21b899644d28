package mcts

import (
	"slices"
	"testing"
)

// playWide drives games wide games in one Searcher: game i plays i+1 moves
// and is then cleared. It returns the number of searching games before each
// Step that called the evaluator, and every result's move.
func playWide(t *testing.T, cfg Config, ev *tableEval, games int) (searching []int, moves []int) {
	t.Helper()
	s, err := NewSearcher(cfg, ev, games)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < games; i++ {
		if err := s.Reset(i, &wide{hash: uint64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	left := games
	for left > 0 {
		calls := s.Calls()
		done, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if s.Calls() > calls {
			searching = append(searching, left)
		}
		for _, i := range done {
			r := s.Result(i)
			moves = append(moves, r.Move)
			if err := s.Play(i, r.Move); err != nil {
				t.Fatal(err)
			}
			if s.Ply(i) > i {
				if err := s.Clear(i); err != nil {
					t.Fatal(err)
				}
				left--
			}
		}
	}
	return searching, moves
}

func TestEveryEvaluateGetsOneLeafPerSearchingGame(t *testing.T) {
	// The wide game has no terminal positions near the root and no
	// transpositions, so every searching game needs one evaluation per
	// round: each call must get exactly min(G, games left) positions.
	const games = 16
	cfg := testConfig(10)
	ev := &tableEval{shape: wideShape, max: 64}
	searching, _ := playWide(t, cfg, ev, games)
	if len(ev.sizes) != len(searching) {
		t.Fatalf("%d evaluator calls, %d steps that called it", len(ev.sizes), len(searching))
	}
	for k, n := range ev.sizes {
		if n != min(games, searching[k]) {
			t.Fatalf("call %d evaluated %d positions with %d games searching, want %d", k, n, searching[k], min(games, searching[k]))
		}
	}
	if ev.sizes[0] != games || ev.sizes[len(ev.sizes)-1] != 1 {
		t.Errorf("first call %d positions, last %d; want %d and 1", ev.sizes[0], ev.sizes[len(ev.sizes)-1], games)
	}
}

func TestBatchesStayWithinMaxBatchAndFull(t *testing.T) {
	const games = 16
	cfg := testConfig(10)
	ev := &tableEval{shape: wideShape, max: 5}
	searching, _ := playWide(t, cfg, ev, games)
	for k, n := range ev.sizes {
		if n != min(5, searching[k]) {
			t.Fatalf("call %d evaluated %d positions with %d games searching and max batch 5, want %d", k, n, searching[k], min(5, searching[k]))
		}
	}
}

func TestSeveralLeavesPerGameUseVirtualLoss(t *testing.T) {
	// With 4 leaves per game, a game's batch entries must be distinct
	// leaves, and its search must still make exactly Sims playouts.
	cfg := testConfig(41)
	cfg.LeavesPerGame = 4
	ev := &tableEval{shape: wideShape, max: 64}
	r, err := searchOnce(cfg, ev, &wide{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Sims != 41 {
		t.Errorf("%d playouts, want 41", r.Sims)
	}
	// The first call is the root alone; later ones carry 4 leaves.
	if len(ev.sizes) < 3 || ev.sizes[0] != 1 || ev.sizes[1] != 4 {
		t.Errorf("batch sizes %v, want 1 then 4s", ev.sizes)
	}
}

func TestSameSeedSameGamesOtherSeedOtherGames(t *testing.T) {
	cfg := testConfig(24)
	cfg.NoiseFraction, cfg.TempPlies, cfg.CheapShare, cfg.CheapSims = 0.25, 100, 0.5, 8
	run := func(seed uint64) []int {
		cfg.Seed = seed
		_, moves := playWide(t, cfg, &tableEval{shape: wideShape, max: 64}, 8)
		return moves
	}
	a, b, c := run(1), run(1), run(2)
	if !slices.Equal(a, b) {
		t.Errorf("two runs with seed 1 played different moves")
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 1 and 2 played the same %d moves, want the noise and temperature to differ", len(a))
	}
}

func TestPlayoutCapMarksCheapSearches(t *testing.T) {
	// With CheapShare 0.75, about three searches in four are cheap: they
	// make CheapSims playouts and are marked not full.
	cfg := testConfig(12)
	cfg.CheapShare, cfg.CheapSims = 0.75, 3
	ev := &tableEval{shape: wideShape, max: 64}
	s, err := NewSearcher(cfg, ev, 1)
	if err != nil {
		t.Fatal(err)
	}
	const searches = 2000
	cheap := 0
	for i := 0; i < searches; i++ {
		if err := s.Reset(0, &wide{hash: uint64(i)}); err != nil {
			t.Fatal(err)
		}
		if err := s.SearchAll(); err != nil {
			t.Fatal(err)
		}
		r := s.Result(0)
		switch {
		case !r.Full && r.Sims == 3:
			cheap++
		case r.Full && r.Sims == 12:
		default:
			t.Fatalf("search %d: full %v with %d playouts, want full with 12 or cheap with 3", i, r.Full, r.Sims)
		}
	}
	// Binomial(2000, 0.75): sd 19.4; allow 5 sd.
	if cheap < 1500-97 || cheap > 1500+97 {
		t.Errorf("%d cheap searches of %d, want 1500 +- 97", cheap, searches)
	}
}
