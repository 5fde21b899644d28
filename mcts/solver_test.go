package mcts

import (
	"fmt"
	"testing"
)

// mateGame is a toy game of n moves per position, drawn at ply depth,
// where move mate ends the game in a win for the mover at the plies (and
// after the first moves) for which mates says so: a stand-in for a chess
// position with a mate among many quiet moves.
type mateGame struct {
	n, mate, depth int
	mates          func(first, ply int) bool
	ply, first     int
	won            bool
	hash           uint64
}

func (g *mateGame) Hash() uint64 { return g.hash }
func (g *mateGame) Status() (bool, float32) {
	switch {
	case g.won:
		return true, -1 // the player who just moved mated
	case g.ply >= g.depth:
		return true, 0
	}
	return false, 0
}
func (g *mateGame) LegalMoves(buf []int) []int {
	buf = buf[:0]
	for k := 0; k < g.n; k++ {
		buf = append(buf, k)
	}
	return buf
}
func (g *mateGame) Play(m int) {
	if g.ply == 0 {
		g.first = m
	}
	if m == g.mate && g.mates(g.first, g.ply) {
		g.won = true
	}
	g.ply++
	h := g.hash + uint64(m+1)*0x9E3779B97F4A7C15
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	g.hash = h ^ h>>31
}
func (g *mateGame) Encode(planes []float32) { planes[0] = float32(g.ply) }
func (g *mateGame) Clone() Game             { c := *g; return &c }
func (g *mateGame) CopyFrom(src Game)       { *g = *src.(*mateGame) }

// misleading returns a policy over n moves that puts almost nothing on
// the moves in hide and the rest evenly on the others.
func misleading(n int, hide ...int) []float32 {
	p := make([]float32, n)
	for k := range p {
		p[k] = 1
	}
	for _, k := range hide {
		p[k] = 1e-7
	}
	return p
}

// searchModes are the root searches every solver guarantee must hold for.
var searchModes = []struct {
	name   string
	gumbel bool
}{{"PUCT", false}, {"Gumbel", true}}

func TestSolverPlaysMateInOneWhateverThePriorAndPlayouts(t *testing.T) {
	const n, mate = 40, 29
	for _, mode := range searchModes {
		for _, sims := range []int{1, 2, 8, 64} {
			for seed := uint64(1); seed <= 5; seed++ {
				g := &mateGame{n: n, mate: mate, depth: 8, mates: func(_, ply int) bool { return ply == 0 }}
				cfg := testConfig(sims)
				cfg.Gumbel, cfg.Seed = mode.gumbel, seed
				ev := &tableEval{shape: pickShape(n), max: 4, policy: misleading(n, mate)}
				r, err := searchOnce(cfg, ev, g)
				if err != nil {
					t.Fatal(err)
				}
				if r.Move != mate || !r.Proven || r.Value != 1 || policyOf(r, mate) != 1 {
					t.Errorf("%s, %d playouts, seed %d: move %d proven %v value %g target %g, want the mate %d, proven, 1, 1",
						mode.name, sims, seed, r.Move, r.Proven, r.Value, policyOf(r, mate), mate)
				}
				if r.Sims > 1 {
					t.Errorf("%s, %d playouts: %d playouts made, want 1 (the root's expansion proves the win)", mode.name, sims, r.Sims)
				}
			}
		}
	}
}

func TestSolverOffCanMissMateInOne(t *testing.T) {
	// The control: without the solver, a prior that hides the mate hides
	// it from a small search, so the test above asserts something.
	const n, mate = 40, 29
	g := &mateGame{n: n, mate: mate, depth: 8, mates: func(_, ply int) bool { return ply == 0 }}
	cfg := testConfig(8)
	cfg.Solver = false
	r, err := searchOnce(cfg, &tableEval{shape: pickShape(n), max: 4, policy: misleading(n, mate)}, g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Move == mate || r.Proven {
		t.Errorf("solver off: played %d (proven %v), want a miss of the hidden mate", r.Move, r.Proven)
	}
}

func TestSolverNeverPlaysMoveThatLosesAtOnce(t *testing.T) {
	// Every pick but one loses at once, and the prior favours the losers.
	const n, safe = 30, 11
	values := make([]float32, n)
	for k := range values {
		values[k] = -1
	}
	values[safe] = 0
	for _, mode := range searchModes {
		for _, sims := range []int{1, 2, 8, 64} {
			cfg := testConfig(sims)
			cfg.Gumbel = mode.gumbel
			r, err := searchOnce(cfg, &tableEval{shape: pickShape(n), max: 4, policy: misleading(n, safe)}, &pick{values: values, picked: -1})
			if err != nil {
				t.Fatal(err)
			}
			if r.Move != safe || !r.Proven || r.Value != 0 || policyOf(r, safe) != 1 {
				t.Errorf("%s, %d playouts: move %d proven %v value %g, want the only safe move %d, a proven draw",
					mode.name, sims, r.Move, r.Proven, r.Value, safe)
			}
		}
	}
}

func TestSolverAvoidsMovesAfterWhichTheOpponentMates(t *testing.T) {
	// Every root move but safe lets the opponent mate in one (with a move
	// the prior hides); once each move has been expanded it is proven
	// lost, so a search of n+1 playouts must play safe and give the
	// proven-lost moves no policy mass.
	const n, safe, mate = 12, 5, 3
	for _, mode := range searchModes {
		for _, sims := range []int{n + 1, 64, 200} {
			g := &mateGame{n: n, mate: mate, depth: 6, mates: func(first, ply int) bool { return ply == 1 && first != safe }}
			cfg := testConfig(sims)
			cfg.Gumbel, cfg.GumbelM = mode.gumbel, n
			r, err := searchOnce(cfg, &tableEval{shape: pickShape(n), max: 4, policy: misleading(n, safe, mate)}, g)
			if err != nil {
				t.Fatal(err)
			}
			if r.Move != safe {
				t.Errorf("%s, %d playouts: played %d, want the only move that does not allow mate, %d", mode.name, sims, r.Move, safe)
			}
			if !mode.gumbel {
				for k, m := range r.Moves {
					if m != safe && r.Policy[k] != 0 {
						t.Errorf("%s, %d playouts: proven-lost move %d has target %g, want 0", mode.name, sims, m, r.Policy[k])
					}
				}
			}
		}
	}
}

func TestSolverProvesMateInTwoAtTheRoot(t *testing.T) {
	// Only the first move key forces mate: after it, whatever the
	// opponent plays, move mate wins at ply 2. A search large enough to
	// expand key's replies proves the root a win and plays key.
	const n, key, mate = 6, 4, 1
	for _, mode := range searchModes {
		g := &mateGame{n: n, mate: mate, depth: 10, mates: func(first, ply int) bool { return ply == 2 && first == key }}
		cfg := testConfig(400)
		cfg.Gumbel, cfg.GumbelM = mode.gumbel, n
		r, err := searchOnce(cfg, &tableEval{shape: pickShape(n), max: 4, policy: misleading(n, mate)}, g)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Proven || r.Value != 1 || r.Move != key || policyOf(r, key) != 1 {
			t.Errorf("%s: proven %v value %g move %d target %g, want a proven win by %d", mode.name, r.Proven, r.Value, r.Move, policyOf(r, key), key)
		}
		if r.Sims >= cfg.Sims {
			t.Errorf("%s: %d playouts, want the search to stop once the root is proven", mode.name, r.Sims)
		}
	}
}

// tttValue returns the minimax value of g for its side to move.
func tttValue(g *ticTacToe, memo map[uint64]float32) float32 {
	if over, v := g.Status(); over {
		return v
	}
	if v, ok := memo[g.Hash()]; ok {
		return v
	}
	best := float32(-2)
	for _, m := range g.LegalMoves(nil) {
		c := *g
		c.Play(m)
		best = max(best, -tttValue(&c, memo))
	}
	memo[g.Hash()] = best
	return best
}

// checkProofs walks the tree of a tic-tac-toe search from node i (position
// g) and checks every solved node's value against minimax; it returns the
// number of solved nodes.
func checkProofs(t *testing.T, tr *tree, i int32, g *ticTacToe, memo map[uint64]float32) int {
	t.Helper()
	nd := tr.at(i)
	solved := 0
	if nd.solved {
		solved++
		if want := tttValue(g, memo); nd.sv != want {
			t.Fatalf("position %v to move %d: proven %g, minimax %g", g.cells, g.toMove, nd.sv, want)
		}
	}
	for k := int32(0); k < nd.nChild; k++ {
		c := *g
		c.Play(int(tr.at(nd.first + k).move))
		solved += checkProofs(t, tr, nd.first+k, &c, memo)
	}
	return solved
}

func TestSolverProofsMatchMinimaxAndSurviveTreeReuse(t *testing.T) {
	// Self-play of tic-tac-toe with tree reuse: after every search and
	// every reroot, every proven value in the tree equals the minimax
	// value, and a proven root plays a move that keeps the proven value.
	memo := map[uint64]float32{}
	for _, mode := range searchModes {
		for seed := uint64(1); seed <= 4; seed++ {
			cfg := testConfig(300)
			cfg.Gumbel, cfg.Seed, cfg.TempPlies = mode.gumbel, seed, 4
			s, err := NewSearcher(cfg, newUniform(t, newTicTacToe()), 1)
			if err != nil {
				t.Fatal(err)
			}
			g := newTicTacToe()
			if err := s.Reset(0, g); err != nil {
				t.Fatal(err)
			}
			solved := 0
			for {
				if over, _ := g.Status(); over {
					break
				}
				if err := s.SearchAll(); err != nil {
					t.Fatal(err)
				}
				tr := &s.slots[0].tree
				solved += checkProofs(t, tr, 0, g, memo)
				r := s.Result(0)
				if r.Proven {
					c := *g
					c.Play(r.Move)
					if got := -tttValue(&c, memo); got != r.Value || r.Value != tttValue(g, memo) {
						t.Fatalf("%s: proven root %g played %d worth %g", mode.name, r.Value, r.Move, got)
					}
				}
				if err := s.Play(0, r.Move); err != nil {
					t.Fatal(err)
				}
				g.Play(r.Move)
				solved += checkProofs(t, &s.slots[0].tree, 0, g, memo)
			}
			if solved == 0 {
				t.Errorf("%s seed %d: no node was ever proven", mode.name, seed)
			}
		}
	}
}

func TestSolverProvesDrawnTicTacToeEnding(t *testing.T) {
	// X on 2 6 7, O on 1 4 8, X to move: of the three moves one draws
	// (0, which blocks O's 0-4-8) and two lose; the search must prove the
	// draw and play 0.
	g := tttFrom([]int{2, 6, 7}, []int{1, 4, 8})
	if v := tttValue(g, map[uint64]float32{}); v != 0 {
		t.Fatalf("test position is worth %g, want a draw", v)
	}
	for _, mode := range searchModes {
		cfg := testConfig(50)
		cfg.Gumbel = mode.gumbel
		r, err := searchOnce(cfg, newUniform(t, g), g)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Proven || r.Value != 0 || r.Move != 0 {
			t.Errorf("%s: proven %v value %g move %d, want a proven draw by 0", mode.name, r.Proven, r.Value, r.Move)
		}
	}
}

func ExampleResult_proven() {
	// A mate in one hidden among 40 moves by the prior is played after a
	// single playout: the solver sees it when the root is expanded.
	g := &mateGame{n: 40, mate: 29, depth: 8, mates: func(_, ply int) bool { return ply == 0 }}
	cfg := testConfig(1)
	r, err := searchOnce(cfg, &tableEval{shape: pickShape(40), max: 1, policy: misleading(40, 29)}, g)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Move, r.Value, r.Proven)
	// Output: 29 1 true
}

func TestPVOfProvenMateInTwoEndsWithTheMate(t *testing.T) {
	// The principal variation of a proven mate in two is key, a reply,
	// and the mate; RootStats covers every root move in Result order and
	// shows key proven won.
	const n, key, mate = 6, 4, 1
	g := &mateGame{n: n, mate: mate, depth: 10, mates: func(first, ply int) bool { return ply == 2 && first == key }}
	s := searched(t, testConfig(400), &tableEval{shape: pickShape(n), max: 4, policy: misleading(n, mate)}, g)
	pv := s.PV(0, 10, nil)
	if len(pv) != 3 || pv[0] != key || pv[2] != mate {
		t.Fatalf("PV %v, want [%d <reply> %d]", pv, key, mate)
	}
	r := s.Result(0)
	stats := s.RootStats(0, nil)
	if len(stats) != len(r.Moves) {
		t.Fatalf("%d root stats for %d moves", len(stats), len(r.Moves))
	}
	for k, st := range stats {
		if st.Move != r.Moves[k] {
			t.Fatalf("stat %d is move %d, Result has %d", k, st.Move, r.Moves[k])
		}
		if st.Move == key && (!st.Proven || st.Q != 1) {
			t.Errorf("key move: proven %v Q %g, want a proven +1", st.Proven, st.Q)
		}
	}
	if got := s.PV(0, 1, nil); len(got) != 1 || got[0] != key {
		t.Errorf("PV limited to 1 move: %v", got)
	}
}
