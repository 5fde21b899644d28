package train

import (
	"math"
	"math/rand/v2"
	"slices"
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
	// AssessGames adds the same scores up by game: the samples as games of
	// 7, 0, 25 and 8 positions.
	games := [][]datasets.Sample{samples[:7], nil, samples[7:32], samples[32:]}
	sums, err := AssessGames(rules, net.Fold(), games)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for k, g := range games {
		var hits, pl float64
		for range g {
			if scores[i].Hit {
				hits++
			}
			pl += scores[i].PolicyLoss
			i++
		}
		if sums.Positions[k] != float64(len(g)) || sums.Sums[0][k] != hits || math.Abs(sums.Sums[1][k]-pl) > 1e-9*max(1, pl) {
			t.Errorf("game %d: positions %v, hits %v, policy loss %v; want %d, %v, %v", k, sums.Positions[k], sums.Sums[0][k], sums.Sums[1][k], len(g), hits, pl)
		}
	}
}

// Minus is the per-game difference of two networks' sums over the same
// games, and refuses sums over different games.
func TestGameSumsMinusIsThePairedPerGameDifference(t *testing.T) {
	sums := func(pos []float64, m float64) *GameSums {
		s := &GameSums{Positions: pos}
		for f := range s.Sums {
			for k := range pos {
				s.Sums[f] = append(s.Sums[f], m*float64(f+1)*float64(k+1))
			}
		}
		return s
	}
	cases := []struct {
		name    string
		a, base *GameSums
		want    *GameSums // nil: an error
	}{
		{"same games", sums([]float64{2, 3}, 3), sums([]float64{2, 3}, 1), sums([]float64{2, 3}, 2)},
		{"no games", sums(nil, 3), sums(nil, 1), sums(nil, 2)},
		{"other sizes", sums([]float64{2, 3}, 3), sums([]float64{2, 4}, 1), nil},
		{"other count", sums([]float64{2, 3}, 3), sums([]float64{2}, 1), nil},
	}
	for _, c := range cases {
		got, err := c.a.Minus(c.base)
		if c.want == nil {
			if err == nil {
				t.Errorf("%s: no error", c.name)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(got.Positions, c.want.Positions) {
			t.Errorf("%s: positions %v, want %v", c.name, got.Positions, c.want.Positions)
		}
		for f := range got.Sums {
			if len(got.Sums[f]) != len(c.want.Sums[f]) || (len(got.Sums[f]) > 0 && !slices.Equal(got.Sums[f], c.want.Sums[f])) {
				t.Errorf("%s: figure %d: %v, want %v", c.name, f, got.Sums[f], c.want.Sums[f])
			}
		}
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
