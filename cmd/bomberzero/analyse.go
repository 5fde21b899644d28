package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/mcts"
	"bomberzero/selfplay"
)

// analyseMove is one root move in analyse's output.
type analyseMove struct {
	Move   string  `json:"move"`
	Visits int     `json:"visits"`
	Prior  float64 `json:"prior"`
	// Q is the move's mean (or proven) value for the side to move; null
	// when the search never tried the move.
	Q      *float64 `json:"q"`
	Proven bool     `json:"proven"`
}

// analyseReport is analyse's answer, printed as one JSON object by --json.
type analyseReport struct {
	Variant  string        `json:"variant"`
	Position string        `json:"position"`
	Model    string        `json:"model"`
	Sims     int           `json:"sims"`
	Best     string        `json:"best"`
	Value    float64       `json:"value"`
	Proven   bool          `json:"proven"`
	PV       []string      `json:"pv"`
	Top      []analyseMove `json:"top"`
}

// runAnalyse searches one position with a model and reports its move, its
// value, the top moves and the principal variation.
func runAnalyse(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("analyse", "usage: bomberzero analyse [--variant V] [--model MODEL[:SIMS]] [--fen TEXT] [--moves TEXT] [--top N] [--json]\n\nSearches one position with a model and prints its move, its value for the side to move, the top\nroot moves with visits, priors and values, and the principal variation.", stderr)
	variant := variantFlag(fs)
	model := fs.String("model", "material:400", "the model and its playouts, MODEL[:SIMS]: material, uniform, rollout (no network; none is material) or a checkpoint path")
	fen := fs.String("fen", "", "position text (default: the variant's start)")
	moves := fs.String("moves", "", "moves to play from the position first")
	top := fs.Int("top", 8, "how many root moves to list")
	gumbel := fs.Bool("gumbel", false, "Gumbel root search instead of PUCT")
	solver := fs.Bool("solver", true, "MCTS-solver: prove wins, losses and draws")
	seed := fs.Uint64("seed", 1, "the search's random seed")
	asJSON := fs.Bool("json", false, "print one JSON object")
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
	name, sims, err := parseModelSpec(*model)
	if err != nil {
		return fmt.Errorf("%w: --model: %v", errUsage, err)
	}
	rules := selfplay.NewRules(pos.Variant(), 0)
	m, err := loadAnalyseModel(name, rules)
	if err != nil {
		return fmt.Errorf("%w: --model: %v", errUsage, err)
	}
	cfg := match.SearchConfig(sims, 0)
	cfg.Gumbel, cfg.Solver, cfg.Seed = *gumbel, *solver, *seed
	rep, err := analyse(pos, rules, m, cfg, *top)
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

// parseModelSpec splits MODEL[:SIMS]; SIMS defaults to match.DefaultSims.
func parseModelSpec(spec string) (string, int, error) {
	name, sims := strings.TrimSpace(spec), match.DefaultSims
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		n, err := strconv.Atoi(name[i+1:])
		if err != nil || n < 1 {
			return "", 0, fmt.Errorf("%q: playouts %q after the last ':' is not a positive whole number", spec, name[i+1:])
		}
		name, sims = name[:i], n
	}
	if name == "" {
		return "", 0, fmt.Errorf("%q: no model named", spec)
	}
	return name, sims, nil
}

// loadAnalyseModel returns the network-free evaluator called name (none is
// material) or the checkpoint at path name.
func loadAnalyseModel(name string, rules *selfplay.Rules) (*selfplay.Model, error) {
	switch name {
	case "none", "material":
		return selfplay.LoadModel("none", "material", rules)
	case "uniform", "rollout":
		return selfplay.LoadModel("none", name, rules)
	}
	return selfplay.LoadModel(name, "", rules)
}

// analyse runs one search of pos and reads its result.
func analyse(pos *env.Position, rules *selfplay.Rules, model *selfplay.Model, cfg mcts.Config, top int) (analyseReport, error) {
	rep := analyseReport{Variant: pos.Variant().Name, Position: pos.String(), Sims: cfg.Sims, PV: []string{}, Top: []analyseMove{}}
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
	if err := s.SearchAll(); err != nil {
		return rep, err
	}
	r := s.Result(0)
	rep.Value, rep.Proven = float64(r.Value), r.Proven
	// Move texts are written on a copy that follows the PV.
	text := func(p *env.Position, idx int) (string, env.Move, error) {
		m := rules.Index.Decode(p, idx)
		if m == env.NoMove {
			return "", m, fmt.Errorf("analyse: policy index %d is not a legal move of %s", idx, p)
		}
		return p.FormatGC(m), m, nil
	}
	best, _, err := text(pos, r.Move)
	if err != nil {
		return rep, err
	}
	rep.Best = best
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
		am := analyseMove{Move: t, Visits: st.Visits, Prior: float64(st.Prior), Proven: st.Proven}
		if q := float64(st.Q); !math.IsNaN(q) {
			am.Q = &q
		}
		rep.Top = append(rep.Top, am)
	}
	return rep, nil
}

// printAnalysis writes rep for a person.
func printAnalysis(w io.Writer, rep analyseReport) {
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
