// Package session is one engine session, whatever protocol it speaks: what
// frontend/uci and frontend/xboard share. A Session holds the variant and
// its position, the engine options (declared once in Options, with their
// ranges), the model (loaded once per variant and name), the one search
// running in the background with what stops it, and the output writer;
// its searches report their lines (Info) with the score and principal
// variation already read for the protocol, in the protocol's move
// notation. The protocols only translate commands and lines.
package session

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"bomberzero/agent"
	"bomberzero/engine"
	"bomberzero/engine/nnue"
	"bomberzero/env"
	"bomberzero/frontend"
	"bomberzero/mcts"
	"bomberzero/setup"
)

// DefaultSearch is the search every session derives its searches from
// when the command line gives no training config: the match player's
// search of the embedded training defaults (setup.Config.PlayerSearch).
// It is the one place the engine protocols fetch search settings.
func DefaultSearch() (mcts.Config, error) {
	tc, err := setup.DefaultConfig("chess")
	if err != nil {
		return mcts.Config{}, err
	}
	return tc.PlayerSearch(), nil
}

// Session is one engine session's state. Only the protocol's loop calls
// its methods, but Send, which a running search calls too.
type Session struct {
	out   io.Writer
	outMu sync.Mutex
	base  mcts.Config // the base of every search (setup.AnalysisSearch)
	moves env.Notation

	variant *env.Variant
	rules   *agent.Rules
	pos     *env.Position
	model   string
	sims    int

	loaded  *agent.Model
	loadKey string
	job     *job

	// The alpha-beta engine and its options; engMu guards them, as a
	// search reads them on its own goroutine.
	engMu                    sync.Mutex
	hashMB, threads, multiPV int
	net                      *nnue.Net // the option EvalFile's net; nil is the classical evaluation
	netFile                  string
	eng                      *engine.Engine
	engKey                   string // the variant, Hash and Threads eng was made with
}

// job is a search running in the background.
type job struct {
	cancel context.CancelFunc
	done   chan struct{}
	move   env.Move // set before done is closed
}

// New starts a session that writes on out, derives its searches from base
// (a training config's player search, DefaultSearch without one) and
// writes moves in the notation moves. Every option starts at its default.
// It sets the process's soft memory limit to MemoryLimit of base's tree
// cap and the option Hash (again whenever the engine is rebuilt with
// another Hash), unless GOMEMLIMIT is set.
func New(out io.Writer, base mcts.Config, moves env.Notation) (*Session, error) {
	s := &Session{out: out, base: base, moves: moves}
	for _, o := range Options() {
		if err := s.Set(o.Name, o.Default); err != nil {
			return nil, fmt.Errorf("session: the default of %w", err)
		}
	}
	s.engMu.Lock()
	s.limitMemory()
	s.engMu.Unlock()
	return s, nil
}

// Send writes one line, formatted as fmt.Sprintf does; it is safe to call
// from a running search.
func (s *Session) Send(format string, args ...any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	fmt.Fprintf(s.out, format+"\n", args...)
}

// SetVariant stops any search and sets the variant called name at its
// start position; on an error the session is left as it was.
func (s *Session) SetVariant(name string) error {
	v, err := env.LoadVariant(name)
	if err != nil {
		return err
	}
	s.Stop()
	s.variant, s.pos, s.rules = v, v.NewPosition(), agent.NewRules(v, 0)
	return nil
}

// Variant is the variant played.
func (s *Session) Variant() *env.Variant { return s.variant }

// Position is the game's position; the protocol plays and takes back moves
// on it.
func (s *Session) Position() *env.Position { return s.pos }

// SetPosition replaces the game's position with p, of the variant played.
func (s *Session) SetPosition(p *env.Position) { s.pos = p }

// Model is the model spec of the option Model.
func (s *Session) Model() string { return s.model }

// Playouts is the option Playouts: a search's playouts with no time limit.
func (s *Session) Playouts() int { return s.sims }

// Start runs search in the background after stopping any search running;
// ctx ends when the search is stopped (Stop) or calls stop itself, and the
// move it returns is Stop's.
func (s *Session) Start(search func(ctx context.Context, stop context.CancelFunc) env.Move) {
	s.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{cancel: cancel, done: make(chan struct{})}
	s.job = j
	go func() {
		defer close(j.done)
		defer cancel()
		j.move = search(ctx, cancel)
	}()
}

// Running says whether a search was started and not yet stopped.
func (s *Session) Running() bool { return s.job != nil }

// Done is closed when the running search ends by itself; nil (never ready)
// when none runs.
func (s *Session) Done() <-chan struct{} {
	if s.job == nil {
		return nil
	}
	return s.job.done
}

// Stop ends the running search, waits for it and returns its move; NoMove
// when none runs (or it chose none).
func (s *Session) Stop() env.Move {
	if s.job == nil {
		return env.NoMove
	}
	s.job.cancel()
	<-s.job.done
	m := s.job.move
	s.job = nil
	return m
}

// Limits are one search's playouts and time, and the engine's limits.
type Limits struct {
	// Start is the first search's playouts; each next one has twice as
	// many, up to Limit (frontend.Deepen).
	Start, Limit int
	// Movetime ends the search when it passes (zero: no time limit).
	Movetime time.Duration
	// Engine are the limits of a search with the alpha-beta engine (the
	// option Model at EngineModel), which reads no other field.
	Engine engine.Limits
}

// Info is one finished step of a search, read for the protocols.
type Info struct {
	// Depth is the principal variation's length, at least 1; the
	// engine's iteration depth in plies with Engine.
	Depth int
	// Nodes is the step's playouts; the engine's nodes with Engine.
	Nodes int
	// Engine says the line is the alpha-beta engine's, and that SelDepth,
	// NPS and HashFull hold.
	Engine bool
	// SelDepth is the engine's deepest ply, quiescence included.
	SelDepth int
	// NPS is the engine's nodes a second.
	NPS int64
	// HashFull is the permille of the engine's table written.
	HashFull int
	// MultiPV is the line's rank, 1 for the best, when the engine reports
	// more than one line (the option MultiPV); 0 otherwise.
	MultiPV int
	// Elapsed is the time since the search began.
	Elapsed time.Duration
	// Mate is the moves to a proven mate, negative when the side to move
	// is mated; 0 when no mate is proven.
	Mate int
	// Centipawns is the value for the side to move by lc0's mapping
	// (frontend.Centipawns); the engine's own score with Engine.
	Centipawns int
	// PV is the principal variation in the session's notation.
	PV []string
	// TreeFull says the step's search filled its tree (the node budget of
	// the base search's TreeMemoryMB, the config's selfplay.tree_memory_mb)
	// and was the last: its move is kept until the search is stopped, and
	// TreeNodes is the tree's size.
	TreeFull  bool
	TreeNodes int
}

// Search searches pos with the model spec (the option Model when the
// search started), deepening within lim, or with the alpha-beta engine
// within lim.Engine when spec is EngineModel, and returns the move chosen:
// NoMove when the game is over, the first legal move when the search was
// stopped before its first step. It calls each (when not nil) with every
// step. When the model cannot be used it returns the first legal move and
// an error saying why.
func (s *Session) Search(ctx context.Context, pos *env.Position, spec string, lim Limits, each func(Info)) (env.Move, error) {
	legal := pos.LegalMoves(nil)
	if res, _ := pos.StatusOf(len(legal)); res != env.Ongoing {
		return env.NoMove, nil
	}
	if spec == EngineModel {
		return s.searchEngine(ctx, pos, legal, lim.Engine, each)
	}
	model, err := s.loadModel(spec)
	if err != nil {
		return legal[0], fmt.Errorf("model %q: %w", spec, err)
	}
	var deadline time.Time
	if lim.Movetime > 0 {
		deadline = time.Now().Add(lim.Movetime)
	}
	cfg := setup.AnalysisSearch(s.base, lim.Start)
	cfg.Solver = true
	began := time.Now()
	rep, err := frontend.Deepen(ctx, pos, s.rules, model, cfg, 1, lim.Limit, deadline, func(r frontend.Report) {
		if each != nil {
			each(Info{
				Depth: max(len(r.PV), 1), Nodes: r.Sims, Elapsed: time.Since(began),
				Mate: mateIn(r), Centipawns: frontend.Centipawns(r.Value),
				PV:       env.FormatLine(pos, r.PV, env.GameCourier{}, s.moves),
				TreeFull: r.TreeFull, TreeNodes: r.TreeNodes,
			})
		}
	})
	if err != nil {
		// Stopped before the first step finished: any legal move.
		return legal[0], nil
	}
	return rep.BestMove, nil
}

// FormatMove writes legal move m of p in the session's notation.
func (s *Session) FormatMove(p *env.Position, m env.Move) string { return s.moves.FormatMove(p, m) }

// ParseMove reads a move of p in the session's notation.
func (s *Session) ParseMove(p *env.Position, text string) (env.Move, error) {
	return s.moves.ParseMove(p, text)
}

// mateIn is the moves to the mate a report proves, negative when the side
// to move is mated, 0 when it proves none.
func mateIn(r frontend.Report) int {
	if !r.Proven || r.Value == 0 {
		return 0
	}
	n := max((len(r.PV)+1)/2, 1)
	if r.Value < 0 {
		return -n
	}
	return n
}

// loadModel returns the model spec names for the variant played, loading
// it only when the variant or name changed since the last load.
func (s *Session) loadModel(spec string) (*agent.Model, error) {
	name, _, err := frontend.ParseModelSpec(spec, 1)
	if err != nil {
		return nil, err
	}
	key := s.variant.Name + "\x00" + name
	if s.loaded != nil && s.loadKey == key {
		return s.loaded, nil
	}
	m, err := frontend.LoadModel(name, s.rules)
	if err != nil {
		return nil, err
	}
	s.loaded, s.loadKey = m, key
	return m, nil
}
