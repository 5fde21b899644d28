package mcts

import (
	"testing"
)

func newUniform(t *testing.T, shapeGames Game) *Uniform {
	t.Helper()
	var u *Uniform
	var err error
	switch shapeGames.(type) {
	case *ticTacToe:
		u, err = NewUniform(tttShape, 64)
	case *subtraction:
		u, err = NewUniform(subShape, 64)
	}
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestSearchTakesImmediateWin(t *testing.T) {
	// X: 0 1, O: 3 4, X to move: 2 wins at once (5 would only block).
	g := tttFrom([]int{0, 1}, []int{3, 4})
	for _, gumbel := range []bool{false, true} {
		cfg := testConfig(100)
		cfg.Gumbel = gumbel
		r, err := searchOnce(cfg, newUniform(t, g), g)
		if err != nil {
			t.Fatal(err)
		}
		if r.Move != 2 {
			t.Errorf("gumbel=%v: played %d, want the winning move 2 (policy %v over %v)", gumbel, r.Move, r.Policy, r.Moves)
		}
		if r.Value < 0.5 {
			t.Errorf("gumbel=%v: root value %.3f, want > 0.5 for a won position", gumbel, r.Value)
		}
	}
}

func TestSearchBlocksImmediateLoss(t *testing.T) {
	// X: 0 8, O: 3 4, X to move: O threatens 5, X has no win in one.
	g := tttFrom([]int{0, 8}, []int{3, 4})
	for _, gumbel := range []bool{false, true} {
		cfg := testConfig(200)
		cfg.Gumbel = gumbel
		r, err := searchOnce(cfg, newUniform(t, g), g)
		if err != nil {
			t.Fatal(err)
		}
		if r.Move != 5 {
			t.Errorf("gumbel=%v: played %d, want the block 5 (policy %v over %v)", gumbel, r.Move, r.Policy, r.Moves)
		}
	}
}

func TestSelfPlayOfTicTacToeDraws(t *testing.T) {
	// Perfect play draws; a search that makes a mistake loses against
	// the same search, so every game must end drawn.
	for _, gumbel := range []bool{false, true} {
		cfg := testConfig(400)
		cfg.Gumbel = gumbel
		ev, err := NewRollout(tttShape, 64, 4, 9, 7)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSearcher(cfg, ev, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Reset(0, newTicTacToe()); err != nil {
			t.Fatal(err)
		}
		for {
			if err := s.SearchAll(); err != nil {
				t.Fatal(err)
			}
			r := s.Result(0)
			if r.Move < 0 {
				if r.Value != 0 || s.Ply(0) != 9 {
					t.Errorf("gumbel=%v: game ended with value %g after %d plies at %v, want a draw after 9", gumbel, r.Value, s.Ply(0), s.Game(0))
				}
				break
			}
			if err := s.Play(0, r.Move); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestVisitsConvergeToWinningMoveOfSubtraction(t *testing.T) {
	// From n stones (n%4 != 0) the only winning move takes n%4; the share
	// of root visits it gets must grow with the playouts and end high.
	for _, stones := range []int{5, 7, 10, 13} {
		win := stones%4 - 1
		first := float32(-1)
		for _, sims := range []int{50, 400, 3000} {
			g := &subtraction{stones: stones}
			cfg := testConfig(sims)
			cfg.Solver = false // this is about visits; the solver proves these small games outright
			r, err := searchOnce(cfg, newUniform(t, g), g)
			if err != nil {
				t.Fatal(err)
			}
			share := policyOf(r, win)
			if first < 0 {
				first = share
			}
			if sims == 3000 && (share < 0.8 || r.Move != win) {
				t.Errorf("%d stones, %d playouts: winning move %d has share %.3f (played %d), want >= 0.8", stones, sims, win, share, r.Move)
			}
			if sims == 3000 && share <= first {
				t.Errorf("%d stones: winning share %.3f at %d playouts, not above %.3f at 50", stones, share, sims, first)
			}
		}
	}
}

func TestLostSubtractionPositionHasNegativeValue(t *testing.T) {
	for _, stones := range []int{4, 8} {
		g := &subtraction{stones: stones}
		r, err := searchOnce(testConfig(3000), newUniform(t, g), g)
		if err != nil {
			t.Fatal(err)
		}
		if r.Value > -0.5 {
			t.Errorf("%d stones: root value %.3f, want < -0.5 (lost for the side to move)", stones, r.Value)
		}
	}
}

func TestSearchOfFinishedGameReturnsNoMove(t *testing.T) {
	g := tttFrom([]int{0, 1, 2}, []int{3, 4}) // X has won; O to move
	r, err := searchOnce(testConfig(10), newUniform(t, g), g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Move != -1 || len(r.Moves) != 0 || r.Value != -1 {
		t.Errorf("got move %d, moves %v, value %g; want -1, none, -1", r.Move, r.Moves, r.Value)
	}
}

func TestSingleLegalMoveEndsSearchAtOnce(t *testing.T) {
	g := &subtraction{stones: 1}
	r, err := searchOnce(testConfig(100), newUniform(t, g), g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Move != 0 || len(r.Policy) != 1 || r.Policy[0] != 1 || r.Sims != 1 {
		t.Errorf("got move %d, policy %v, %d playouts; want move 0, [1], 1 playout", r.Move, r.Policy, r.Sims)
	}
}

func TestResultPolicySumsToOneAndCountsSims(t *testing.T) {
	for _, gumbel := range []bool{false, true} {
		cfg := testConfig(77)
		cfg.Gumbel = gumbel
		g := newTicTacToe()
		r, err := searchOnce(cfg, newUniform(t, g), g)
		if err != nil {
			t.Fatal(err)
		}
		sum := float32(0)
		for _, p := range r.Policy {
			sum += p
		}
		if len(r.Moves) != 9 || len(r.Policy) != 9 || sum < 0.999 || sum > 1.001 {
			t.Errorf("gumbel=%v: %d moves, %d probabilities summing to %g; want 9, 9, 1", gumbel, len(r.Moves), len(r.Policy), sum)
		}
		if r.Sims != 77 || !r.Full {
			t.Errorf("gumbel=%v: %d playouts, full %v; want 77, true", gumbel, r.Sims, r.Full)
		}
	}
}

// TestTreeStopsAtItsNodeBudgetAndTheSearchReturnsItsBestMove is finding 9
// of issue 34: a long search ("go infinite") grew its tree until the
// process died in tree.expand. A tree now stops at the node budget that
// tree_memory_mb allows, and the search ends with the best move so far.
func TestTreeStopsAtItsNodeBudgetAndTheSearchReturnsItsBestMove(t *testing.T) {
	g := tttFrom(nil, nil)
	cfg := testConfig(MaxSims)
	cfg.Solver = false // the whole game must not be proved before the budget
	cfg.TreeMemoryMB = 1
	budget := cfg.NodeBudget()
	if want := (1 << 20) / (BlockNodes * NodeBytes) * BlockNodes; budget != want || budget < 1000 {
		t.Fatalf("NodeBudget of 1 MiB = %d, want %d", budget, want)
	}
	s := searched(t, cfg, newUniform(t, g), g)
	r := s.Result(0)
	if tr := &s.slots[0].tree; tr.used > budget || tr.nodes.span() > budget || len(tr.nodes.blocks)*BlockNodes > budget {
		t.Errorf("tree of %d nodes spanning %d in %d blocks, budget %d nodes", tr.used, tr.nodes.span(), len(tr.nodes.blocks), budget)
	}
	if !r.TreeFull || r.Sims >= MaxSims || r.Sims < 1000 {
		t.Errorf("TreeFull %v after %d playouts; want the search ended by the full tree, well before %d", r.TreeFull, r.Sims, MaxSims)
	}
	if r.Move < 0 || r.Move > 8 || len(r.Moves) != 9 {
		t.Errorf("move %d of %v; want a move of the empty board", r.Move, r.Moves)
	}
	if d := DefaultConfig(); d.NodeBudget() < 5_000_000 || d.NodeBudget() != (Config{}).NodeBudget() {
		t.Errorf("default NodeBudget %d (zero config %d); want some ten million nodes, 0 meaning the default", d.NodeBudget(), (Config{}).NodeBudget())
	}
}
