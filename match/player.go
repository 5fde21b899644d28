package match

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"bomberzero/agent"
	"bomberzero/engine"
	"bomberzero/env"
)

// Player chooses moves. A Player may keep state between moves (random
// numbers, search trees) and is used by one goroutine at a time; a match
// builds one per game from a Maker.
type Player interface {
	// Name returns the player's spec, as in "alphabeta:2".
	Name() string
	// Choose returns a legal move of the side to move in pos, which must not
	// be over. It may change pos while it thinks but leaves it as it found it.
	Choose(pos *env.Position) (env.Move, error)
}

// ContextPlayer is a Player whose thinking can be cut short: PlayGame
// calls ChooseContext, which returns ctx's error soon after ctx ends, so
// that a long search honours Ctrl-C and SIGTERM.
type ContextPlayer interface {
	Player
	ChooseContext(ctx context.Context, pos *env.Position) (env.Move, error)
}

// Candidate is one move a player considered, for showing a person what it
// thinks: its score (pawns for the material players, the search value in
// [-1, 1] for a network), its visit count when it searched a tree, and the
// line it expects.
type Candidate struct {
	Move   env.Move
	Score  float64
	Visits int
	PV     []env.Move
	// Note is the score in words, as "+3.00" or "mate in 2".
	Note string
}

// Analyzer is a Player that can list its best moves with their scores.
type Analyzer interface {
	Player
	// Analyze returns up to n of the moves it would consider best in pos,
	// best first.
	Analyze(pos *env.Position, n int) ([]Candidate, error)
}

// Maker builds independent players of one spec, one per game.
type Maker struct {
	// Spec names the player, as Parse read it.
	Spec string
	// New returns a fresh player whose random choices follow seed.
	New func(seed uint64) (Player, error)
}

// ModelLoader builds the Maker of a player that searches with a model for a
// variant: the model a spec of package agent names (a checkpoint or a
// network-free evaluator), searching spec.Sims playouts per move (0: the
// loader's default). SearchLoader is the loader of the command-line tools.
type ModelLoader func(v *env.Variant, spec agent.Spec) (Maker, error)

// EngineLoader builds the Maker of an outside engine's player from its whole
// spec ("uci:PATH[:OPTIONS]", package match/external): the loader checks
// that the engine starts and plays variant v before the match begins.
type EngineLoader func(v *env.Variant, spec string) (Maker, error)

// Options are what Parse needs beyond the spec.
type Options struct {
	// agent.Values replace entries of DefaultValues for greedy and alpha-beta.
	Values agent.Values
	// Models loads searching players (checkpoints and network-free
	// models); nil refuses them with an error.
	Models ModelLoader
	// Engines loads outside engines ("uci:..." specs); nil refuses them
	// with an error.
	Engines EngineLoader
}

// ErrBadSpec is wrapped by every error Parse returns for a spec it cannot read.
var ErrBadSpec = errors.New("bad player spec")

// MaxDepth is the deepest alpha-beta search Parse accepts.
const MaxDepth = 8

const specHelp = "want random, greedy[:VALUES], alphabeta:DEPTH[:VALUES], engine[:KEY=VALUE...], material|uniform|rollout[:SIMS], CHECKPOINT[:SIMS] or uci:PATH[:KEY=VALUE,...] (VALUES like G=2.5,I=8)"

// Parse reads a player spec for variant v:
//
//	random                  a uniformly random legal move
//	greedy[:VALUES]         the largest immediate material gain, ties at random
//	alphabeta:D[:VALUES]    alpha-beta negamax on material, D plies (1-8)
//	engine[:KEY=VALUE...]   the engine of package engine, its options joined
//	                        by ":": depth=PLIES, nodes=N, movetime=100ms,
//	                        hash=MB, threads=N, weights=FILE,
//	                        eval=classical|FILE (20000 nodes without a limit)
//	material[:SIMS]         the search over a network-free evaluator of
//	uniform[:SIMS]          package agent, SIMS playouts per move (the
//	rollout[:SIMS]          loader's default without)
//	PATH[:SIMS]             the search over a checkpoint file (a name with
//	                        "/" or "."), the same
//	uci:PATH[:KEY=VALUE,..] an outside UCI engine (package match/external):
//	                        movetime, nodes, depth, grace, variant and the
//	                        engine's UCI options, as
//	                        uci:stockfish:movetime=100ms,UCI_Elo=1800
//
// VALUES overrides piece values, as "G=2.5,I=8".
func Parse(spec string, v *env.Variant, opt Options) (Maker, error) {
	if v == nil {
		return Maker{}, fmt.Errorf("player %q: no variant", spec)
	}
	spec = strings.TrimSpace(spec)
	kind, rest, hasRest := strings.Cut(spec, ":")
	if kind == "uci" {
		if opt.Engines == nil {
			return Maker{}, fmt.Errorf("player %q: outside engines are not available here (no engine loader)", spec)
		}
		m, err := opt.Engines(v, spec)
		if err != nil {
			return Maker{}, fmt.Errorf("player %q: %w", spec, err)
		}
		return m, nil
	}
	if err := opt.Values.CheckPieces(v); err != nil {
		return Maker{}, fmt.Errorf("player %q: %w", spec, err)
	}
	vals := agent.DefaultValues().With(opt.Values)
	switch kind {
	case "random":
		if hasRest {
			return Maker{}, fmt.Errorf("player %q: random takes no parameters: %w", spec, ErrBadSpec)
		}
		return Maker{Spec: spec, New: func(seed uint64) (Player, error) { return NewRandom(seed), nil }}, nil
	case "greedy":
		if hasRest {
			over, err := agent.ParseValues(rest)
			if err == nil {
				err = over.CheckPieces(v)
			}
			if err != nil {
				return Maker{}, fmt.Errorf("player %q: %v: %w", spec, err, ErrBadSpec)
			}
			vals = vals.With(over)
		}
		if _, err := vals.Table(v); err != nil {
			return Maker{}, fmt.Errorf("player %q: %w", spec, err)
		}
		return Maker{Spec: spec, New: func(seed uint64) (Player, error) { return NewGreedy(v, vals, seed) }}, nil
	case "alphabeta":
		if !hasRest {
			return Maker{}, fmt.Errorf("player %q: alphabeta needs a depth, as alphabeta:2: %w", spec, ErrBadSpec)
		}
		ds, vs, hasVals := strings.Cut(rest, ":")
		depth, err := strconv.Atoi(ds)
		if err != nil || depth < 1 || depth > MaxDepth {
			return Maker{}, fmt.Errorf("player %q: depth %q is not a whole number from 1 to %d: %w", spec, ds, MaxDepth, ErrBadSpec)
		}
		if hasVals {
			over, err := agent.ParseValues(vs)
			if err == nil {
				err = over.CheckPieces(v)
			}
			if err != nil {
				return Maker{}, fmt.Errorf("player %q: %v: %w", spec, err, ErrBadSpec)
			}
			vals = vals.With(over)
		}
		if _, err := vals.Table(v); err != nil {
			return Maker{}, fmt.Errorf("player %q: %w", spec, err)
		}
		return Maker{Spec: spec, New: func(seed uint64) (Player, error) { return NewAlphaBeta(v, depth, vals, seed) }}, nil
	case "engine":
		es, err := engine.ParseSpec(rest)
		if err != nil {
			return Maker{}, fmt.Errorf("player %q: %v: %w", spec, err, ErrBadSpec)
		}
		table, err := vals.Table(v)
		if err != nil {
			return Maker{}, fmt.Errorf("player %q: %w", spec, err)
		}
		return Maker{Spec: spec, New: func(seed uint64) (Player, error) { return NewEnginePlayer(v, es, table, seed, spec) }}, nil
	}
	if kind != agent.Material && kind != agent.Uniform && kind != agent.Rollout && !strings.ContainsAny(spec, "/.") {
		return Maker{}, fmt.Errorf("player %q: unknown player; %s: %w", spec, specHelp, ErrBadSpec)
	}
	ms, err := agent.ParseSpec(spec)
	if err != nil {
		return Maker{}, fmt.Errorf("player %q: %v: %w", spec, err, ErrBadSpec)
	}
	if opt.Models == nil {
		return Maker{}, fmt.Errorf("player %q: searching players (checkpoints, %s, %s, %s) are not available here (no model loader)",
			spec, agent.Material, agent.Uniform, agent.Rollout)
	}
	m, err := opt.Models(v, ms)
	if err != nil {
		return Maker{}, fmt.Errorf("player %q: %w", spec, err)
	}
	if m.Spec == "" {
		m.Spec = spec
	}
	return m, nil
}
