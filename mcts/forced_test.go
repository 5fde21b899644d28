package mcts

import (
	"math"
	"testing"
)

// forcedSearch searches a one-move pick game of the given move values with
// the priors of policy, k the forced-playout constant, and returns the
// result and the root children's visits.
func forcedSearch(t *testing.T, values, policy []float32, k float64, sims int) (Result, []int32, []float32) {
	t.Helper()
	g := &pick{values: values, picked: -1}
	cfg := testConfig(sims)
	cfg.ForcedPlayouts = k
	cfg.Solver = false // the forcing is about visits; the solver would settle a one-move game
	s := searched(t, cfg, &tableEval{shape: pickShape(len(values)), max: 8, policy: policy}, g)
	r := *s.Result(0)
	r.Policy = append([]float32(nil), r.Policy...)
	r.Moves = append([]int(nil), r.Moves...)
	tr := &s.slots[0].tree
	var visits []int32
	var priors []float32
	for _, ch := range tr.children(tr.root()) {
		visits = append(visits, ch.n)
		priors = append(priors, ch.prior)
	}
	return r, visits, priors
}

// With forced playouts every root child gets about sqrt(k*P*N) of the N
// child visits, however bad its value (KataGo's section 3.1); without
// them PUCT leaves the bad low-prior moves with fewer.
func TestForcedPlayoutsGiveEveryRootChildItsShare(t *testing.T) {
	values := []float32{0.8, -0.6, -0.6, -0.6, -0.6, -0.6, -0.6, -0.6}
	policy := []float32{0.65, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05}
	short := func(visits []int32, priors []float32, k float64) (worst float64) {
		total := 0.0
		for _, n := range visits {
			total += float64(n)
		}
		for i, n := range visits {
			worst = max(worst, forcedVisits(k, priors[i], total)-float64(n))
		}
		return worst
	}
	_, on, priors := forcedSearch(t, values, policy, 2, 400)
	if w := short(on, priors, 2); w > 1 {
		t.Errorf("forced playouts on: visits %v leave a child %.1f visits short of sqrt(2PN), want at most 1", on, w)
	}
	_, off, priors := forcedSearch(t, values, policy, 0, 400)
	if w := short(off, priors, 2); w <= 1 {
		t.Errorf("forced playouts off: visits %v already give every child sqrt(2PN); the test cannot tell the two apart", off)
	}
}

// The training target takes the forced visits back: a move far below the
// best loses them all (it is left with one visit or none), a move as good as
// the best keeps most of its share, and the best keeps all its visits.
func TestPolicyTargetPruningTakesTheForcedVisitsBack(t *testing.T) {
	values := []float32{0.8, 0.8, -0.6, -0.6, -0.6, -0.6, -0.6, -0.6}
	policy := []float32{0.35, 0.30, 0.05, 0.05, 0.05, 0.05, 0.05, 0.10}
	r, visits, _ := forcedSearch(t, values, policy, 2, 400)
	total := 0.0
	for _, n := range visits {
		total += float64(n)
	}
	sum := float32(0)
	best := 0
	for i, n := range visits {
		if n > visits[best] {
			best = i
		}
		sum += r.Policy[i]
	}
	if math.Abs(float64(sum)-1) > 1e-5 {
		t.Fatalf("target sums to %v, want 1 (policy %v)", sum, r.Policy)
	}
	for i, n := range visits {
		raw := float32(float64(n) / total)
		switch {
		case values[i] < 0 && r.Policy[i] != 0:
			t.Errorf("move %d (value %v, %d visits): target %.3f, want 0 once its forced visits are taken back", i, values[i], n, r.Policy[i])
		case i == best && r.Policy[i] < raw:
			t.Errorf("the most visited move %d: target %.3f below its raw share %.3f", i, r.Policy[i], raw)
		case values[i] > 0 && i != best && r.Policy[i] < 0.6*raw:
			t.Errorf("move %d, as good as the best: target %.3f, raw share %.3f; want most of it kept", i, r.Policy[i], raw)
		}
	}
}

// Forced playouts belong to full PUCT searches: a Gumbel search ignores
// the setting, move for move.
func TestForcedPlayoutsLeaveGumbelSearchesAlone(t *testing.T) {
	g := newTicTacToe()
	results := make([]Result, 2)
	for i, k := range []float64{0, 2} {
		cfg := testConfig(64)
		cfg.Gumbel = true
		cfg.ForcedPlayouts = k
		r, err := searchOnce(cfg, newUniform(t, g), g)
		if err != nil {
			t.Fatal(err)
		}
		results[i] = r
	}
	for i := range results[0].Policy {
		if results[0].Policy[i] != results[1].Policy[i] || results[0].Move != results[1].Move {
			t.Fatalf("Gumbel search with forced_playouts 2: %v, move %d; without: %v, move %d", results[1].Policy, results[1].Move, results[0].Policy, results[0].Move)
		}
	}
}
