package mcts

import (
	"fmt"
	"testing"

	"bomberzero/eval"
)

// Toy games with known solutions, used by the tests and benchmarks.

// ticTacToe is noughts and crosses; cells 0..8 row by row are the policy
// indices. Perfect play draws.
type ticTacToe struct {
	cells  [9]int8 // +1 X, -1 O, 0 empty
	toMove int8
}

var tttShape = eval.Shape{Channels: 2, Height: 3, Width: 3, PolicySize: 9}

var tttLines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

func newTicTacToe() *ticTacToe { return &ticTacToe{toMove: 1} }

// tttFrom builds the position with X on xs and O on os; X moves when the
// counts are equal.
func tttFrom(xs, os []int) *ticTacToe {
	g := newTicTacToe()
	for _, c := range xs {
		g.cells[c] = 1
	}
	for _, c := range os {
		g.cells[c] = -1
	}
	if len(xs) > len(os) {
		g.toMove = -1
	}
	return g
}

func (g *ticTacToe) Hash() uint64 {
	h := uint64(0)
	for _, c := range g.cells {
		h = h*3 + uint64(c+1)
	}
	return h*2 + uint64((g.toMove+1)/2)
}

func (g *ticTacToe) Status() (bool, float32) {
	for _, l := range tttLines {
		if s := g.cells[l[0]] + g.cells[l[1]] + g.cells[l[2]]; s == 3 || s == -3 {
			return true, -1 // the player who just moved made the line
		}
	}
	for _, c := range g.cells {
		if c == 0 {
			return false, 0
		}
	}
	return true, 0
}

func (g *ticTacToe) LegalMoves(buf []int) []int {
	buf = buf[:0]
	for i, c := range g.cells {
		if c == 0 {
			buf = append(buf, i)
		}
	}
	return buf
}

func (g *ticTacToe) Play(m int) { g.cells[m] = g.toMove; g.toMove = -g.toMove }

func (g *ticTacToe) Encode(planes []float32) {
	for i, c := range g.cells {
		planes[i], planes[9+i] = 0, 0
		switch c {
		case g.toMove:
			planes[i] = 1
		case -g.toMove:
			planes[9+i] = 1
		}
	}
}

func (g *ticTacToe) Clone() Game       { c := *g; return &c }
func (g *ticTacToe) CopyFrom(src Game) { *g = *src.(*ticTacToe) }

// subtraction is the subtraction game: take 1, 2 or 3 stones (policy index
// k-1 takes k); whoever takes the last stone wins. A position is lost for
// the side to move exactly when the stones are a multiple of 4, and the
// winning move takes stones%4.
type subtraction struct{ stones int }

var subShape = eval.Shape{Channels: 1, Height: 1, Width: 1, PolicySize: 3}

func (g *subtraction) Hash() uint64 { return uint64(g.stones) }
func (g *subtraction) Status() (bool, float32) {
	if g.stones == 0 {
		return true, -1
	}
	return false, 0
}
func (g *subtraction) LegalMoves(buf []int) []int {
	buf = buf[:0]
	for k := 1; k <= 3 && k <= g.stones; k++ {
		buf = append(buf, k-1)
	}
	return buf
}
func (g *subtraction) Play(m int)              { g.stones -= m + 1 }
func (g *subtraction) Encode(planes []float32) { planes[0] = float32(g.stones) / 20 }
func (g *subtraction) Clone() Game             { c := *g; return &c }
func (g *subtraction) CopyFrom(src Game)       { *g = *src.(*subtraction) }

// pick is a one-move game with a huge branching factor: the side to move
// picks one of len(values) moves and the game ends with values[k] for the
// player who picked k.
type pick struct {
	values []float32 // shared, read-only
	picked int       // -1 before the move
}

func pickShape(n int) eval.Shape { return eval.Shape{Channels: 1, Height: 1, Width: 1, PolicySize: n} }

func (g *pick) Hash() uint64 { return uint64(g.picked + 1) }
func (g *pick) Status() (bool, float32) {
	if g.picked < 0 {
		return false, 0
	}
	return true, -g.values[g.picked]
}
func (g *pick) LegalMoves(buf []int) []int {
	buf = buf[:0]
	for k := range g.values {
		buf = append(buf, k)
	}
	return buf
}
func (g *pick) Play(m int)              { g.picked = m }
func (g *pick) Encode(planes []float32) { planes[0] = float32(g.picked) }
func (g *pick) Clone() Game             { c := *g; return &c }
func (g *pick) CopyFrom(src Game)       { *g = *src.(*pick) }

// wide is a game tree of branching factor wideMoves and depth wideDepth
// (then a draw), whose positions all differ: a stand-in for a chess
// variant's search load, with a realistic input and policy size.
type wide struct {
	hash uint64
	ply  int
}

const (
	wideMoves = 32
	wideDepth = 40
)

var wideShape = eval.Shape{Channels: 8, Height: 8, Width: 8, PolicySize: 8 * 64}

func (g *wide) Hash() uint64 { return g.hash }
func (g *wide) Status() (bool, float32) {
	return g.ply >= wideDepth, 0
}
func (g *wide) LegalMoves(buf []int) []int {
	buf = buf[:0]
	off := int(g.hash % 64)
	for k := 0; k < wideMoves; k++ {
		buf = append(buf, (off+k*16)%wideShape.PolicySize)
	}
	return buf
}
func (g *wide) Play(m int) {
	// A mixing step that is a bijection of the sum, so that no two
	// (position, move) pairs of the tests meet: the tree has no
	// transpositions, within or across games.
	h := g.hash + uint64(m+1)*0x9E3779B97F4A7C15
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	g.hash = h ^ h>>31
	g.ply++
}
func (g *wide) Encode(planes []float32) {
	for i := range planes[:wideShape.InputSize()] {
		planes[i] = float32((g.hash >> (i % 64)) & 1)
	}
}
func (g *wide) Clone() Game       { c := *g; return &c }
func (g *wide) CopyFrom(src Game) { *g = *src.(*wide) }

// tableEval is a test evaluator from planes: the policy is a fixed table
// (masked by the legal moves and renormalized), the value is a constant.
type tableEval struct {
	shape  eval.Shape
	max    int
	policy []float32
	value  float32
	sizes  []int // b.Size of every call
}

func (e *tableEval) Shape() eval.Shape { return e.shape }
func (e *tableEval) MaxBatch() int     { return e.max }
func (e *tableEval) Evaluate(b *eval.Batch) error {
	if err := b.Check(e.shape); err != nil {
		return err
	}
	e.sizes = append(e.sizes, b.Size)
	ps := e.shape.PolicySize
	for j := 0; j < b.Size; j++ {
		sum := float32(0)
		for k := 0; k < ps; k++ {
			p := float32(1)
			if e.policy != nil {
				p = e.policy[k]
			}
			b.Policy[j*ps+k] = p * b.Legal[j*ps+k]
			sum += b.Policy[j*ps+k]
		}
		if sum <= 0 {
			return fmt.Errorf("tableEval: entry %d has no legal move with policy mass", j)
		}
		for k := 0; k < ps; k++ {
			b.Policy[j*ps+k] /= sum
		}
		setValue(b, j, e.value)
	}
	return nil
}

// testConfig is DefaultConfig made deterministic and small: no noise, no
// cheap searches, greedy moves.
func testConfig(sims int) Config {
	c := DefaultConfig()
	c.Sims = sims
	c.CheapShare = 0
	c.NoiseFraction = 0
	c.TempPlies = 0
	c.CacheEntries = 1024
	return c
}

// searchOnce runs one search of g and returns a copy of its result.
func searchOnce(cfg Config, ev eval.Evaluator, g Game) (Result, error) {
	s, err := NewSearcher(cfg, ev, 1)
	if err != nil {
		return Result{}, err
	}
	if err := s.Reset(0, g); err != nil {
		return Result{}, err
	}
	if err := s.SearchAll(); err != nil {
		return Result{}, err
	}
	r := *s.Result(0)
	r.Moves = append([]int(nil), r.Moves...)
	r.Policy = append([]float32(nil), r.Policy...)
	return r, nil
}

// searched returns a one-slot Searcher over ev that has searched g once
// with cfg.
func searched(t *testing.T, cfg Config, ev eval.Evaluator, g Game) *Searcher {
	t.Helper()
	s, err := NewSearcher(cfg, ev, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Reset(0, g); err != nil {
		t.Fatal(err)
	}
	if err := s.SearchAll(); err != nil {
		t.Fatal(err)
	}
	return s
}

// policyOf returns r's target probability of move.
func policyOf(r Result, move int) float32 {
	for k, m := range r.Moves {
		if m == move {
			return r.Policy[k]
		}
	}
	return 0
}
