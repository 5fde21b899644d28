package mcts

import (
	"math"
	"slices"
	"testing"
)

// The policy temperature raises each prior to 1/T and renormalizes: T = 2
// gives priors proportional to the square roots, T = 1 and T = 0 leave
// them as the network gave them, and a very low temperature keeps the
// largest prior rather than underflowing every one to zero (uniform).
func TestPolicyTemperatureReshapesThePriors(t *testing.T) {
	policy := []float32{0.64, 0.16, 0.04, 0.16, 0}
	moves := []int{0, 1, 2, 3, 4}
	sqrtSum := 0.8 + 0.4 + 0.2 + 0.4
	for _, c := range []struct {
		name string
		temp float64
		want []float64
	}{
		{"off (0)", 0, []float64{0.64, 0.16, 0.04, 0.16, 0}},
		{"one", 1, []float64{0.64, 0.16, 0.04, 0.16, 0}},
		{"two", 2, []float64{0.8 / sqrtSum, 0.4 / sqrtSum, 0.2 / sqrtSum, 0.4 / sqrtSum, 0}},
		{"a hundredth", 0.01, []float64{1, 0, 0, 0, 0}},
	} {
		s := &Searcher{cfg: Config{PolicyTemp: c.temp}}
		got := s.priorsOf(policy, moves)
		sum := 0.0
		for k, p := range got {
			sum += float64(p)
			if math.Abs(float64(p)-c.want[k]) > 1e-6 {
				t.Errorf("%s: priors %v, want %v", c.name, got, c.want)
				break
			}
		}
		if math.Abs(sum-1) > 1e-6 {
			t.Errorf("%s: priors %v sum to %g, want 1", c.name, got, sum)
		}
	}
}

// Above 1 the search spreads its playouts: with a sharp policy on a
// one-move game whose moves are all worth the same, the root's most
// visited move takes fewer of the visits at T = 2 than at T = 1, and the
// number of moves visited grows.
func TestPolicyTemperatureWidensTheRootsVisits(t *testing.T) {
	values := []float32{0, 0, 0, 0, 0, 0, 0, 0}
	policy := []float32{0.86, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02}
	spread := func(temp float64) (top int32, visited int) {
		g := &pick{values: values, picked: -1}
		cfg := testConfig(200)
		cfg.Solver = false
		cfg.PolicyTemp = temp
		s := searched(t, cfg, &tableEval{shape: pickShape(len(values)), max: 8, policy: policy}, g)
		tr := &s.slots[0].tree
		for _, ch := range tr.children(tr.root()) {
			top = max(top, ch.n)
			if ch.n > 0 {
				visited++
			}
		}
		return top, visited
	}
	top1, seen1 := spread(1)
	top2, seen2 := spread(2)
	if top2 >= top1 || seen2 < seen1 {
		t.Errorf("policy_temp 2: top move %d visits and %d moves visited; at 1: %d and %d; want fewer on the top move and at least as many moves", top2, seen2, top1, seen1)
	}
}

// A policy temperature shapes the search, not the training target: a
// Gumbel search at T = 2 writes the improved policy of the network's own
// priors, softmax(log p + sigma(completed Q)), computed here by hand from
// the tree it left, not of the flattened ones its tree holds.
func TestGumbelTargetUsesTheNetworksPriorsUnderATemperature(t *testing.T) {
	values := []float32{0.3, -0.2, 0.1, -0.5, 0.6, 0}
	policy := []float32{0.5, 0.2, 0.1, 0.1, 0.05, 0.05}
	cfg := testConfig(12)
	cfg.Gumbel, cfg.GumbelM, cfg.Solver = true, 4, false
	cfg.PolicyTemp = 2
	s := searched(t, cfg, &tableEval{shape: pickShape(len(values)), max: 8, policy: policy}, &pick{values: values, picked: -1})
	r := s.Result(0)
	tr := &s.slots[0].tree
	root := tr.root()
	n := int(root.nChild)
	prior, visits, q := make([]float64, n), make([]int32, n), make([]float64, n)
	flat := false
	for k := 0; k < n; k++ {
		ch := tr.at(root.first + int32(k))
		prior[k] = float64(policy[ch.move])
		flat = flat || math.Abs(float64(ch.prior)-prior[k]) > 1e-3
		visits[k] = ch.n
		if ch.n > 0 {
			q[k] = ch.w / float64(ch.n)
		}
	}
	if !flat {
		t.Fatalf("the tree's priors equal the network's at policy_temp 2: the test cannot tell the target's priors apart")
	}
	want := make([]float32, n)
	completedQPolicy(prior, visits, q, float64(root.value), cfg.GumbelCVisit, cfg.GumbelCScale, want)
	for k := range want {
		if math.Abs(float64(r.Policy[k]-want[k])) > 1e-5 {
			t.Fatalf("Gumbel target %v, want %v (the network's priors)", r.Policy, want)
		}
	}
}

// powRatios undoes its own power: tempering and raising back give the
// priors again once normalized.
func TestPowRatiosInvertsTheTemperature(t *testing.T) {
	p := []float64{0.6, 0.25, 0.1, 0.05, 0}
	got := slices.Clone(p)
	powRatios(got, 1/3.0)
	sum := powRatios(got, 3)
	for k := range got {
		got[k] /= sum
	}
	if powRatios([]float64{0, -1}, 2) != 0 {
		t.Errorf("powRatios of no positive entry: want sum 0")
	}
	for k := range p {
		if math.Abs(got[k]-p[k]) > 1e-12 {
			t.Fatalf("tempered and back: %v, want %v", got, p)
		}
	}
}
