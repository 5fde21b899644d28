package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/frontend"
	"bomberzero/setup"
)

// runAnalyse searches one position with a model and reports its move, its
// value, the top moves and the principal variation.
func runAnalyse(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("analyse", "usage: bomberzero analyse [--variant V] [--model MODEL[:SIMS]] [--fen TEXT] [--moves TEXT] [--top N] [--json]\n\nSearches one position with a model and prints its move, its value for the side to move, the top\nroot moves with visits, priors and values, and the principal variation.", stderr)
	variant := variantFlag(fs)
	model := fs.String("model", fmt.Sprintf("material:%d", setup.DefaultSims), "the model and its playouts, MODEL[:SIMS]: material, uniform, rollout (no network; none is material) or a checkpoint path")
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
		return fmt.Errorf("%w: position: %v", errUsage, err)
	}
	if res, why := pos.Status(); res != env.Ongoing {
		return fmt.Errorf("%w: the game is over in this position (%s, %s)", errUsage, res, why)
	}
	tc, err := mf.load(*variant)
	if err != nil {
		return usageErr(err)
	}
	name, sims, err := frontend.ParseModelSpec(*model, tc.Eval.Sims)
	if err != nil {
		return fmt.Errorf("%w: --model: %v", errUsage, err)
	}
	rules := agent.NewRules(pos.Variant(), 0)
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
