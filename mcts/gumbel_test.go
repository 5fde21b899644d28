package mcts

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCompletedQPolicyMatchesHandComputedExample(t *testing.T) {
	// Priors 0.5 0.3 0.2; visits 2 1 0; mean values 0.5 -0.5 (third
	// unvisited); root value 0.1; c_visit 50, c_scale 0.1. By hand:
	//   v_mix = (0.1 + 3/0.8 * (0.5*0.5 + 0.3*-0.5)) / (1+3) = 0.475/4 = 0.11875
	//   sigma(q) = (50+2)*0.1 * (q+1)/2 = 2.6(q+1) = 3.9, 1.3, 2.90875
	//   logits   = ln 0.5 + 3.9, ln 0.3 + 1.3, ln 0.2 + 2.90875
	//            = 3.2068528, 0.0960272, 1.2993121
	//   softmax  = 0.8382165, 0.0373544, 0.1244291
	//   value    = 0.8382165*0.5 + 0.0373544*-0.5 + 0.1244291*0.11875 = 0.4152070
	prior := []float64{0.5, 0.3, 0.2}
	visits := []int32{2, 1, 0}
	q := []float64{0.5, -0.5, 0}
	out := make([]float32, 3)
	v := completedQPolicy(prior, visits, q, 0.1, 50, 0.1, out)
	want := []float64{0.8382165, 0.0373544, 0.1244291}
	for k := range want {
		if math.Abs(float64(out[k])-want[k]) > 1e-6 {
			t.Errorf("pi'[%d] = %.7f, want %.7f", k, out[k], want[k])
		}
	}
	if math.Abs(q[2]-0.11875) > 1e-12 {
		t.Errorf("completed value of the unvisited move %.7f, want v_mix 0.11875", q[2])
	}
	if math.Abs(v-0.4152070) > 1e-6 {
		t.Errorf("value %.7f, want 0.4152070", v)
	}
}

func TestCompletedQWithoutVisitsIsRootValue(t *testing.T) {
	q := []float64{0, 0}
	completeQ([]float64{0.6, 0.4}, []int32{0, 0}, q, -0.3)
	if q[0] != -0.3 || q[1] != -0.3 {
		t.Errorf("completed values %v, want both the root value -0.3", q)
	}
}

// pickValues returns n move values: one best move worth +1 at a random
// index, the others in [-1, 0].
func pickValues(r *rand.Rand, n int) (values []float32, best int) {
	values = make([]float32, n)
	best = r.IntN(n)
	for k := range values {
		values[k] = -r.Float32()
	}
	values[best] = 1
	return values, best
}

func TestGumbelWithAllMovesAndPerfectValuesPlaysArgmax(t *testing.T) {
	// Every move ends the game, so one visit reveals its exact value; with
	// all moves considered, sequential halving must keep and play the best.
	r := rand.New(rand.NewPCG(3, 4))
	for seed := uint64(0); seed < 100; seed++ {
		values, best := pickValues(r, 8)
		cfg := testConfig(40)
		cfg.Gumbel, cfg.GumbelM, cfg.Seed = true, 8, seed
		ev, err := NewUniform(pickShape(8), 8)
		if err != nil {
			t.Fatal(err)
		}
		res, err := searchOnce(cfg, ev, &pick{values: values, picked: -1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Move != best || policyOf(res, best) < 0.99 {
			t.Fatalf("seed %d: played %d with target %.3f on the best move %d, want it played with >= 0.99 (values %v)",
				seed, res.Move, policyOf(res, best), best, values)
		}
	}
}

func TestGumbelSequentialHalvingSchedule(t *testing.T) {
	// 4 considered moves, 16 playouts after the root's own: 2 phases; the
	// first gives each move 16/(2*4) = 2 visits, the last shares the
	// remaining 8 between the 2 survivors: visits 6 6 2 2.
	values := []float32{0.9, -0.2, 0.5, -0.8}
	cfg := testConfig(17)
	cfg.Gumbel, cfg.GumbelM = true, 4
	cfg.Solver = false // the solver would settle this one-move game at the root's expansion
	ev, err := NewUniform(pickShape(4), 8)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSearcher(cfg, ev, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Reset(0, &pick{values: values, picked: -1}); err != nil {
		t.Fatal(err)
	}
	if err := s.SearchAll(); err != nil {
		t.Fatal(err)
	}
	tr := &s.slots[0].tree
	var visits []int
	for k := int32(0); k < tr.root().nChild; k++ {
		visits = append(visits, int(tr.at(tr.root().first+k).n))
	}
	if visits[0] != 6 || visits[2] != 6 || visits[1] != 2 || visits[3] != 2 {
		t.Errorf("visits %v, want [6 2 6 2] (the two best moves survive the halving)", visits)
	}
	if m := s.Result(0).Move; m != 0 {
		t.Errorf("played %d, want the best move 0", m)
	}
}

func TestGumbelAtLowPlayoutsImprovesOnPriorInWideGame(t *testing.T) {
	// 300 moves, 8 playouts: far fewer than the moves. Gumbel MuZero's
	// policy improvement says the chosen move and the improved policy are
	// worth more, on average, than a move drawn from the prior.
	const n, seeds = 300, 200
	r := rand.New(rand.NewPCG(5, 6))
	priorValue, chosenValue, targetValue := 0.0, 0.0, 0.0
	for seed := uint64(0); seed < seeds; seed++ {
		values := make([]float32, n)
		policy := make([]float32, n)
		sum := float32(0)
		for k := range values {
			values[k] = 2*r.Float32() - 1
			policy[k] = float32(math.Exp(2 * r.NormFloat64()))
			sum += policy[k]
		}
		for k := range values {
			priorValue += float64(policy[k] / sum * values[k])
		}
		cfg := testConfig(9)
		cfg.Gumbel, cfg.GumbelM, cfg.Seed = true, 8, seed
		cfg.Solver = false // the solver would read every move's value off at the root's expansion
		ev := &tableEval{shape: pickShape(n), max: 4, policy: policy}
		res, err := searchOnce(cfg, ev, &pick{values: values, picked: -1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Sims != 9 {
			t.Fatalf("seed %d: %d playouts, want 9", seed, res.Sims)
		}
		chosenValue += float64(values[res.Move])
		for k, m := range res.Moves {
			targetValue += float64(res.Policy[k] * values[m])
		}
	}
	priorValue /= seeds
	chosenValue /= seeds
	targetValue /= seeds
	t.Logf("mean value: prior %.3f, chosen move %.3f, improved policy %.3f", priorValue, chosenValue, targetValue)
	if chosenValue < priorValue+0.3 || targetValue < priorValue+0.3 {
		t.Errorf("mean value of the chosen move %.3f and of the improved policy %.3f, want both >= prior's %.3f + 0.3",
			chosenValue, targetValue, priorValue)
	}
}

func TestGumbelConsidersTopMovesOfGumbelPlusLogit(t *testing.T) {
	// With a prior that puts almost all mass on 3 moves of 50 and m = 3,
	// Gumbel-top-k must nearly always sample exactly those three.
	policy := make([]float32, 50)
	for k := range policy {
		policy[k] = 1e-9
	}
	policy[7], policy[21], policy[42] = 1, 1, 1
	tr := &tree{}
	tr.reset()
	moves := make([]int, 50)
	pri := make([]float32, 50)
	for k := range moves {
		moves[k], pri[k] = k, policy[k]/3
	}
	tr.expand(0, moves, pri, 0)
	cfg := testConfig(10)
	cfg.GumbelM = 3
	var gr gumbelRoot
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		gr.start(tr, &cfg, rng, 9)
		got := slices.Clone(gr.cand)
		slices.Sort(got)
		if !slices.Equal(got, []int32{7, 21, 42}) {
			t.Fatalf("sample %d considered %v, want [7 21 42]", i, got)
		}
	}
}
