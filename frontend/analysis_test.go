package frontend

import (
	"context"
	"errors"
	"testing"
	"time"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/mcts"
	"bomberzero/setup"
)

const mateIn1 = "k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1"

func openPosition(t *testing.T, variant, fen string) (*env.Position, *agent.Rules, *agent.Model) {
	t.Helper()
	v, err := env.LoadVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	pos := v.NewPosition()
	if fen != "" {
		if pos, err = v.ParsePosition(fen); err != nil {
			t.Fatal(err)
		}
	}
	rules := agent.NewRules(v, 0)
	m, err := LoadModel("material", rules)
	if err != nil {
		t.Fatal(err)
	}
	return pos, rules, m
}

func TestDeepenDoublesUntilTheLimitAndKeepsEveryReportLegal(t *testing.T) {
	pos, rules, m := openPosition(t, "fbgc", "")
	cfg := setup.AnalysisSearch(mcts.DefaultConfig(), 16)
	var sims []int
	rep, err := Deepen(context.Background(), pos, rules, m, cfg, 5, 100, time.Time{}, func(r Report) { sims = append(sims, r.Sims) })
	if err != nil {
		t.Fatal(err)
	}
	want := []int{16, 32, 64, 100}
	if len(sims) != len(want) {
		t.Fatalf("searched %v playouts, want %v", sims, want)
	}
	for i := range want {
		if sims[i] != want[i] {
			t.Fatalf("searched %v playouts, want %v", sims, want)
		}
	}
	if rep.Sims != 100 || len(rep.Top) != 5 {
		t.Errorf("last report %d playouts, %d top moves; want 100 and 5", rep.Sims, len(rep.Top))
	}
	// Every move the report names is legal where it says.
	if _, err := pos.ParseMove(rep.Best); err != nil {
		t.Errorf("best %q: %v", rep.Best, err)
	}
	if _, err := env.PlayMoves(pos, joinMoves(rep.PV)); err != nil {
		t.Errorf("pv %v: %v", rep.PV, err)
	}
	total := 0
	for _, mv := range rep.Top {
		if _, err := pos.ParseMove(mv.Move); err != nil {
			t.Errorf("top %q: %v", mv.Move, err)
		}
		total += mv.Visits
	}
	if total == 0 || total > 100 {
		t.Errorf("top moves have %d visits in all, want 1..100", total)
	}
}

func joinMoves(ms []string) string {
	s := ""
	for _, m := range ms {
		s += m + " "
	}
	return s
}

func TestDeepenStopsAtAProofAndSearchStopsOnCancel(t *testing.T) {
	pos, rules, m := openPosition(t, "fbgc", mateIn1)
	cfg := setup.AnalysisSearch(mcts.DefaultConfig(), 8)
	cfg.Solver = true
	rep, err := Deepen(context.Background(), pos, rules, m, cfg, 3, 1<<20, time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Proven || rep.Value != 1 || rep.Best != "e1-e10" || rep.Sims >= 1<<20 {
		t.Errorf("got best %s value %v proven %v after %d playouts; want the proven mate e1-e10 long before the limit", rep.Best, rep.Value, rep.Proven, rep.Sims)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start, _, _ := openPosition(t, "fbgc", "")
	if _, err := Search(ctx, start, rules, m, setup.AnalysisSearch(mcts.DefaultConfig(), 1000), 3); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled search returned %v, want context.Canceled", err)
	}
	if _, err := Deepen(ctx, start, rules, m, setup.AnalysisSearch(mcts.DefaultConfig(), 1000), 3, 2000, time.Time{}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled deepening with no finished search returned %v, want context.Canceled", err)
	}
}

func TestParseModelSpec(t *testing.T) {
	for _, c := range []struct {
		spec string
		name string
		sims int
		bad  bool
	}{
		{"material", "material", 33, false},
		{"uniform:7", "uniform", 7, false},
		{"runs/a/gen-0001.safetensors:50", "runs/a/gen-0001.safetensors", 50, false},
		{"material:0", "", 0, true},
		{"material:x", "", 0, true},
		{":5", "", 0, true},
	} {
		name, sims, err := ParseModelSpec(c.spec, 33)
		if (err != nil) != c.bad || name != c.name || sims != c.sims {
			t.Errorf("%q: got %q %d %v", c.spec, name, sims, err)
		}
	}
}

func TestCentipawnsFollowsLc0sMapping(t *testing.T) {
	for _, c := range []struct {
		v  float64
		cp int
	}{
		{0, 0},
		{0.5, 89},    // 90 tan(0.78188) = 89.37
		{-0.5, -89},  // odd
		{0.9, 546},   // 90 tan(1.40738) = 545.83
		{1, 10458},   // kept at 0.999: 90 tan(1.56219) = 10457.7, finite
		{2, 10458},   // out of range: the same
		{-1, -10458}, // and for the losing side
	} {
		if got := Centipawns(c.v); got != c.cp {
			t.Errorf("Centipawns(%v) = %d, want %d", c.v, got, c.cp)
		}
	}
}

// An "infinite" deepening (the playout cap of the search itself) under a
// tiny tree budget: it stops at the first search that fills its tree,
// keeps that search's legal move, never grows past the budget and does not
// search again and again to the playout cap.
func TestDeepenStopsAtAFullTreeWithinTheNodeBudget(t *testing.T) {
	pos, rules, m := openPosition(t, "fbgc", "")
	cfg := setup.AnalysisSearch(mcts.DefaultConfig(), 64)
	cfg.TreeMemoryMB = 1
	budget := cfg.NodeBudget()
	var reps []Report
	began := time.Now()
	rep, err := Deepen(context.Background(), pos, rules, m, cfg, 3, mcts.MaxSims, time.Time{}, func(r Report) { reps = append(reps, r) })
	if err != nil {
		t.Fatal(err)
	}
	if !rep.TreeFull {
		t.Fatalf("last report %d playouts, %d nodes: want a full tree of budget %d", rep.Sims, rep.TreeNodes, budget)
	}
	for i, r := range reps {
		// A last expansion may pass the budget by one batch's children.
		if r.TreeNodes > budget+cfg.LeavesPerGame*len(pos.LegalMoves(nil))*4 {
			t.Errorf("search %d: %d nodes, over the budget %d", i, r.TreeNodes, budget)
		}
		if r.TreeFull && i != len(reps)-1 {
			t.Errorf("search %d filled its tree, yet %d more searches ran", i, len(reps)-1-i)
		}
	}
	if rep.Sims >= mcts.MaxSims {
		t.Errorf("last search %d playouts: want it ended by the tree", rep.Sims)
	}
	if _, err := pos.ParseMove(rep.Best); err != nil || rep.BestMove == env.NoMove {
		t.Errorf("best %q: %v", rep.Best, err)
	}
	if d := time.Since(began); d > 30*time.Second {
		t.Errorf("the deepening took %v", d)
	}
}
