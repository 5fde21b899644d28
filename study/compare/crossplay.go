package compare

import (
	"context"
	"fmt"
	"path/filepath"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/mcts"
	"bomberzero/nn"
)

// Cross is one cross-play match: variant A's agent against variant B's on
// one of the two rule sets.
type Cross struct {
	Rules  string        `json:"rules"`   // the variant the match is played in
	A      string        `json:"a"`       // variant A (its agent's home rules)
	B      string        `json:"b"`       // variant B
	ModelA string        `json:"model_a"` // checkpoints
	ModelB string        `json:"model_b"`
	Sims   int           `json:"sims"`
	Seed   uint64        `json:"seed"`
	Result *match.Result `json:"result"` // from A's side
}

// crossPlay plays every pair of variants' newest models against each
// other on both pairs' rule sets, when every variant has a model and the
// models' shapes fit the other rules. Otherwise it says why not.
func crossPlay(ctx context.Context, srcs []Source, cfg Config) ([]Cross, string, error) {
	for _, s := range srcs {
		if s.Model == "" {
			if s.Kind == "baseline" {
				return nil, fmt.Sprintf("no cross-play: every variant's games were played by the same fixed baseline (%s), "+
					"so there are no variant-specific agents to meet", s.Player), nil
			}
			return nil, fmt.Sprintf("no cross-play: %s's games (%s) come without a trained model", s.Variant, s.Dir), nil
		}
	}
	sims := cfg.Sims
	var out []Cross
	for i := range srcs {
		for j := i + 1; j < len(srcs); j++ {
			for k, rulesOf := range []int{i, j} {
				v, err := env.LoadVariant(srcs[rulesOf].Variant)
				if err != nil {
					return nil, "", fmt.Errorf("compare: cross-play: %w", err)
				}
				a, err := neutralPlayer(v, srcs[i].Model, cfg.Search, sims)
				if err != nil {
					return out, fmt.Sprintf("no cross-play on %s: %v", v.Name, err), nil
				}
				b, err := neutralPlayer(v, srcs[j].Model, cfg.Search, sims)
				if err != nil {
					return out, fmt.Sprintf("no cross-play on %s: %v", v.Name, err), nil
				}
				book, err := cfg.bookFor(v)
				if err != nil {
					return nil, "", fmt.Errorf("compare: cross-play: %w", err)
				}
				seed := cfg.Seed + 7919*uint64(1+len(out)) + uint64(k)
				mc := match.Config{A: a, B: b, Games: cfg.Games, Variant: v, MaxPlies: cfg.MaxPlies, Seed: seed, Workers: cfg.Workers, Book: book}
				if p := bar(cfg.Bars, "cross-play on "+v.Name, "games"); p != nil {
					mc.Progress = func(r *match.Result) { p(r.Total.Games(), cfg.Games) }
				}
				r, err := match.Run(ctx, mc)
				if err != nil {
					return nil, "", fmt.Errorf("compare: cross-play on %s: %w", v.Name, err)
				}
				out = append(out, Cross{Rules: v.Name, A: srcs[i].Variant, B: srcs[j].Variant, ModelA: srcs[i].Model,
					ModelB: srcs[j].Model, Sims: sims, Seed: seed, Result: r})
			}
		}
	}
	return out, "", nil
}

// neutralPlayer loads a checkpoint to play variant v, whatever variant it
// was trained for, as long as its network's shape fits v's encoding (the
// variant check of agent.Spec.Load is what cross-play sets aside),
// searching sims playouts per move with the match preset over base.
func neutralPlayer(v *env.Variant, path string, base mcts.Config, sims int) (match.Maker, error) {
	model, trainedOn, err := neutralModel(v, path)
	if err != nil {
		return match.Maker{}, err
	}
	name := fmt.Sprintf("%s(%s):%d", trainedOn, filepath.Base(path), sims)
	return match.NewSearchMaker(name, model.Rules(), model, agent.MatchSearch(base, sims))
}

// neutralModel loads the checkpoint at path as a model of variant v (see
// neutralPlayer) and returns it with the variant it was trained on.
func neutralModel(v *env.Variant, path string) (*agent.Model, string, error) {
	ck, err := nn.ReadCheckpoint(path)
	if err != nil {
		return nil, "", fmt.Errorf("model %s: %w", path, err)
	}
	net, err := ck.Net(ck.Config, ck.Variant)
	if err != nil {
		return nil, "", fmt.Errorf("model %s: %w", path, err)
	}
	model, err := agent.NewNetModel(filepath.Base(path), net.Fold(), agent.NewRules(v, 0))
	if err != nil {
		return nil, "", err
	}
	return model, ck.Variant, nil
}
