package compare

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"bomberzero/env"
	"bomberzero/study/values"
)

// RuleEffect is one trained model playing itself on every compared
// variant's rules, the same games (Config.Games at Config.Sims playouts,
// the same seeds and shared openings) on each: the difference between the
// rule sets with the network held fixed. Each variant's own games are
// played by a different network, so a difference between them may belong
// to the networks (their openings, their style) rather than to the rules;
// a difference that every model shows on its own is the rules'.
type RuleEffect struct {
	Model     string `json:"model"`      // the checkpoint
	TrainedOn string `json:"trained_on"` // the compared variant whose model it is
	Sims      int    `json:"sims"`
	Games     int    `json:"games"` // per rule set
	// Comparison compares the model's games on each variant's rules, in
	// Config.Variants' order.
	Comparison *values.Comparison `json:"comparison"`

	games []*values.Dataset // the compared games, one set a rule set
}

// NetworkEffect is the other half of RuleEffect: on one variant's rules,
// every compared model's games against itself side by side (the rules
// held fixed, the network changed).
type NetworkEffect struct {
	Rules string `json:"rules"`
	// Comparison compares the models' games on Rules, labelled "<variant>
	// model" in Config.Variants' order.
	Comparison *values.Comparison `json:"comparison"`
}

// modelLabels names each effect's model "<variant> model", in order.
func modelLabels(effects []RuleEffect) []string {
	labels := make([]string, len(effects))
	for i, e := range effects {
		labels[i] = e.TrainedOn + " model"
	}
	return labels
}

// networkEffects compares, on each rule set, the models of effects (one
// per variant, each with its games on every rule set) with each other.
func networkEffects(names []string, effects []RuleEffect, cfg Config) ([]NetworkEffect, error) {
	labels := modelLabels(effects)
	var out []NetworkEffect
	for j, rules := range names {
		sets := make([]*values.Dataset, len(effects))
		for i, e := range effects {
			sets[i] = e.games[j]
		}
		c, err := values.Compare(labels, sets, values.CompareConfig{Bootstrap: cfg.Bootstrap, Seed: cfg.Seed, Pairs: cfg.Games})
		if err != nil {
			return nil, fmt.Errorf("compare: the models on %s: %w", rules, err)
		}
		out = append(out, NetworkEffect{Rules: rules, Comparison: c})
	}
	return out, nil
}

// ruleEffects plays, when cfg.RuleEffects is set and every variant has a
// trained model, each model against itself on every other variant's rules
// and compares its games across the rule sets. A model given by --models
// has played its own rules already (home, the variant's games of the main
// comparison, from the same seed); a run's model plays them here, as the
// run's self-play games were played under other settings. The note says
// why there are no rule effects, when there are none.
func ruleEffects(ctx context.Context, srcs []Source, home []*values.Dataset, cfg Config) ([]RuleEffect, string, error) {
	if !cfg.RuleEffects {
		return nil, "", nil
	}
	for _, s := range srcs {
		if s.Model == "" {
			return nil, fmt.Sprintf("no rule effects: %s's games come without a trained model", s.Variant), nil
		}
	}
	var out []RuleEffect
	for i, s := range srcs {
		sets := make([]*values.Dataset, len(srcs))
		for j, rules := range srcs {
			if j == i && s.Kind == "model" {
				sets[j] = home[i]
				continue
			}
			ds, err := modelOnRules(ctx, s, rules.Variant, cfg)
			if errors.Is(err, errShape) {
				return out, fmt.Sprintf("no rule effects of %s's model on %s: %v", s.Variant, rules.Variant, err), nil
			}
			if err != nil {
				return nil, "", err
			}
			sets[j] = ds
		}
		c, err := values.Compare(cfg.Variants, sets, values.CompareConfig{Bootstrap: cfg.Bootstrap, Seed: cfg.Seed, Pairs: cfg.Games})
		if err != nil {
			return nil, "", fmt.Errorf("compare: rule effects of %s's model: %w", s.Variant, err)
		}
		out = append(out, RuleEffect{Model: s.Model, TrainedOn: s.Variant, Sims: cfg.Sims, Games: cfg.Games, Comparison: c, games: sets})
	}
	return out, "", nil
}

// writeNetworkEffects adds the models' primary endpoints side by side on
// each rule set to the report.
func writeNetworkEffects(w io.Writer, res *Result) {
	if len(res.NetworkEffects) == 0 {
		return
	}
	fmt.Fprintf(w, "\nThe same games, the rules held fixed and the network changed (Holm-corrected within each rule set):\n\n")
	fmt.Fprintf(w, "| rules | figure | A | B | value in A | value in B | B − A [95%%] | Holm p | verdict |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, e := range res.NetworkEffects {
		for _, d := range e.Comparison.Differences {
			if d.Primary {
				fmt.Fprintf(w, "| %s | %s\n", e.Rules, differenceCells(d))
			}
		}
	}
}

// errShape marks a model that cannot play a variant's rules.
var errShape = errors.New("the model cannot play these rules")

// modelOnRules plays the model of s against itself on variant's rules,
// cfg.Games games at cfg.Sims playouts from s's seed and the shared book.
// A model whose network does not fit the variant gives an error wrapping
// errShape.
func modelOnRules(ctx context.Context, s Source, variant string, cfg Config) (*values.Dataset, error) {
	v, err := env.LoadVariant(variant)
	if err != nil {
		return nil, fmt.Errorf("compare: rule effects: %w", err)
	}
	p, err := neutralPlayer(v, s.Model, cfg.Search, cfg.Sims)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errShape, err)
	}
	book, err := cfg.bookFor(v)
	if err != nil {
		return nil, fmt.Errorf("compare: rule effects: %w", err)
	}
	return SelfPlayDataset(ctx, v, p, cfg.Games, cfg.MaxPlies, s.Seed, cfg.Workers, book,
		fmt.Sprintf("%s-model-%s", filepath.Base(variant), filepath.Base(s.Variant)),
		bar(cfg.Bars, fmt.Sprintf("%s's model on %s", s.Variant, v.Name), "games"))
}

// writeRuleEffects adds each model's primary endpoints across the rule sets
// to the report.
func writeRuleEffects(w io.Writer, res *Result) {
	if len(res.RuleEffects) == 0 && res.RuleEffectsNote == "" {
		return
	}
	fmt.Fprintf(w, "\n## The rules with the network held fixed\n\n")
	if res.RuleEffectsNote != "" {
		fmt.Fprintf(w, "%s\n", res.RuleEffectsNote)
	}
	if len(res.RuleEffects) == 0 {
		return
	}
	fmt.Fprintf(w, "Each variant's model plays itself on every variant's rules (the same seeds and openings on each); the primary endpoints, Holm-corrected within each model. "+
		"A difference that every model shows is the rules'; one that only the comparison of the variants' own games shows may be the networks':\n\n")
	fmt.Fprintf(w, "| model (trained on) | playouts | games a rule set | figure | A | B | value in A | value in B | B − A [95%%] | Holm p | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, e := range res.RuleEffects {
		for _, d := range e.Comparison.Differences {
			if !d.Primary {
				continue
			}
			fmt.Fprintf(w, "| %s (%s) | %d | %d | %s\n", filepath.Base(e.Model), e.TrainedOn, e.Sims, e.Games, differenceCells(d))
		}
	}
}
