package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"bomberzero/agent"
	"bomberzero/engine"
	"bomberzero/env"
	"bomberzero/frontend"
	"bomberzero/setup"
)

// runAnalyse searches one position with the alpha-beta engine or a model
// and reports its move, its value, the top moves (the engine's MultiPV
// lines with their scores, or the model's root moves) and the principal
// variation.
func runAnalyse(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("analyse", "usage: bomberzero analyse [--variant V] [--model engine[:KEY=VALUE...]|MODEL[:SIMS]] [--fen TEXT] [--moves TEXT] [--top N] [--json]\n\nSearches one position and prints its move, its value for the side to move and the principal variation:\nwith the alpha-beta engine (the default) its --top best lines, each with its score (MultiPV); with a model\nthe top root moves with visits, priors and values.", stderr)
	variant := variantFlag(fs)
	model := fs.String("model", frontend.EngineModel, fmt.Sprintf("engine[:KEY=VALUE...], the alpha-beta engine with the options of an engine: player (depth=PLIES, nodes=N, movetime=DURATION, hash=MB, threads=N, weights=FILE; default %d nodes), or a model and its playouts, MODEL[:SIMS]: material, uniform, rollout (no network; none is material) or a checkpoint path", frontend.DefaultAnalysisNodes))
	fen := fs.String("fen", "", "position text (default: the variant's start)")
	moves := fs.String("moves", "", "moves to play from the position first")
	top := fs.Int("top", 8, "how many root moves to list")
	gumbel := fs.Bool("gumbel", false, "Gumbel root search instead of PUCT (default: config key selfplay.gumbel)")
	solver := fs.Bool("solver", true, "MCTS-solver: prove wins, losses and draws (default: config key selfplay.solver)")
	seed := fs.Uint64("seed", 1, "the search's random seed")
	asJSON := fs.Bool("json", false, "print one JSON object")
	mf := addMatchFlags(fs, false)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *top < 1 {
		return fmt.Errorf("%w: analyse [--variant V] [--model MODEL[:SIMS]] [--fen TEXT] [--moves TEXT] [--top N] [--json]", errUsage)
	}
	pos, err := setupPosition(*variant, *fen, *moves)
	if err != nil {
		return err
	}
	if res, why := pos.Status(); res != env.Ongoing {
		return fmt.Errorf("%w: the game is over in this position (%s, %s)", errUsage, res, why)
	}
	tc, err := mf.load(*variant)
	if err != nil {
		return usageErr(err)
	}
	if kind, rest, _ := strings.Cut(*model, ":"); kind == frontend.EngineModel {
		return analyseEngine(stdout, pos, *model, rest, *top, *asJSON)
	}
	name, sims, err := frontend.ParseModelSpec(*model, tc.Eval.Sims)
	if err != nil {
		return fmt.Errorf("%w: --model: %v", errUsage, err)
	}
	rules := agent.NewRules(pos.Variant(), 0)
	if err := rules.SetLeafEngine(tc.Eval.LeafEngine); err != nil {
		return fmt.Errorf("%w: eval.leaf_engine: %v", errUsage, err)
	}
	m, err := frontend.LoadModel(name, rules)
	if err != nil {
		return fmt.Errorf("%w: --model: %v", errUsage, err)
	}
	cfg := setup.AnalysisSearch(tc.PlayerSearch(), sims)
	if set(fs, "gumbel") {
		cfg.Gumbel = *gumbel
	}
	if set(fs, "solver") {
		cfg.Solver = *solver
	}
	cfg.Seed = *seed
	rep, err := frontend.Search(context.Background(), pos, rules, m, cfg, *top)
	if err != nil {
		return err
	}
	rep.Model = *model
	if *asJSON {
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(b))
		return nil
	}
	printAnalysis(stdout, rep)
	return nil
}

// analyseEngine is analyse with the alpha-beta engine, spec its options
// (engine.ParseSpec, the text after "engine:").
func analyseEngine(stdout io.Writer, pos *env.Position, model, spec string, top int, asJSON bool) error {
	es, err := analyseSpec(spec)
	if err != nil {
		return fmt.Errorf("%w: --model: %v", errUsage, err)
	}
	if top > engine.MaxMultiPV {
		return fmt.Errorf("%w: --top %d: want 1 to %d with the engine", errUsage, top, engine.MaxMultiPV)
	}
	e, err := frontend.NewEngine(pos.Variant(), es)
	if err != nil {
		return fmt.Errorf("%w: --model: %v", errUsage, err)
	}
	rep, err := frontend.EngineSearch(context.Background(), pos, e, es.Limits, top)
	if err != nil {
		return err
	}
	rep.Model = model
	if asJSON {
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, string(b))
		return nil
	}
	fmt.Fprintf(stdout, "%s  %s\nmodel %s, depth %d, %d nodes\nbest %s, %s, value %+.3f for the side to move\npv %s\n",
		rep.Variant, rep.Position, rep.Model, rep.Depth, rep.Nodes, rep.Best, rep.Score, rep.Value, strings.Join(rep.PV, " "))
	fmt.Fprintf(stdout, "%-16s %-9s %s\n", "move", "score", "line")
	for _, m := range rep.Top {
		fmt.Fprintf(stdout, "%-16s %-9s %s\n", m.Move, m.Score, strings.Join(m.PV, " "))
	}
	return nil
}

// analyseSpec reads analyse's engine options (engine.ParseSpec, the text
// after "engine:"): the spec's own limit, or frontend.DefaultAnalysisNodes
// nodes when it names none (engine.Spec.DefaultLimit, read from the keys
// ParseSpec accepted, so that a file path holding "nodes=" or "depth=" is
// no limit and an explicit nodes=20000, ParseSpec's own default, is kept).
func analyseSpec(spec string) (engine.Spec, error) {
	es, err := engine.ParseSpec(spec)
	if err != nil {
		return es, err
	}
	if es.DefaultLimit {
		es.Limits = engine.Limits{Nodes: frontend.DefaultAnalysisNodes}
	}
	return es, nil
}

// printAnalysis writes rep for a person.
func printAnalysis(w io.Writer, rep frontend.Report) {
	proven := ""
	if rep.Proven {
		proven = " (proven)"
	}
	fmt.Fprintf(w, "%s  %s\nmodel %s, %d playouts\nbest %s, value %+.3f for the side to move%s\npv %s\n",
		rep.Variant, rep.Position, rep.Model, rep.Sims, rep.Best, rep.Value, proven, strings.Join(rep.PV, " "))
	fmt.Fprintf(w, "%-16s %7s %7s %7s\n", "move", "visits", "prior", "q")
	for _, m := range rep.Top {
		q := "-"
		if m.Q != nil {
			q = fmt.Sprintf("%+.3f", *m.Q)
			if m.Proven {
				q += "!"
			}
		}
		fmt.Fprintf(w, "%-16s %7d %7.3f %7s\n", m.Move, m.Visits, m.Prior, q)
	}
}
