package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"bomberzero/env"
)

// Options configure an Engine.
type Options struct {
	// HashMB is the transposition table's size in megabytes (0:
	// DefaultHashMB).
	HashMB int
	// Threads is the number of search threads (default 1; at most
	// MaxThreads). More than one searches in Lazy SMP: every thread
	// searches the root over the shared table, the helpers at staggered
	// depths.
	Threads int
	// Seed keys the tie order of equal moves: engines of different seeds
	// play different games.
	Seed uint64
	// Eval is the evaluation; nil is the classical one over Table with
	// DefaultWeights.
	Eval Evaluator
	// MultiPV is the number of best lines the search reports (default 1,
	// at most MaxMultiPV); each costs about one more search of the root.
	MultiPV int
	// Table is the piece values in centipawns by type index (as
	// agent.Values.Table gives); the move order and pruning margins read
	// it, and the classical evaluation counts it.
	Table []int32
}

// MaxThreads bounds Options.Threads.
const MaxThreads = 256

// MaxMultiPV bounds Options.MultiPV.
const MaxMultiPV = 256

// Engine searches positions of one variant. It keeps its table and move
// order statistics between searches (a game's moves help each other) and
// searches one position at a time.
type Engine struct {
	v       *env.Variant
	tt      *TT
	eval    Evaluator
	value   []int32
	key     uint64
	workers []*worker
	multiPV int
	mu      sync.Mutex // one search at a time
}

// Info is one finished iteration of a search, as engine protocols print it.
type Info struct {
	Depth, SelDepth int
	// MultiPV is the line's rank, 1 for the best.
	MultiPV int
	// Score is in centipawns for the side to move; IsMate and MateMoves
	// read a forced end.
	Score    int32
	Nodes    int64
	NPS      int64
	Time     time.Duration
	HashFull int // permille of the table the search has written
	PV       []env.Move
}

// Result is a search's answer.
type Result struct {
	// Move is the move to play: PV[0] when there is a PV.
	Move env.Move
	// Score, Depth, SelDepth and PV are those of the last iteration that
	// finished (Depth 0 if none did: a search stopped during its first),
	// except that when a stopped iteration had already found a move better
	// than that iteration's best, Move, Score and PV are that move's, its
	// score and line at the unfinished depth (Stockfish plays it too).
	Score           int32
	Depth, SelDepth int
	PV              []env.Move
	// Lines are the best lines, best first: one, or MultiPV of them (fewer
	// when the position has fewer moves); the first is always Score and PV,
	// the others the last finished iteration's.
	Lines []Line
	// Nodes counts the positions visited by all threads.
	Nodes int64
	Time  time.Duration
}

// Line is one of the best lines of a search: its score for the side to
// move and its principal variation.
type Line struct {
	Score int32
	PV    []env.Move
}

// New returns an engine for variant v.
func New(v *env.Variant, opt Options) (*Engine, error) {
	if v == nil {
		return nil, errors.New("engine: no variant")
	}
	if len(opt.Table) != len(v.Pieces) {
		return nil, fmt.Errorf("engine: piece table of %d types for variant %s with %d: want one value per type", len(opt.Table)-1, v.Name, len(v.Pieces)-1)
	}
	if opt.HashMB == 0 {
		opt.HashMB = DefaultHashMB
	}
	if opt.Threads == 0 {
		opt.Threads = 1
	}
	if opt.Threads < 1 || opt.Threads > MaxThreads {
		return nil, fmt.Errorf("engine: threads %d: want 1 to %d", opt.Threads, MaxThreads)
	}
	if opt.MultiPV == 0 {
		opt.MultiPV = 1
	}
	if opt.MultiPV < 1 || opt.MultiPV > MaxMultiPV {
		return nil, fmt.Errorf("engine: multipv %d: want 1 to %d", opt.MultiPV, MaxMultiPV)
	}
	tt, err := NewTT(opt.HashMB)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	ev := opt.Eval
	if ev == nil {
		if ev, err = NewClassical(v, opt.Table, DefaultWeights()); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
	}
	e := &Engine{v: v, tt: tt, eval: ev, multiPV: opt.MultiPV, value: append([]int32(nil), opt.Table...), key: mix64(opt.Seed ^ 0x656e67696e65)}
	for i := 0; i < opt.Threads; i++ {
		ev := e.eval
		if i > 0 {
			ev = ev.Fork()
		}
		e.workers = append(e.workers, newWorker(e, i, ev))
	}
	return e, nil
}

// Variant returns the variant the engine plays.
func (e *Engine) Variant() *env.Variant { return e.v }

// Threads returns the number of search threads.
func (e *Engine) Threads() int { return len(e.workers) }

// SetMultiPV sets the number of best lines later searches report (1 to
// MaxMultiPV).
func (e *Engine) SetMultiPV(n int) error {
	if n < 1 || n > MaxMultiPV {
		return fmt.Errorf("engine: multipv %d: want 1 to %d", n, MaxMultiPV)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.multiPV = n
	return nil
}

// Clear forgets everything learnt from earlier searches: the table and
// the move order statistics (a new game).
func (e *Engine) Clear() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tt.Clear()
	for _, w := range e.workers {
		w.clearHistory()
	}
}

// shared is the state of one search that its threads share.
type shared struct {
	ctx       context.Context
	stop      atomic.Bool
	nodes     atomic.Int64 // flushed from the threads' counts
	start     time.Time
	hard      time.Duration // 0: no time limit
	nodeLimit int64
}

// Search searches pos (which it leaves as it found it) within the limits
// and returns the move to play. It calls report, if not nil, after every
// iteration the main thread finishes. A cancelled ctx stops it within a
// few milliseconds; it then returns the best move found so far, and no
// error, unless it had none.
func (e *Engine) Search(ctx context.Context, pos *env.Position, lim Limits, report func(Info)) (Result, error) {
	if err := lim.Validate(); err != nil {
		return Result{}, fmt.Errorf("engine: %w", err)
	}
	if pos.Variant() != e.v {
		return Result{}, fmt.Errorf("engine: position of variant %s for an engine of %s", pos.Variant().Name, e.v.Name)
	}
	var buf [env.MaxMoves]env.Move
	moves := pos.LegalMoves(buf[:0])
	if res, why := pos.StatusOf(len(moves)); res != env.Ongoing {
		return Result{}, fmt.Errorf("engine: the game is over (%s, %s) in %s", res, why, pos)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tt.NewSearch()
	soft, hard := budget(lim)
	sh := &shared{ctx: ctx, start: time.Now(), hard: hard, nodeLimit: lim.Nodes}
	maxDepth := MaxDepth
	if lim.Depth > 0 {
		maxDepth = lim.Depth
	}
	var wg sync.WaitGroup
	for _, w := range e.workers[1:] {
		w.reset(pos, sh, maxDepth, 0, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.iterate()
		}()
	}
	main := e.workers[0]
	main.reset(pos, sh, maxDepth, soft, report)
	main.multiPV = min(e.multiPV, len(moves))
	main.iterate()
	if lim.Infinite {
		<-ctx.Done() // an infinite search answers only when stopped
	}
	sh.stop.Store(true)
	wg.Wait()
	res := main.result
	res.Nodes = 0
	for _, w := range e.workers {
		res.Nodes += w.nodes
	}
	res.Time = time.Since(sh.start)
	if res.Move == env.NoMove {
		res.Move = moves[0]
	}
	return res, nil
}
