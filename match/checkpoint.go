package match

import (
	"fmt"
	"math"
	"sort"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/mcts"
)

// SearchLoader returns the ModelLoader of the command-line tools: it loads
// the model a spec names (a checkpoint, whose variant and shape
// agent.Spec.Load checks, or a network-free evaluator) and returns a Maker
// of players searching the spec's playouts per move (sims when the spec
// gives none) with the match preset agent.MatchSearch over base, the
// self-play search of the training config ([selfplay]; sims is its
// eval.sims). leafEngine, when not "", is the evaluation of the engine
// whose quiescence search the leaf material mix reads (eval.leaf_engine,
// agent.Rules.SetLeafEngine).
func SearchLoader(base mcts.Config, sims int, leafEngine string) ModelLoader {
	return func(v *env.Variant, spec agent.Spec) (Maker, error) {
		rules := agent.NewRules(v, 0)
		if err := rules.SetLeafEngine(leafEngine); err != nil {
			return Maker{}, fmt.Errorf("eval.leaf_engine = %q: %w", leafEngine, err)
		}
		model, err := spec.Load(rules)
		if err != nil {
			return Maker{}, err
		}
		if spec.Sims == 0 {
			spec.Sims = sims
		}
		return NewSearchMaker(spec.String(), rules, model, agent.MatchSearch(base, spec.Sims))
	}
}

// NewSearchMaker returns a Maker of players that choose moves by the batched
// search of package mcts over model (a network, or a network-free
// evaluator), for the trainer to rate a network it holds in memory. Each
// player gets its own evaluator (sharing the model's read-only weights) and
// searcher; cfg.Seed is replaced by the player's seed.
func NewSearchMaker(name string, rules *agent.Rules, model *agent.Model, cfg mcts.Config) (Maker, error) {
	if err := cfg.Validate(); err != nil {
		return Maker{}, fmt.Errorf("player %s: %w", name, err)
	}
	return Maker{Spec: name, New: func(seed uint64) (Player, error) {
		ev, err := model.NewEvaluator(cfg.LeavesPerGame, seed)
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", name, err)
		}
		c := cfg
		c.Seed = seed
		s, err := mcts.NewSearcher(c, ev, 1)
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", name, err)
		}
		return &Search{name: name, rules: rules, searcher: s, sims: cfg.Sims}, nil
	}}, nil
}

// Search is a player that searches each move with mcts over an evaluator.
type Search struct {
	name     string
	rules    *agent.Rules
	searcher *mcts.Searcher
	sims     int
}

var (
	_ Analyzer = (*Search)(nil)
	_ Metered  = (*Search)(nil)
)

// Name returns the player's spec, as "run/gen-0003.safetensors:100".
func (s *Search) Name() string { return s.name }

// Meter is MeterThread: the searcher has one game slot and evaluates its
// leaves on its caller's goroutine (a network's products too: nn runs
// inference on its caller's goroutine, OpenBLAS held to one thread).
func (s *Search) Meter() Meter { return MeterThread }

// search runs one search from pos and returns its result and game.
func (s *Search) search(pos *env.Position) (*mcts.Result, *agent.Game, error) {
	g := s.rules.NewGame(pos)
	if err := s.searcher.ResetAt(0, g, pos.Ply()); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", s.name, err)
	}
	if err := s.searcher.SearchAll(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", s.name, err)
	}
	r := s.searcher.Result(0)
	if r == nil || r.Move < 0 {
		return nil, nil, fmt.Errorf("%s: the search found no move in %s", s.name, pos)
	}
	return r, g, nil
}

// Choose searches pos and plays the search's move.
func (s *Search) Choose(pos *env.Position) (env.Move, error) {
	r, g, err := s.search(pos)
	if err != nil {
		return env.NoMove, err
	}
	m, err := g.Move(r.Move)
	if err != nil {
		return env.NoMove, fmt.Errorf("%s: %w", s.name, err)
	}
	return m, nil
}

// Analyze searches pos and lists the n most visited moves: Visits is the
// playouts through the move, Score the move's own mean value for the side to
// move (its proven value when the solver proved it; the root value for a move
// the search never tried, which its Note says).
func (s *Search) Analyze(pos *env.Position, n int) ([]Candidate, error) {
	r, g, err := s.search(pos)
	if err != nil {
		return nil, err
	}
	stats := s.searcher.RootStats(0, nil)
	if len(stats) != len(r.Moves) {
		return nil, fmt.Errorf("%s: the search reports %d root moves and statistics of %d", s.name, len(r.Moves), len(stats))
	}
	total := 0
	for _, st := range stats {
		total += st.Visits
	}
	out := make([]Candidate, 0, len(stats))
	for _, st := range stats {
		m, err := g.Move(st.Move)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		c := Candidate{Move: m, Score: float64(st.Q), Visits: st.Visits}
		share := 100 * float64(st.Visits) / float64(max(total, 1))
		switch {
		case st.Proven && st.Q > 0:
			c.Note = fmt.Sprintf("%d visits, proven win", st.Visits)
		case st.Proven && st.Q < 0:
			c.Note = fmt.Sprintf("%d visits, proven loss", st.Visits)
		case st.Proven:
			c.Note = fmt.Sprintf("%d visits, proven draw", st.Visits)
		case math.IsNaN(float64(st.Q)):
			c.Score = float64(r.Value)
			c.Note = "not searched"
		default:
			c.Note = fmt.Sprintf("%d visits (%.1f%%), value %+.3f", st.Visits, share, st.Q)
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Visits > out[b].Visits })
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}
