package mcts

import "math"

// MoveStats is what a finished search knows about one root move, for
// showing a person (the analyse command) rather than for training.
type MoveStats struct {
	// Move is the policy index of the move.
	Move int
	// Visits counts the playouts through the move (reused visits
	// included).
	Visits int
	// Prior is the move's prior in the search: the network's after the
	// policy temperature (PolicyTemp), root noise included.
	Prior float32
	// Q is the move's mean value for the side to move at the root, in
	// [-1, 1]; its proven value when Proven; NaN when it has neither.
	Q float32
	// Proven reports that the solver proved the move's value (Q).
	Proven bool
}

// RootStats appends the statistics of every root move of slot i's finished
// search to buf[:0], in the order of Result.Moves (nil when the slot has no
// finished search or the game is over at its root).
func (s *Searcher) RootStats(i int, buf []MoveStats) []MoveStats {
	buf = buf[:0]
	if s.Result(i) == nil {
		return buf
	}
	t := &s.slots[i].tree
	root := t.root()
	for k := root.first; k < root.first+root.nChild && root.state == stateExpanded; k++ {
		ch := t.at(k)
		ms := MoveStats{Move: int(ch.move), Visits: int(ch.n), Prior: ch.prior, Q: float32(math.NaN())}
		switch {
		case ch.solved:
			ms.Q, ms.Proven = -ch.sv, true
		case ch.n > 0:
			ms.Q = float32(ch.w / float64(ch.n))
		}
		buf = append(buf, ms)
	}
	return buf
}

// PV appends to buf[:0] the principal variation of slot i's finished
// search, at most max moves (policy indices): the move the search chose,
// then at each node below it the move that keeps a proven value (a move
// that ends the game preferred), or else the most visited move (ties: the
// better mean value), for as long as the tree goes.
func (s *Searcher) PV(i int, max int, buf []int) []int {
	buf = buf[:0]
	r := s.Result(i)
	if r == nil || r.Move < 0 || max < 1 {
		return buf
	}
	t := &s.slots[i].tree
	c := t.rootChild(r.Move)
	for c >= 0 && len(buf) < max {
		buf = append(buf, int(t.at(c).move))
		c = t.pvChild(c)
	}
	return buf
}

// pvChild returns the child of node i that the principal variation
// follows, or -1 when i has none.
func (t *tree) pvChild(i int32) int32 {
	nd := t.at(i)
	if nd.state != stateExpanded || nd.nChild == 0 {
		return -1
	}
	best := int32(-1)
	better := func(a, b *node) bool { // is a a better PV move than b?
		if nd.solved {
			ka, kb := a.solved && -a.sv == nd.sv, b.solved && -b.sv == nd.sv
			if ka != kb {
				return ka
			}
			if ta, tb := ka && a.state == stateTerminal, kb && b.state == stateTerminal; ta != tb {
				return ta
			}
		}
		if a.n != b.n {
			return a.n > b.n
		}
		return a.n > 0 && a.w/float64(a.n) > b.w/float64(b.n)
	}
	for k := nd.first; k < nd.first+nd.nChild; k++ {
		if best < 0 || better(t.at(k), t.at(best)) {
			best = k
		}
	}
	if ch := t.at(best); ch.n == 0 && !ch.solved {
		return -1
	}
	return best
}

// TreeSize is the number of nodes in slot i's search tree, the figure the
// node budget (Config.NodeBudget) bounds; 0 for a slot out of range.
func (s *Searcher) TreeSize(i int) int {
	if i < 0 || i >= len(s.slots) {
		return 0
	}
	return s.slots[i].tree.used
}
