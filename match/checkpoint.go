package match

import (
	"fmt"
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
// eval.sims).
func SearchLoader(base mcts.Config, sims int) ModelLoader {
	return func(v *env.Variant, spec agent.Spec) (Maker, error) {
		rules := agent.NewRules(v, 0)
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

var _ Analyzer = (*Search)(nil)

// Name returns the player's spec, as "run/gen-0003.safetensors:100".
func (s *Search) Name() string { return s.name }

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
// move's share of the search policy times the playouts, Score the root value
// for the side to move (the same for every move: the search reports one).
func (s *Search) Analyze(pos *env.Position, n int) ([]Candidate, error) {
	r, g, err := s.search(pos)
	if err != nil {
		return nil, err
	}
	out := make([]Candidate, 0, len(r.Moves))
	for i, idx := range r.Moves {
		m, err := g.Move(idx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		visits := int(float64(r.Policy[i])*float64(r.Sims) + 0.5)
		out = append(out, Candidate{Move: m, Score: float64(r.Value), Visits: visits,
			Note: fmt.Sprintf("%d visits (%.1f%%), root value %+.3f", visits, 100*r.Policy[i], r.Value)})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Visits > out[b].Visits })
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}
