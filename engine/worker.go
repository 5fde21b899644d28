package engine

import (
	"time"

	"bomberzero/env"
)

// frame is what a node leaves for its children.
type frame struct {
	move   env.Move  // the move being searched from this node (NoMove: the null move)
	piece  env.Piece // the piece that makes it
	static int32     // the node's static evaluation (-Infinite in check)
}

// pollEvery is how many nodes a thread visits between looks at the clock
// and the caller's context: well under a millisecond of work.
const pollEvery = 1024

// worker is one search thread: its own copy of the position, its move
// buffers and principal variations, and its move order statistics.
type worker struct {
	e    *Engine
	id   int
	eval Evaluator
	lazy WindowEvaluator // eval, when it evaluates lazily; else nil
	// cls is eval when it is the classical evaluation, whose material and
	// piece-square terms ps the thread keeps on make and unmake; else nil.
	cls   *Classical
	ps    psqState
	value []int32
	pos   *env.Position
	s     *shared

	nodes, flushed int64
	seldepth       int
	maxDepth       int
	soft           time.Duration
	report         func(Info)
	result         Result
	rootBest       env.Move
	rootScore      int32
	multiPV        int        // lines the main thread searches
	excluded       []env.Move // root moves of the lines found at this depth
	// leaf marks a Leaf's thread: its quiescence search neither reads nor
	// writes the table, so a score depends on the position alone.
	leaf bool

	moves   [MaxPly + 1][]env.Move
	keys    [MaxPly + 1][]int64
	bad     [MaxPly + 1][]env.Move // a node's losing captures, kept by its picker
	badKeys [MaxPly + 1][]int64
	scratch []env.Move // IsLegal's working space
	quiets  [MaxPly + 1][]env.Move
	stack   [MaxPly + 2]frame
	pv      [MaxPly + 1][MaxPly + 1]env.Move
	pvLen   [MaxPly + 1]int
	killers [MaxPly + 1][2]env.Move
	counter [32][maxSquares]env.Move
	history *[2][maxSquares][maxSquares]int32
}

// newWorker returns thread id of engine e.
func newWorker(e *Engine, id int, ev Evaluator) *worker {
	w := &worker{e: e, id: id, eval: ev, value: e.value, history: new([2][maxSquares][maxSquares]int32)}
	w.lazy, _ = ev.(WindowEvaluator)
	w.cls, _ = ev.(*Classical)
	for i := range w.moves {
		w.moves[i] = make([]env.Move, env.MaxMoves)
		w.keys[i] = make([]int64, env.MaxMoves)
		w.quiets[i] = make([]env.Move, 0, 64)
		w.bad[i] = make([]env.Move, 0, 64)
		w.badKeys[i] = make([]int64, 0, 64)
	}
	w.scratch = make([]env.Move, 0, env.MaxMoves)
	return w
}

// clearHistory forgets the move order statistics.
func (w *worker) clearHistory() {
	*w.history = [2][maxSquares][maxSquares]int32{}
	w.counter = [32][maxSquares]env.Move{}
	w.killers = [MaxPly + 1][2]env.Move{}
}

// reset prepares the thread for a search of pos, copying it into the
// thread's own position (its storage reused once made).
func (w *worker) reset(pos *env.Position, s *shared, maxDepth int, soft time.Duration, report func(Info)) {
	if w.pos == nil {
		w.pos = pos.Clone()
	} else {
		w.pos.CopyFrom(pos)
	}
	if w.cls != nil {
		w.ps = w.cls.stateOf(w.pos)
	}
	w.s, w.maxDepth, w.soft, w.report = s, maxDepth, soft, report
	w.nodes, w.flushed, w.seldepth = 0, 0, 0
	w.result = Result{}
	w.rootBest = env.NoMove
	w.excluded = w.excluded[:0]
	w.killers = [MaxPly + 1][2]env.Move{}
	w.stack[0] = frame{static: -Infinite}
}

// visit counts a node and says whether the search must stop.
func (w *worker) visit() bool {
	if w.s.stop.Load() {
		return true // a stopped search visits nothing more
	}
	w.nodes++
	if w.nodes&(pollEvery-1) == 0 {
		w.poll()
	}
	if lim := w.s.nodeLimit; lim > 0 && len(w.e.workers) == 1 && w.nodes >= lim {
		w.s.stop.Store(true)
	}
	return w.s.stop.Load()
}

// stopped says whether the search is stopping.
func (w *worker) stopped() bool { return w.s.stop.Load() }

// poll looks at the caller's context, the clock and the threads' node
// count, and stops the search when one of them says so.
func (w *worker) poll() {
	total := w.s.nodes.Add(w.nodes - w.flushed)
	w.flushed = w.nodes
	switch {
	case w.s.ctx.Err() != nil:
	case w.s.hard > 0 && time.Since(w.s.start) >= w.s.hard:
	case w.s.nodeLimit > 0 && total >= w.s.nodeLimit:
	default:
		return
	}
	w.s.stop.Store(true)
}

// evaluate returns the static evaluation of the thread's position, exact
// inside (alpha, beta) and on the right side of the window outside it.
func (w *worker) evaluate(alpha, beta int32) int32 {
	if w.cls != nil {
		return w.cls.evaluateFrom(w.pos, &w.ps, alpha, beta)
	}
	if w.lazy != nil {
		return w.lazy.EvaluateWithin(w.pos, alpha, beta)
	}
	return w.eval.Evaluate(w.pos)
}

// doMove plays m in the thread's position and updates the incremental
// evaluation terms; it returns what undoMove needs.
func (w *worker) doMove(m env.Move) (env.Undo, psqState) {
	saved := w.ps
	u := w.pos.DoMove(m)
	w.e.tt.Prefetch(w.pos.Hash())
	if w.cls != nil {
		w.cls.applyMove(&w.ps, w.pos, m, &u)
	}
	return u, saved
}

// undoMove takes back the move doMove returned u and saved for.
func (w *worker) undoMove(u env.Undo, saved psqState) {
	w.pos.UndoMove(u)
	w.ps = saved
}
