// Package analysis searches one position with a model and reads the search
// as a person wants it: the best move, the value, the top root moves with
// their visits, priors and values, and the principal variation, all in Game
// Courier move text. The analyse command, the web server's analyse endpoint
// and the UCI and XBoard engines share it.
package frontend

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sort"
	"time"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/mcts"
)

// Move is one root move of a finished search.
type Move struct {
	Move   string  `json:"move"`   // Game Courier text
	Visits int     `json:"visits"` // playouts through the move
	Prior  float64 `json:"prior"`  // the move's prior in the search
	// Q is the move's mean (or proven) value for the side to move; null
	// when the search never tried the move.
	Q      *float64 `json:"q"`
	Proven bool     `json:"proven"`
	// Score, Centipawns and PV are the engine's (EngineSearch): the
	// line's score as UCI writes it ("cp 35", "mate 2"), its centipawns
	// for the side to move (absent for a mate) and its line.
	Score      string   `json:"score,omitempty"`
	Centipawns *int     `json:"cp,omitempty"`
	PV         []string `json:"pv,omitempty"`
}

// Report is what one search says about a position.
type Report struct {
	Variant  string   `json:"variant"`
	Position string   `json:"position"`
	Model    string   `json:"model"`
	Sims     int      `json:"sims"`   // the playouts of the search reported
	Best     string   `json:"best"`   // the move the search chose
	Value    float64  `json:"value"`  // for the side to move, in [-1, 1]
	Proven   bool     `json:"proven"` // the solver proved Value
	PV       []string `json:"pv"`
	Top      []Move   `json:"top"`
	// Score, Depth and Nodes are the engine's (EngineSearch): the best
	// line's score as UCI writes it, the last iteration's depth in plies
	// and the positions searched.
	Score string `json:"score,omitempty"`
	Depth int    `json:"depth,omitempty"`
	Nodes int64  `json:"nodes,omitempty"`
	// TreeNodes is the size of the search's tree in nodes, and TreeFull
	// says the search ended before its playouts because the tree reached
	// its node budget (mcts.Config.TreeMemoryMB, the config's
	// selfplay.tree_memory_mb): Best is then the best move of the playouts
	// made, and a longer search of the same budget would end there too.
	TreeNodes int  `json:"tree_nodes,omitempty"`
	TreeFull  bool `json:"tree_full,omitempty"`
	// BestMove is Best as a move of the position.
	BestMove env.Move `json:"-"`
}

// ParseModelSpec splits a model spec MODEL[:SIMS] (agent.ParseSpec reads
// and checks it) into the model's name, a network-free evaluator or a
// checkpoint path, and its playouts (defaultSims, the config's eval.sims in
// the commands, when it names none).
func ParseModelSpec(spec string, defaultSims int) (string, int, error) {
	sp, err := agent.ParseSpec(spec)
	if err != nil {
		return "", 0, err
	}
	name, sims := sp.Path, sp.Sims
	if sp.Evaluator != "" {
		name = sp.Evaluator
	}
	if sims == 0 {
		sims = defaultSims
	}
	return name, sims, nil
}

// IsBuiltinModel says whether name is a network-free evaluator
// (none, material, uniform, rollout) rather than a checkpoint path.
func IsBuiltinModel(name string) bool {
	sp, err := agent.ParseSpec(name)
	return err == nil && sp.Evaluator != ""
}

// LoadModel returns the network-free evaluator called name or the
// checkpoint at path name, for rules (agent.LoadModel).
func LoadModel(name string, rules *agent.Rules) (*agent.Model, error) {
	return agent.LoadModel(name, rules)
}

// Search runs one search of pos (which must not be over) with cfg.Sims
// playouts and reads its result, listing at most top root moves. It stops
// with ctx's error when ctx ends first.
func Search(ctx context.Context, pos *env.Position, rules *agent.Rules, model *agent.Model, cfg mcts.Config, top int) (Report, error) {
	rep := Report{Variant: pos.Variant().Name, Position: pos.String(), Sims: cfg.Sims, PV: []string{}, Top: []Move{}}
	if res, why := pos.Status(); res != env.Ongoing {
		return rep, fmt.Errorf("analysis: the game is over in this position (%s, %s)", res, why)
	}
	ev, err := model.NewEvaluator(cfg.LeavesPerGame, cfg.Seed)
	if err != nil {
		return rep, err
	}
	s, err := mcts.NewSearcher(cfg, ev, 1)
	if err != nil {
		return rep, err
	}
	g := rules.NewGame(pos)
	if err := s.ResetAt(0, g, pos.Ply()); err != nil {
		return rep, err
	}
	for s.Result(0) == nil {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if _, err := s.Step(); err != nil {
			return rep, err
		}
	}
	r := s.Result(0)
	rep.Value, rep.Proven = float64(r.Value), r.Proven
	rep.TreeNodes, rep.TreeFull = s.TreeSize(0), r.TreeFull
	if r.TreeFull {
		rep.Sims = r.Sims
	}
	// Move texts are written on a copy that follows the PV.
	text := func(p *env.Position, idx int) (string, env.Move, error) {
		m := rules.Index.Decode(p, idx)
		if m == env.NoMove {
			return "", m, fmt.Errorf("analysis: policy index %d is not a legal move of %s", idx, p)
		}
		return p.FormatGC(m), m, nil
	}
	best, bm, err := text(pos, r.Move)
	if err != nil {
		return rep, err
	}
	rep.Best, rep.BestMove = best, bm
	line := pos.Clone()
	for _, idx := range s.PV(0, 40, nil) {
		t, m, err := text(line, idx)
		if err != nil {
			return rep, err
		}
		rep.PV = append(rep.PV, t)
		line.DoMove(m)
	}
	stats := s.RootStats(0, nil)
	// Proven wins first and proven losses last, then by visits and prior.
	class := func(m mcts.MoveStats) int {
		switch {
		case m.Proven && m.Q > 0:
			return 1
		case m.Proven && m.Q < 0:
			return -1
		}
		return 0
	}
	sort.SliceStable(stats, func(a, b int) bool {
		if ca, cb := class(stats[a]), class(stats[b]); ca != cb {
			return ca > cb
		}
		if stats[a].Visits != stats[b].Visits {
			return stats[a].Visits > stats[b].Visits
		}
		return stats[a].Prior > stats[b].Prior
	})
	for _, st := range stats[:min(top, len(stats))] {
		t, _, err := text(pos, st.Move)
		if err != nil {
			return rep, err
		}
		am := Move{Move: t, Visits: st.Visits, Prior: float64(st.Prior), Proven: st.Proven}
		if q := float64(st.Q); !math.IsNaN(q) {
			am.Q = &q
		}
		rep.Top = append(rep.Top, am)
	}
	return rep, nil
}

// Centipawns reads a search value v (in [-1, 1], for the side to move) as
// centipawns, by lc0's mapping cp = 90 tan(1.5637541897 v) with v kept
// within ±0.999; the UCI and XBoard engines report their scores so.
func Centipawns(v float64) int {
	v = math.Max(-0.999, math.Min(0.999, v))
	return int(math.Round(90 * math.Tan(1.5637541897*v)))
}

// bigTree is the size, in nodes, from which Deepen collects a finished
// search's tree before the next search and returns its memory to the
// system when the deepening ends (about 100 MiB of nodes).
const bigTree = 1 << 20

// Deepen searches pos again and again with doubling playout counts, from
// cfg.Sims up to maxSims, until maxSims is searched, a search proves the
// value, a search fills its tree (Report.TreeFull: a longer one would end
// at the same node budget, so the deepening stops there and keeps that
// search's move, and an "infinite" search runs in memory bounded by
// cfg.TreeMemoryMB), the deadline passes (zero: none) or ctx ends. It
// calls each (when not nil) with every finished search's report and
// returns the last one.
// It fails only when no search finished: when even the first was stopped.
func Deepen(ctx context.Context, pos *env.Position, rules *agent.Rules, model *agent.Model, cfg mcts.Config, top, maxSims int, deadline time.Time, each func(Report)) (Report, error) {
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	var last Report
	have := false
	for sims := max(cfg.Sims, 1); ; sims *= 2 {
		if sims > maxSims {
			sims = maxSims
		}
		c := cfg
		c.Sims = sims
		if have && last.TreeNodes >= bigTree {
			// The last search's tree is garbage now: collected before
			// the next grows, so two large trees never share the heap.
			runtime.GC()
		}
		rep, err := Search(ctx, pos, rules, model, c, top)
		if err != nil {
			if have && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
				return last, nil
			}
			return rep, err
		}
		last, have = rep, true
		if each != nil {
			each(rep)
		}
		if sims >= maxSims || rep.Proven || rep.TreeFull {
			if rep.TreeNodes >= bigTree {
				// The tree is gone with its search: its memory goes back
				// to the system while an "infinite" search waits for
				// its stop.
				debug.FreeOSMemory()
			}
			return last, nil
		}
	}
}
