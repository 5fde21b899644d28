package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"bomberzero/env"
	"bomberzero/eval"
	"bomberzero/mcts"
	"bomberzero/nn"
)

// The network-free evaluators a model spec can name. None is the spec of
// "no network" and plays with Material.
const (
	None     = "none"     // no network: the material evaluator
	Material = "material" // uniform policy, value tanh(material/3)
	Uniform  = "uniform"  // uniform policy, drawn value
	Rollout  = "rollout"  // uniform policy, value of one random playout
)

// SpecHelp lists the model specs ParseSpec reads, for error messages and
// flag help.
const SpecHelp = "none, material, uniform, rollout or a checkpoint path"

// Spec is a parsed model spec: a network-free evaluator or a checkpoint file,
// with the playouts per move a match player searches when the spec gives
// them ("CKPT:SIMS").
type Spec struct {
	// Evaluator is the network-free evaluator (Material, Uniform or
	// Rollout), or "" for a checkpoint.
	Evaluator string
	// Path is the checkpoint file ("" for a network-free evaluator).
	Path string
	// Sims is the playouts per move given after the last ':' (0: none
	// given).
	Sims int
}

// ParseSpec reads a model spec: "none" (the material evaluator),
// "material", "uniform", "rollout" or a checkpoint path, each optionally
// followed by ":SIMS", a positive number of playouts per move. A checkpoint
// path is not opened here (LoadModel does).
func ParseSpec(text string) (Spec, error) {
	name, sims := strings.TrimSpace(text), 0
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		n, err := strconv.Atoi(name[i+1:])
		if err != nil || n < 1 {
			return Spec{}, fmt.Errorf("model %q: playouts %q after the last ':' are not a positive whole number", text, name[i+1:])
		}
		name, sims = name[:i], n
	}
	switch name {
	case "":
		return Spec{}, fmt.Errorf("model %q: empty; want %s", text, SpecHelp)
	case None, Material:
		return Spec{Evaluator: Material, Sims: sims}, nil
	case Uniform, Rollout:
		return Spec{Evaluator: name, Sims: sims}, nil
	}
	return Spec{Path: name, Sims: sims}, nil
}

// String writes the spec back in the syntax ParseSpec reads.
func (s Spec) String() string {
	name := s.Path
	if s.Evaluator != "" {
		name = s.Evaluator
	}
	if s.Sims > 0 {
		return fmt.Sprintf("%s:%d", name, s.Sims)
	}
	return name
}

// Model makes the evaluators of a model, one per searcher: network
// evaluators sharing one read-only folded network, or network-free
// evaluators.
type Model struct {
	// Name is what game records and chunks call the model: the checkpoint
	// file's base name, or "none" for a network-free evaluator.
	Name      string
	rules     *Rules
	folded    *nn.Folded // nil without a network
	evaluator string     // the network-free evaluator's name
}

// LoadModel returns the model named by spec (see ParseSpec; its playouts,
// if any, are the caller's to read). A checkpoint must exist, verify, and
// belong to the rules' variant and shape.
func LoadModel(spec string, r *Rules) (*Model, error) {
	s, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return s.Load(r)
}

// Load returns the model the spec names for rules r.
func (s Spec) Load(r *Rules) (*Model, error) {
	if s.Evaluator != "" {
		return &Model{Name: None, rules: r, evaluator: s.Evaluator}, nil
	}
	ck, err := nn.ReadCheckpoint(s.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("model %s: no such checkpoint file (give a checkpoint path, or %q to play without a network)", s.Path, None)
		}
		return nil, fmt.Errorf("model %s: %w", s.Path, err)
	}
	if ck.Variant != r.Variant.Name {
		return nil, fmt.Errorf("model %s: it was trained for variant %q, not %q", s.Path, ck.Variant, r.Variant.Name)
	}
	net, err := ck.Net(ck.Config, ck.Variant)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", s.Path, err)
	}
	return NewNetModel(filepath.Base(s.Path), net.Fold(), r)
}

// NewNetModel returns a model of an in-memory network, checking that its
// shape is the rules' encoding shape.
func NewNetModel(name string, f *nn.Folded, r *Rules) (*Model, error) {
	if got, want := f.Config().Shape(), r.Shape(); got != want {
		return nil, fmt.Errorf("model %s: network shape %d planes x %dx%d, policy %d; variant %s needs %d planes x %dx%d, policy %d",
			name, got.Channels, got.Height, got.Width, got.PolicySize,
			r.Variant.Name, want.Channels, want.Height, want.Width, want.PolicySize)
	}
	return &Model{Name: name, rules: r, folded: f}, nil
}

// HasNetwork says whether the model is a network.
func (m *Model) HasNetwork() bool { return m.folded != nil }

// Rules returns the rules the model plays.
func (m *Model) Rules() *Rules { return m.rules }

// NewEvaluator returns a fresh evaluator for batches of up to maxBatch
// positions, for one searcher (seed feeds a rollout evaluator's random
// moves).
func (m *Model) NewEvaluator(maxBatch int, seed uint64) (eval.Evaluator, error) {
	shape := m.rules.Shape()
	if m.folded != nil {
		ev, err := nn.NewEvaluator(m.folded, maxBatch)
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", m.Name, err)
		}
		return ev, nil
	}
	switch m.evaluator {
	case Uniform:
		return mcts.NewUniform(shape, maxBatch)
	case Rollout:
		return mcts.NewRollout(shape, maxBatch, 1, 200, seed)
	}
	return mcts.NewMaterial(shape, maxBatch, 3, m.rules.Encoder.MaterialWeights(m.rules.values))
}

// single evaluates one position at a time with one of a model's
// evaluators, for the functions below.
type single struct {
	ev    eval.Evaluator
	ge    mcts.GameEvaluator // set for evaluators that read the position itself
	b     *eval.Batch
	games []mcts.Game
}

func (m *Model) single() (*single, error) {
	ev, err := m.NewEvaluator(1, 1)
	if err != nil {
		return nil, err
	}
	ge, _ := ev.(mcts.GameEvaluator)
	return &single{ev: ev, ge: ge, b: eval.NewBatch(m.rules.Shape(), 1), games: make([]mcts.Game, 1)}, nil
}

// run evaluates the position encoded in s.b; game returns it as a game,
// asked for only by evaluators that read the position itself.
func (s *single) run(game func() (mcts.Game, error)) error {
	if s.ge == nil {
		return s.ev.Evaluate(s.b)
	}
	g, err := game()
	if err != nil {
		return err
	}
	s.games[0] = g
	return s.ge.EvaluateGames(s.games, s.b)
}

// ValueFunc returns the model's value of single positions given as text
// (as training data stores them): the win minus loss probability for the
// side to move. The function is not safe for concurrent use.
func (m *Model) ValueFunc() (func(text string) (float64, error), error) {
	s, err := m.single()
	if err != nil {
		return nil, err
	}
	r := m.rules
	return func(text string) (float64, error) {
		// Piece-value data keeps neither ply nor repetition count: the
		// position is encoded as if outside any game.
		if err := r.EncodeText(text, 0, 0, s.b.Planes, s.b.Legal); err != nil {
			return 0, err
		}
		err := s.run(func() (mcts.Game, error) {
			p, err := r.Variant.ParsePosition(text)
			if err != nil {
				return nil, fmt.Errorf("position %q: %w", text, err)
			}
			return r.NewGame(p), nil
		})
		if err != nil {
			return 0, err
		}
		return float64(s.b.WDL[0] - s.b.WDL[2]), nil
	}, nil
}

// PriorFunc returns the model's policy in a position, without search: each
// legal move (in the move generator's order) with the probability the
// policy gives it. The slices are reused by the next call. The function is
// not safe for concurrent use.
func (m *Model) PriorFunc() (func(p *env.Position) ([]env.Move, []float32, error), error) {
	s, err := m.single()
	if err != nil {
		return nil, err
	}
	r := m.rules
	b := s.b
	var legal []int
	var moves []env.Move
	var probs []float32
	return func(p *env.Position) ([]env.Move, []float32, error) {
		g := r.NewGame(p)
		legal = g.LegalMoves(legal)
		if len(legal) == 0 {
			return nil, nil, fmt.Errorf("model %s: no legal move in %s", m.Name, p)
		}
		g.Encode(b.Planes)
		clear(b.Legal)
		for _, idx := range legal {
			b.Legal[idx] = 1
		}
		if err := s.run(func() (mcts.Game, error) { return g, nil }); err != nil {
			return nil, nil, err
		}
		moves, probs = moves[:0], probs[:0]
		for _, idx := range legal {
			mv, err := g.Move(idx)
			if err != nil {
				return nil, nil, err
			}
			moves, probs = append(moves, mv), append(probs, b.Policy[idx])
		}
		return moves, probs, nil
	}, nil
}

// PolicyFunc returns the model's own choice in a position, without search:
// the legal move its policy gives the most probability (the first in the
// move generator's order among equals). It measures what the network alone
// has learnt (held-out puzzles). The function is not safe for concurrent
// use.
func (m *Model) PolicyFunc() (func(p *env.Position) (env.Move, error), error) {
	priors, err := m.PriorFunc()
	if err != nil {
		return nil, err
	}
	return func(p *env.Position) (env.Move, error) {
		moves, probs, err := priors(p)
		if err != nil {
			return env.NoMove, err
		}
		best := 0
		for i := range probs {
			if probs[i] > probs[best] {
				best = i
			}
		}
		return moves[best], nil
	}, nil
}
