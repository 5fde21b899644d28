package engine

import (
	"context"
	"fmt"

	"bomberzero/env"
)

// LeafNodes bounds the positions one Leaf.Score visits at depth 0 (a
// quiescence search that a bomber's double captures could make explode
// stops there); a deeper Leaf may visit LeafNodes times its depth plus one.
const LeafNodes = 4096

// MaxLeafDepth bounds a Leaf's depth: a leaf score is a short look, not a
// search of its own.
const MaxLeafDepth = 4

// Leaf scores positions by a short search of the engine, for the leaves of
// another search (the MCTS search's leaf_engine): at depth 0 the
// quiescence search alone (the side to move stands pat on its static
// evaluation or plays its captures, promotions and evasions), at depth d
// the engine's principal-variation search of d plies over it, with mates
// and every game end of the variant exact. It keeps no table and no move
// order statistics between calls, so a score is a function of the position
// alone (history included): leaves scored in any order, on any Leaf, score
// the same.
//
// A Leaf is for one goroutine at a time; Fork gives another.
type Leaf struct {
	e     *Engine
	w     *worker
	sh    shared
	depth int
}

// NewLeaf returns a Leaf for variant v with the piece values table (the
// move order and the pruning margins read it, as Options.Table), the
// evaluation ev (nil: the classical one over table with DefaultWeights)
// and depth plies of full search before the quiescence search (0 to
// MaxLeafDepth).
func NewLeaf(v *env.Variant, table []int32, ev Evaluator, depth int) (*Leaf, error) {
	if depth < 0 || depth > MaxLeafDepth {
		return nil, fmt.Errorf("engine: leaf depth %d: want 0 (the quiescence search alone) to %d", depth, MaxLeafDepth)
	}
	e, err := New(v, Options{HashMB: 1, Table: table, Eval: ev})
	if err != nil {
		return nil, fmt.Errorf("engine: leaf: %w", err)
	}
	w := e.workers[0]
	w.leaf = true
	return &Leaf{e: e, w: w, depth: depth}, nil
}

// Fork returns a Leaf with the same variant, table, evaluation weights and
// depth for another goroutine.
func (l *Leaf) Fork() *Leaf {
	f, err := NewLeaf(l.e.v, l.e.value, l.e.eval.Fork(), l.depth)
	if err != nil {
		panic("engine: forking a checked leaf: " + err.Error())
	}
	return f
}

// Score returns pos's score in centipawns for the side to move (a forced
// game end as a mate score: IsMate), leaving pos as it was. pos must be of
// the Leaf's variant and not over. It allocates nothing once the Leaf has
// seen a position's history as long. A search that runs out of nodes
// scores the position by its static evaluation.
func (l *Leaf) Score(pos *env.Position) int32 {
	w := l.w
	l.sh = shared{ctx: context.Background(), nodeLimit: LeafNodes * int64(l.depth+1)}
	w.reset(pos, &l.sh, MaxDepth, 0, nil)
	var s int32
	if l.depth == 0 {
		s = w.quiesce(-Infinite, Infinite, 0)
	} else {
		w.clearHistory() // the statistics of the last call would order this one's moves
		s = w.search(-Infinite, Infinite, l.depth, 0, false, w.pos.InCheck())
	}
	if w.stopped() {
		// Out of nodes: the line stopped mid-way returned 0; the static
		// evaluation is the honest answer.
		return w.eval.Evaluate(pos)
	}
	return s
}
