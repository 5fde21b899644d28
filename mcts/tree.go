package mcts

// node states.
const (
	stateNew      uint8 = iota // never evaluated
	statePending               // in the batch, waiting for its evaluation
	stateExpanded              // evaluated, children created
	stateTerminal              // the game is over here
)

// node is one position in a search tree. Children of a node are stored
// contiguously in the tree's arena, from first to first+nChild-1.
type node struct {
	w      float64 // sum of backed-up values, for the player who moved into this node
	parent int32   // -1 at the root
	first  int32   // first child, valid when nChild > 0
	nChild int32
	move   int32   // policy index of the move that leads here
	n      int32   // completed visits
	vl     int32   // virtual visits of leaves in flight below (and at) this node
	prior  float32 // prior probability of the move that leads here
	value  float32 // evaluator's value (or terminal value) for the side to move here
	sv     float32 // the proven value for the side to move here, when solved
	state  uint8
	solved bool // the game-theoretic value sv is known (MCTS-solver)
}

// provenLoss reports whether n is solved as a win for its side to move,
// that is a proven loss for the player who moves into it.
func (n *node) provenLoss() bool { return n.solved && n.sv >= 1 }

// q returns the mean value of n for the player who moved into it, counting
// each virtual visit as a loss.
func (n *node) q() float64 {
	return (n.w - float64(n.vl)) / (float64(n.n) + float64(n.vl))
}

// provenQ is q with a proven value in its place: the exact value of a
// solved node for the player who moved into it, q otherwise (which needs a
// visit, real or virtual).
func (n *node) provenQ() float64 {
	if n.solved {
		return -float64(n.sv)
	}
	return n.q()
}

// tree is one game's search tree: a node arena with the root at index 0,
// and a spare arena that rerooting compacts into. Both keep their blocks,
// so a tree stops allocating once it has reached its largest size.
type tree struct {
	nodes arena
	spare arena
	used  int // nodes in the tree
}

// at returns node i.
func (t *tree) at(i int32) *node { return t.nodes.at(i) }

// children returns the children of nd, a node of t.
func (t *tree) children(nd *node) []node { return t.nodes.group(nd.first, nd.nChild) }

// reset empties the tree down to one new root.
func (t *tree) reset() {
	t.nodes.reset()
	*t.nodes.at(t.nodes.alloc(1)) = node{parent: -1, move: -1}
	t.used = 1
}

// root returns the root node.
func (t *tree) root() *node { return t.nodes.at(0) }

// rootChild returns the index of the child of the root reached by move, or -1.
func (t *tree) rootChild(move int) int32 {
	r := t.root()
	for k, ch := range t.children(r) {
		if int(ch.move) == move {
			return r.first + int32(k)
		}
	}
	return -1
}

// expand gives node i one child per move with the priors given in the same
// order (already normalized) and records its evaluator value.
func (t *tree) expand(i int32, moves []int, priors []float32, value float32) {
	first := t.nodes.alloc(len(moves))
	children := t.nodes.group(first, int32(len(moves)))
	for k, m := range moves {
		children[k] = node{parent: i, move: int32(m), prior: priors[k]}
	}
	t.used += len(moves)
	nd := t.at(i)
	nd.first = first
	nd.nChild = int32(len(moves))
	nd.value = value
	nd.state = stateExpanded
}

// addVirtual adds v virtual visits to every node from i up to the root.
func (t *tree) addVirtual(i int32, v int32) {
	for i >= 0 {
		nd := t.at(i)
		nd.vl += v
		i = nd.parent
	}
}

// backup adds one visit with value v (for the side to move at node i) to
// every node from i up to the root, removing vl virtual visits on the way.
func (t *tree) backup(i int32, v float64, vl int32) {
	val := -v // for the player who moved into node i
	for i >= 0 {
		nd := t.at(i)
		nd.n++
		nd.w += val
		nd.vl -= vl
		val = -val
		i = nd.parent
	}
}

// reroot makes node c the new root, keeping its subtree with all its
// statistics and discarding the rest. Children stay contiguous: the subtree
// is copied breadth first into the spare arena, which then becomes the
// arena. A copied node's first still names its children's first index in
// the old arena until the walk reaches it and copies them.
func (t *tree) reroot(c int32) {
	src, dst := &t.nodes, &t.spare
	dst.reset()
	r := dst.alloc(1)
	*dst.at(r) = *src.at(c)
	dst.at(r).parent = -1
	t.used = 1
	for i := range dst.all() {
		nd := dst.at(i)
		if nd.nChild == 0 {
			continue
		}
		first := dst.alloc(int(nd.nChild))
		kids := dst.group(first, nd.nChild)
		copy(kids, src.group(nd.first, nd.nChild))
		for k := range kids {
			kids[k].parent = i
		}
		nd.first = first // blocks never move: nd is still node i
		t.used += len(kids)
	}
	t.nodes, t.spare = t.spare, t.nodes
}

// markTerminal records that node i is a position where the game is over,
// worth v for its side to move; with solve, it is also solved at v.
func (t *tree) markTerminal(i int32, v float32, solve bool) {
	nd := t.at(i)
	nd.state, nd.value = stateTerminal, v
	if solve {
		nd.solved, nd.sv = true, v
	}
}

// propagate solves node i, and then its ancestors in turn, where its
// children's proven values decide it (MCTS-solver, Winands et al. 2008):
// a node is worth the best of its children's values for its side to move
// once a child is proven to give the best value there is (a win, +1), or
// once every child is proven. It stops at the first ancestor that stays
// open.
func (t *tree) propagate(i int32) {
	for ; i >= 0; i = t.at(i).parent {
		nd := t.at(i)
		if nd.solved || nd.state != stateExpanded {
			return
		}
		best, open := float32(-2), false
		kids := t.children(nd)
		for k := range kids {
			ch := &kids[k]
			if !ch.solved {
				open = true
				continue
			}
			best = max(best, -ch.sv)
		}
		if best < 1 && open {
			return
		}
		nd.solved, nd.sv = true, best
	}
}
