package mcts

import (
	"fmt"
	"math"
	"math/rand/v2"

	"bomberzero/eval"
)

// Searcher runs the searches of a fixed number of game slots together, so
// that every evaluator call gets one batch of leaves from all of them. A
// Searcher is not safe for concurrent use: run one per worker goroutine,
// each with its own evaluator.
type Searcher struct {
	cfg       Config
	ev        eval.Evaluator
	gev       GameEvaluator // ev, when it values games rather than planes
	shape     eval.Shape
	batch     *eval.Batch
	capacity  int
	slots     []slot
	leaves    []leaf // one per batch entry
	leafGames []Game // one scratch game per batch entry, cloned on first use
	cache     *Cache
	rng       *rand.Rand
	next      int   // slot the next Step starts collecting from
	done      []int // slots whose search finished in the last Step
	progress  int   // playouts completed in the last Step
	noise     []float64
	values    []float64 // the root moves' mean values, for the move choice
	priors    []float32
	probe     Game // scratch game for the solver's look at children
	calls     int
	budget    int // the most nodes a tree grows to (Config.NodeBudget)
}

// leaf is a batch entry waiting for its evaluation.
type leaf struct {
	slot  int32
	node  int32
	hash  uint64
	moves []int
}

// slot is one game and the state of its current search.
type slot struct {
	tree     tree
	game     Game // the position at the root
	ply      int
	active   bool // holds a game
	started  bool // its current search has begun
	ready    bool // its current search is finished and Result is valid
	full     bool
	noise    bool // this search adds root noise
	forced   bool // this search forces playouts at the root and prunes its target (Config.ForcedPlayouts)
	noised   bool // the noise is in the root priors
	gumbelOn bool // the Gumbel root state is initialized for this search
	target   int
	sims     int
	inflight int
	pending  int  // children the leaves in flight will add to the tree
	treeFull bool // the tree reached the node budget: the search ends
	gumbel   gumbelRoot
	result   Result
	// seeded: the slot draws from its own stream rng (Seed) rather than
	// the searcher's, so that its game does not depend on the others.
	seeded bool
	pcg    *rand.PCG
	rng    *rand.Rand
}

// NewSearcher returns a Searcher with room for games game slots that
// evaluates its leaves with ev, in batches of at most
// min(games*cfg.LeavesPerGame, ev.MaxBatch()) positions.
func NewSearcher(cfg Config, ev eval.Evaluator, games int) (*Searcher, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("mcts: %w", err)
	}
	if games < 1 {
		return nil, fmt.Errorf("mcts: %d game slots, want >= 1", games)
	}
	shape := ev.Shape()
	if err := shape.Validate(); err != nil {
		return nil, fmt.Errorf("mcts: evaluator: %w", err)
	}
	if ev.MaxBatch() < 1 {
		return nil, fmt.Errorf("mcts: evaluator accepts batches of %d, want >= 1", ev.MaxBatch())
	}
	capacity := min(games*cfg.LeavesPerGame, ev.MaxBatch())
	s := &Searcher{
		cfg:       cfg,
		ev:        ev,
		shape:     shape,
		batch:     eval.NewBatch(shape, capacity),
		capacity:  capacity,
		slots:     make([]slot, games),
		leaves:    make([]leaf, capacity),
		leafGames: make([]Game, capacity),
		rng:       rand.New(rand.NewPCG(cfg.Seed, 0x6d637473)),
		budget:    cfg.NodeBudget(),
	}
	s.gev, _ = ev.(GameEvaluator)
	if cfg.CacheEntries > 0 {
		c, err := NewCache(cfg.CacheEntries, cfg.CacheMoves)
		if err != nil {
			return nil, err
		}
		s.cache = c
	}
	return s, nil
}

// Games returns the number of game slots.
func (s *Searcher) Games() int { return len(s.slots) }

// Cache returns the evaluation cache, or nil when it is off.
func (s *Searcher) Cache() *Cache { return s.cache }

// Calls returns the number of evaluator calls made so far.
func (s *Searcher) Calls() int { return s.calls }

func (s *Searcher) slot(i int) (*slot, error) {
	if i < 0 || i >= len(s.slots) {
		return nil, fmt.Errorf("mcts: slot %d out of range [0, %d)", i, len(s.slots))
	}
	return &s.slots[i], nil
}

// Reset puts a copy of g into slot i at ply 0 with an empty tree; its
// search starts on the next Step. Every game given to one Searcher must
// have the same concrete type (copies are made with CopyFrom).
func (s *Searcher) Reset(i int, g Game) error {
	return s.ResetAt(i, g, 0)
}

// ResetAt is Reset for a game already ply plies old (the temperature
// schedule counts from the game's start).
func (s *Searcher) ResetAt(i int, g Game, ply int) error {
	sl, err := s.slot(i)
	if err != nil {
		return err
	}
	if sl.game == nil {
		sl.game = g.Clone()
	} else {
		sl.game.CopyFrom(g)
	}
	sl.tree.reset()
	sl.ply = ply
	sl.seeded = false
	sl.active, sl.started, sl.ready = true, false, false
	return nil
}

// Seed gives slot i's game, from its last Reset on, its own random stream
// seeded by seed, for every draw its searches make (the cheap or full
// choice, root noise, tie-breaks, the Gumbel root, the move's sampling):
// a seeded game's moves then depend on seed and the evaluator alone, not
// on the other slots' games nor on the order the slots are filled in (with
// leaves_per_game 1 and an evaluator whose values do not depend on the
// batch). An unseeded slot draws from the searcher's stream (Config.Seed).
func (s *Searcher) Seed(i int, seed uint64) error {
	sl, err := s.slot(i)
	if err != nil {
		return err
	}
	if sl.pcg == nil {
		sl.pcg = rand.NewPCG(seed, slotStream)
		sl.rng = rand.New(sl.pcg)
	} else {
		sl.pcg.Seed(seed, slotStream)
	}
	sl.seeded = true
	return nil
}

// slotStream is the second word of a seeded slot's PCG state.
const slotStream = 0x736c6f74

// rand returns the random stream slot sl draws from.
func (s *Searcher) rand(sl *slot) *rand.Rand {
	if sl.seeded {
		return sl.rng
	}
	return s.rng
}

// Clear empties slot i: Step leaves it alone until the next Reset.
func (s *Searcher) Clear(i int) error {
	sl, err := s.slot(i)
	if err != nil {
		return err
	}
	sl.active, sl.started, sl.ready = false, false, false
	return nil
}

// Result returns the result of slot i's finished search, or nil while it
// has none. It stays valid until the slot's next Play or Reset.
func (s *Searcher) Result(i int) *Result {
	if i < 0 || i >= len(s.slots) || !s.slots[i].ready {
		return nil
	}
	return &s.slots[i].result
}

// Play makes move (a policy index) in slot i's game after its search has
// finished, keeps the move's subtree for the next search when cfg.Reuse is
// on (PUCT only), and lets the next Step start the next search.
func (s *Searcher) Play(i int, move int) error {
	sl, err := s.slot(i)
	if err != nil {
		return err
	}
	if !sl.active {
		return fmt.Errorf("mcts: slot %d holds no game", i)
	}
	if sl.started && !sl.ready {
		return fmt.Errorf("mcts: slot %d: search in progress", i)
	}
	t := &sl.tree
	c := int32(-1)
	if t.root().state == stateExpanded {
		if c = t.rootChild(move); c < 0 {
			return fmt.Errorf("mcts: slot %d: move %d is not legal here", i, move)
		}
	}
	sl.game.Play(move)
	sl.ply++
	if c >= 0 && s.cfg.Reuse && !s.cfg.Gumbel {
		t.reroot(c)
	} else {
		t.reset()
	}
	sl.started, sl.ready = false, false
	return nil
}

// Ply returns the number of plies played in slot i's game (-1 for a slot
// out of range).
func (s *Searcher) Ply(i int) int {
	if i < 0 || i >= len(s.slots) {
		return -1
	}
	return s.slots[i].ply
}

// Game returns slot i's current position, owned by the Searcher: do not
// modify it (nil for a slot out of range or never Reset).
func (s *Searcher) Game(i int) Game {
	if i < 0 || i >= len(s.slots) {
		return nil
	}
	return s.slots[i].game
}

// SearchAll runs Step until every slot holding a game has a finished
// search, for callers that move all games in lockstep.
func (s *Searcher) SearchAll() error {
	for {
		searching := false
		for i := range s.slots {
			if s.slots[i].active && !s.slots[i].ready {
				searching = true
			}
		}
		if !searching {
			return nil
		}
		done, err := s.Step()
		if err != nil {
			return err
		}
		if len(done) == 0 && s.progress == 0 {
			return fmt.Errorf("mcts: search made no progress")
		}
	}
}

// Step advances every searching slot: each adds up to cfg.LeavesPerGame
// leaves to one batch (positions that are terminal or found in the cache
// are backed up at once and the slot continues), the evaluator values the
// batch in one call, and the values are backed up. It returns the slots
// whose search finished (the slice is reused by the next Step); read their
// Result and Play a move (or Reset or Clear them) before the next Step.
func (s *Searcher) Step() ([]int, error) {
	s.done = s.done[:0]
	s.progress = 0
	n := 0
	last := s.next - 1
	for k := 0; k < len(s.slots) && n < s.capacity; k++ {
		i := (s.next + k) % len(s.slots)
		last = i
		sl := &s.slots[i]
		if !sl.active || sl.ready {
			continue
		}
		if !sl.started {
			s.start(sl)
		}
		var err error
		if n, err = s.collect(i, n); err != nil {
			return nil, err
		}
	}
	s.next = (last + 1) % len(s.slots)
	if n > 0 {
		if err := s.evaluate(n); err != nil {
			return nil, err
		}
	}
	for i := range s.slots {
		sl := &s.slots[i]
		if sl.active && sl.started && !sl.ready && s.finished(sl) {
			s.finish(i)
		}
	}
	return s.done, nil
}

// start begins slot sl's next search: full or cheap, with or without root
// noise.
func (s *Searcher) start(sl *slot) {
	sl.started = true
	sl.sims, sl.inflight, sl.pending = 0, 0, 0
	sl.treeFull = false
	sl.gumbelOn, sl.noised = false, false
	sl.full = true
	if s.cfg.CheapShare > 0 && s.rand(sl).Float64() < s.cfg.CheapShare {
		sl.full = false
	}
	sl.target = s.cfg.Sims
	if !sl.full {
		sl.target = s.cfg.CheapSims
	}
	sl.noise = sl.full && !s.cfg.Gumbel && s.cfg.NoiseFraction > 0
	sl.forced = sl.full && !s.cfg.Gumbel && s.cfg.ForcedPlayouts > 0
	if sl.tree.root().state == stateExpanded {
		s.rootExpanded(sl)
	}
}

// rootExpanded adds the root noise once the root of sl has children.
func (s *Searcher) rootExpanded(sl *slot) {
	if !sl.noise || sl.noised {
		return
	}
	sl.noised = true
	t := &sl.tree
	root := t.root()
	n := int(root.nChild)
	if n < 2 {
		return
	}
	s.noise = resizeF(s.noise, n)
	dirichlet(s.rand(sl), s.cfg.DirichletTotal/float64(n), s.noise)
	eps := s.cfg.NoiseFraction
	for k := 0; k < n; k++ {
		ch := t.at(root.first + int32(k))
		ch.prior = float32((1-eps)*float64(ch.prior) + eps*s.noise[k])
	}
}

// rootSettled reports whether sl's search needs no more playouts whatever
// its budget: the game is over at the root, or only one move is legal.
func rootSettled(sl *slot) bool {
	root := sl.tree.root()
	return root.state == stateTerminal || root.solved || (root.state == stateExpanded && root.nChild == 1)
}

// finished reports whether sl's search is complete.
func (s *Searcher) finished(sl *slot) bool {
	return sl.inflight == 0 && (sl.sims >= sl.target || sl.treeFull || rootSettled(sl))
}

// collect adds slot i's leaves to the batch from entry n on and returns the
// next free entry.
func (s *Searcher) collect(i, n int) (int, error) {
	sl := &s.slots[i]
	t := &sl.tree
	for queued := 0; queued < s.cfg.LeavesPerGame && n < s.capacity; {
		if sl.sims+sl.inflight >= sl.target || sl.treeFull || rootSettled(sl) {
			break
		}
		if s.leafGames[n] == nil {
			s.leafGames[n] = sl.game.Clone()
		}
		g := s.leafGames[n]
		g.CopyFrom(sl.game)
		idx := s.descend(sl, g)
		if idx < 0 || t.at(idx).state == statePending {
			break // wait for the leaves in flight
		}
		if nd := t.at(idx); nd.state == stateTerminal || nd.solved {
			v := nd.value
			if nd.solved {
				v = nd.sv
			}
			t.backup(idx, float64(v), 0)
			sl.sims++
			s.progress++
			continue
		}
		if over, v := g.Status(); over {
			t.markTerminal(idx, v, s.cfg.Solver)
			if s.cfg.Solver {
				t.propagate(t.at(idx).parent)
			}
			t.backup(idx, float64(v), 0)
			sl.sims++
			s.progress++
			continue
		}
		lf := &s.leaves[n]
		lf.moves = g.LegalMoves(lf.moves[:0])
		if len(lf.moves) == 0 {
			return n, fmt.Errorf("mcts: slot %d: position %#x has no legal moves but is not over", i, g.Hash())
		}
		if idx != 0 && t.nodes.span()+2*(sl.pending+len(lf.moves)) > s.budget {
			// No room for this leaf's children and those in flight
			// (each group may skip a block tail shorter than itself):
			// the tree is as large as it may grow, and the search ends
			// with what it has.
			sl.treeFull = true
			break
		}
		lf.hash = g.Hash()
		if s.cache != nil {
			if v, pri, ok := s.cache.Get(lf.hash, len(lf.moves)); ok {
				t.expand(idx, lf.moves, pri, v)
				if idx == 0 {
					s.rootExpanded(sl)
				}
				t.backup(idx, s.solveChildren(t, idx, g, v), 0)
				sl.sims++
				s.progress++
				continue
			}
		}
		legal := s.batch.Legal[n*s.shape.PolicySize : (n+1)*s.shape.PolicySize]
		clear(legal)
		for _, m := range lf.moves {
			if m < 0 || m >= s.shape.PolicySize {
				return n, fmt.Errorf("mcts: slot %d: legal move index %d outside the policy size %d", i, m, s.shape.PolicySize)
			}
			legal[m] = 1
		}
		if s.gev == nil {
			in := s.shape.InputSize()
			g.Encode(s.batch.Planes[n*in : (n+1)*in])
		}
		t.at(idx).state = statePending
		t.addVirtual(idx, int32(s.cfg.VirtualLoss))
		lf.slot, lf.node = int32(i), idx
		sl.inflight++
		sl.pending += len(lf.moves)
		n++
		queued++
	}
	return n, nil
}

// descend walks sl's tree from the root to a node that is not expanded,
// playing the moves on g, and returns it; -1 means the Gumbel root must
// wait for the leaves in flight.
func (s *Searcher) descend(sl *slot, g Game) int32 {
	t := &sl.tree
	idx := int32(0)
	for t.at(idx).state == stateExpanded && !t.at(idx).solved {
		var c int32
		switch {
		case idx == 0 && s.cfg.Gumbel:
			if !sl.gumbelOn {
				sl.gumbel.start(t, &s.cfg, s.rand(sl), sl.target-sl.sims-sl.inflight)
				sl.gumbelOn = true
			}
			if c = sl.gumbel.pick(t, &s.cfg, sl.inflight, sl.target-sl.sims-sl.inflight); c < 0 {
				return -1
			}
		case idx == 0:
			if c = -1; sl.forced {
				c = t.forcedChild(s.cfg.ForcedPlayouts, s.rand(sl))
			}
			if c < 0 {
				c = t.pickPUCT(&s.cfg, idx, s.cfg.RootFPUReduction, s.rand(sl))
			}
		default:
			c = t.pickPUCT(&s.cfg, idx, s.cfg.FPUReduction, s.rand(sl))
		}
		g.Play(int(t.at(c).move))
		idx = c
	}
	return idx
}

// evaluate values the first n batch entries with one evaluator call,
// expands their nodes and backs their values up.
func (s *Searcher) evaluate(n int) error {
	b := s.batch
	b.Size = n
	var err error
	if s.gev != nil {
		err = s.gev.EvaluateGames(s.leafGames[:n], b)
	} else {
		err = s.ev.Evaluate(b)
	}
	s.calls++
	if err != nil {
		return fmt.Errorf("mcts: evaluating %d positions: %w", n, err)
	}
	ps := s.shape.PolicySize
	for j := 0; j < n; j++ {
		lf := &s.leaves[j]
		sl := &s.slots[lf.slot]
		t := &sl.tree
		wdl := b.WDL[3*j : 3*j+3]
		v := wdl[0] - wdl[2]
		if math.IsNaN(float64(v)) || v < -1.001 || v > 1.001 {
			return fmt.Errorf("mcts: evaluator gave batch entry %d the value %g (WDL %v), want a number in [-1, 1]", j, v, wdl)
		}
		if w := s.cfg.LeafMaterialMix; w > 0 {
			q, ok := s.leafGames[j].(Quiescer)
			if !ok {
				return fmt.Errorf("mcts: leaf_material_mix = %g needs games that report their quiescent material (mcts.Quiescer); %T does not", w, s.leafGames[j])
			}
			v = float32((1-w)*float64(v) + w*math.Tanh(q.Quiescence()/s.cfg.LeafMaterialScale))
		}
		pri := s.priorsOf(b.Policy[j*ps:(j+1)*ps], lf.moves)
		t.expand(lf.node, lf.moves, pri, v)
		if s.cache != nil {
			s.cache.Put(lf.hash, v, pri)
		}
		if lf.node == 0 {
			s.rootExpanded(sl)
		}
		t.backup(lf.node, s.solveChildren(t, lf.node, s.leafGames[j], v), int32(s.cfg.VirtualLoss))
		sl.inflight--
		sl.pending -= len(lf.moves)
		sl.sims++
		s.progress++
	}
	return nil
}

// solveChildren is the MCTS-solver's step at the expansion of node i, whose
// position is g and whose evaluator value is v: it marks the children where
// the game is over as terminal and solved, propagates what they prove, and
// returns the value to back up (the proven value once i is solved, else
// v). With the solver off it returns v.
func (s *Searcher) solveChildren(t *tree, i int32, g Game, v float32) float64 {
	if !s.cfg.Solver {
		return float64(v)
	}
	la, _ := g.(Lookahead)
	nd := t.at(i)
	found := false
	for k := nd.first; k < nd.first+nd.nChild; k++ {
		move := int(t.at(k).move)
		var over bool
		var cv float32
		if la != nil {
			over, cv = la.StatusAfter(move)
		} else {
			if s.probe == nil {
				s.probe = g.Clone()
			}
			s.probe.CopyFrom(g)
			s.probe.Play(move)
			over, cv = s.probe.Status()
		}
		if over {
			t.markTerminal(k, cv, true)
			found = true
		}
	}
	if found {
		t.propagate(i)
	}
	if nd := t.at(i); nd.solved {
		return float64(nd.sv)
	}
	return float64(v)
}

// priorsOf returns the policy's probabilities of moves, renormalized to
// sum to 1 (uniform when the policy gives them nothing usable), each
// raised to 1/PolicyTemp first when the temperature is set. The slice is
// reused by the next call.
func (s *Searcher) priorsOf(policy []float32, moves []int) []float32 {
	if cap(s.priors) < len(moves) {
		s.priors = make([]float32, len(moves))
	}
	pri := s.priors[:len(moves)]
	sum, top := float32(0), float32(0)
	for k, m := range moves {
		p := policy[m]
		if !(p > 0) || math.IsInf(float64(p), 1) { // negatives and NaN count as 0
			p = 0
		}
		pri[k] = p
		sum += p
		top = max(top, p)
	}
	if t := s.cfg.PolicyTemp; t > 0 && t != 1 && top > 0 {
		sum = powRatios(pri, 1/t)
	}
	for k := range pri {
		if sum > 0 {
			pri[k] /= sum
		} else {
			pri[k] = 1 / float32(len(pri))
		}
	}
	return pri
}

// powRatios raises each entry of p to e as a ratio to the largest, so
// that no exponent overflows or underflows every entry to 0, and returns
// the new sum (0, p left as it is, when no entry is positive). Entries
// that are not positive become 0. The policy temperature uses it both ways:
// to temper the priors (e = 1/T) and to recover the network's from them
// (e = T).
func powRatios[F float32 | float64](p []F, e float64) (sum F) {
	top := F(0)
	for _, x := range p {
		top = max(top, x)
	}
	if !(top > 0) {
		return 0
	}
	for k, x := range p {
		if x > 0 {
			x = F(math.Pow(float64(x/top), e))
		} else {
			x = 0
		}
		p[k] = x
		sum += x
	}
	return sum
}

// finish fills slot i's Result and marks it ready.
func (s *Searcher) finish(i int) {
	sl := &s.slots[i]
	t := &sl.tree
	r := &sl.result
	root := t.root()
	r.Full, r.Sims, r.TreeFull = sl.full, sl.sims, sl.treeFull
	r.Moves, r.Policy = r.Moves[:0], r.Policy[:0]
	sl.ready = true
	s.done = append(s.done, i)
	if root.state == stateTerminal {
		r.Move, r.Value = -1, root.value
		return
	}
	r.Value = float32(-root.w / float64(root.n))
	for k := int32(0); k < root.nChild; k++ {
		r.Moves = append(r.Moves, int(t.at(root.first+k).move))
	}
	r.Proven = root.solved
	if root.solved && root.sv > -1 {
		s.finishSolved(sl, r)
		return
	}
	if root.solved {
		r.Value = root.sv
	}
	if sl.gumbelOn {
		if cap(r.Policy) < len(r.Moves) {
			r.Policy = make([]float32, len(r.Moves))
		}
		r.Policy = r.Policy[:len(r.Moves)]
		r.Value = float32(sl.gumbel.improvedPolicy(t, &s.cfg, r.Policy))
		if root.solved {
			r.Value = root.sv
		}
		r.Move = r.Moves[sl.gumbel.choice(t, &s.cfg)]
		return
	}
	if sl.forced {
		prunedPolicy(t, &s.cfg, r)
	} else {
		visitPolicy(t, r)
	}
	maskLosses(t, r)
	temp := s.cfg.FinalTemp
	if sl.ply < s.cfg.TempPlies {
		temp = s.cfg.Temp
	}
	// The moves' mean values for the side to move break ties in visits
	// (an unvisited move has none).
	s.values = resizeF(s.values, len(r.Moves))
	for k := range s.values {
		ch := t.at(root.first + int32(k))
		s.values[k] = math.Inf(-1)
		if ch.n > 0 {
			s.values[k] = ch.w / float64(ch.n)
		}
		if ch.solved {
			s.values[k] = -float64(ch.sv)
		}
	}
	r.Move = r.Moves[sampleMove(r.Policy, s.values, temp, s.rand(sl).Float64())]
}

// finishSolved fills r for a root solved as a win or a draw (a value above
// -1): the value is the proven one, and the policy target puts all its
// mass, in equal shares, on the moves that achieve it, preferring moves
// that end the game at once (a mate in one over a longer proven mate); the
// move played is one of them, drawn uniformly.
func (s *Searcher) finishSolved(sl *slot, r *Result) {
	t := &sl.tree
	root := t.root()
	r.Value = root.sv
	children := t.children(root)
	best := func(ch *node) bool { return ch.solved && -ch.sv == root.sv }
	terminal := false
	for k := range children {
		if best(&children[k]) && children[k].state == stateTerminal {
			terminal = true
		}
	}
	count := 0
	for k := range children {
		ch := &children[k]
		if best(ch) && (!terminal || ch.state == stateTerminal) {
			count++
		}
	}
	pick := min(int(s.rand(sl).Float64()*float64(count)), count-1)
	for k := range children {
		ch := &children[k]
		p := float32(0)
		if best(ch) && (!terminal || ch.state == stateTerminal) {
			p = 1 / float32(count)
			if pick == 0 {
				r.Move = int(ch.move)
			}
			pick--
		}
		r.Policy = append(r.Policy, p)
	}
}
