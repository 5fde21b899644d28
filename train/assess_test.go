package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/nn"
)

// randomSamples plays a random fbgc game and makes one sample of each of
// its first n positions, with a random visit distribution over a few legal
// moves and a random result.
func randomSamples(t *testing.T, rules *agent.Rules, rng *rand.Rand, n int) []datasets.Sample {
	t.Helper()
	g := rules.NewGame(nil)
	var out []datasets.Sample
	for ply := 0; ply < n; ply++ {
		if over, _ := g.Status(); over {
			break
		}
		moves := g.LegalMoves(nil)
		s := datasets.Sample{Position: g.Position().String(), Ply: int32(ply), GameLength: int32(n + 5), Result: float32(rng.IntN(3) - 1)}
		for _, k := range rng.Perm(len(moves))[:1+rng.IntN(min(4, len(moves)))] {
			s.PolicyIndex = append(s.PolicyIndex, int32(moves[k]))
			s.Visits = append(s.Visits, float32(1+rng.IntN(9)))
		}
		out = append(out, s)
		g.Play(moves[rng.IntN(len(moves))])
	}
	return out
}

// Assess computes its losses from the folded inference network; the
// trainer's eval-mode graph computes the same losses by another path (the
// unfolded network, BatchNorm on its running statistics, fillBatch's
// targets). After a few training steps have moved the weights and the
// running statistics, the two must agree.
func TestAssessAgreesWithTheTrainersEvalLoss(t *testing.T) {
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	rules := agent.NewRules(v, 0)
	s := rules.Shape()
	cfg := nn.TestConfig(s.Channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width))
	net, err := nn.New(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := nn.NewTrainer(net, nn.DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	samples := randomSamples(t, rules, rng, 40)
	b := nn.NewTrainBatch(cfg, len(samples))
	if err := fillBatch(rules, samples, 0, b); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := tr.TrainStep(b); err != nil {
			t.Fatal(err)
		}
	}
	want, err := tr.EvalLoss(b)
	if err != nil {
		t.Fatal(err)
	}
	scores, err := Assess(rules, net.Fold(), samples)
	if err != nil {
		t.Fatal(err)
	}
	if len(scores) != len(samples) {
		t.Fatalf("%d scores for %d samples", len(scores), len(samples))
	}
	var policy, value float64
	for _, sc := range scores {
		policy += sc.PolicyLoss / float64(len(scores))
		value += sc.ValueLoss / float64(len(scores))
	}
	if math.Abs(policy-want.Policy) > 1e-3*want.Policy || math.Abs(value-want.Value) > 1e-3*want.Value {
		t.Errorf("Assess: policy loss %.6f, value loss %.6f; trainer's eval loss %.6f, %.6f", policy, value, want.Policy, want.Value)
	}
}

// scorePosition on hand-made outputs: the hit, both cross-entropies and
// the squared error, and an error naming a target without visits.
func TestScorePositionOnKnownOutputs(t *testing.T) {
	policy := []float32{0.1, 0.6, 0.3, 0}
	smp := datasets.Sample{Position: "x", Result: -1, PolicyIndex: []int32{2, 1}, Visits: []float32{3, 1}}
	sc, err := scorePosition(&smp, policy, []float32{0.2, 0.3, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	wantPolicy := -(0.75*math.Log(0.3) + 0.25*math.Log(0.6))
	if sc.Hit || math.Abs(sc.PolicyLoss-wantPolicy) > 1e-6 || math.Abs(sc.ValueLoss+math.Log(0.5)) > 1e-6 || math.Abs(sc.ValueError-0.49) > 1e-6 {
		t.Errorf("score %+v; want no hit (network 1, target 2), policy loss %.6f, value loss %.6f, value error 0.49", sc, wantPolicy, -math.Log(0.5))
	}
	smp.PolicyIndex, smp.Visits = []int32{1}, []float32{1}
	if sc, _ := scorePosition(&smp, policy, []float32{0.2, 0.3, 0.5}); !sc.Hit {
		t.Errorf("network and target both favour move 1, no hit")
	}
	smp.PolicyIndex, smp.Visits = []int32{3}, []float32{1}
	if sc, _ := scorePosition(&smp, policy, []float32{0.2, 0.3, 0.5}); math.IsInf(sc.PolicyLoss, 0) || sc.PolicyLoss < 60 {
		t.Errorf("a target move of probability 0: policy loss %v, want large and finite", sc.PolicyLoss)
	}
	smp.Visits = []float32{0}
	if _, err := scorePosition(&smp, policy, []float32{0.2, 0.3, 0.5}); err == nil {
		t.Errorf("a target without visits gave no error")
	}
}
