package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/nn"
	"bomberzero/setup"
)

// TestSamplesNeverExceedTheRatioPerArrivedPosition replays random arrival
// sequences through trainSteps: after every generation the samples drawn
// stay within SampleRatio per position that ever arrived, no generation
// exceeds MaxSteps, and a generation with enough unused allowance trains.
func TestSamplesNeverExceedTheRatioPerArrivedPosition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		cfg := setup.TrainConfig{Batch: 1 + rng.IntN(300), SampleRatio: 0.1 + 8*rng.Float64(), MaxSteps: rng.IntN(400)}
		var arrived, samples int64
		for gen := range 30 {
			arrived += int64(rng.IntN(5000))
			steps := trainSteps(cfg, arrived, samples, 0)
			if steps < 0 || steps > cfg.MaxSteps {
				t.Fatalf("trial %d gen %d: %d steps, max %d", trial, gen, steps, cfg.MaxSteps)
			}
			// A generation stopped halfway resumes with what it did.
			half := steps / 2
			rest := trainSteps(cfg, arrived, samples+int64(half*cfg.Batch), half)
			if half+rest != steps {
				t.Fatalf("trial %d gen %d: %d steps, but %d + %d after a stop", trial, gen, steps, half, rest)
			}
			samples += int64(steps * cfg.Batch)
			if float64(samples) > cfg.SampleRatio*float64(arrived)+1e-9 {
				t.Fatalf("trial %d gen %d: %d samples for %d arrived positions exceed ratio %g", trial, gen, samples, arrived, cfg.SampleRatio)
			}
			left := int64(cfg.SampleRatio*float64(arrived)) - samples
			if steps < cfg.MaxSteps && left >= int64(cfg.Batch) {
				t.Fatalf("trial %d gen %d: stopped at %d steps with %d samples of allowance left", trial, gen, steps, left)
			}
		}
	}
}

func TestBatchTargetsAreDistributionsOverLegalMoves(t *testing.T) {
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	rules := agent.NewRules(v, 0)
	g := rules.NewGame(nil)
	text := g.Position().String()
	moves := g.LegalMoves(nil)
	s := rules.Shape()
	cfg := nn.TestConfig(s.Channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width))
	samples := []datasets.Sample{
		{Position: text, Ply: 0, GameLength: 40, Result: 1, Value: -1, PolicyIndex: []int32{int32(moves[0]), int32(moves[3])}, Visits: []float32{3, 1}},
		{Position: text, Ply: 6, GameLength: 13, Result: 0, Value: 0.5, PolicyIndex: []int32{int32(moves[2])}, Visits: []float32{1}},
		{Position: text, Ply: 150, GameLength: 151, Result: -1, Value: -1, PolicyIndex: []int32{int32(moves[1])}, Visits: []float32{0.5}},
	}
	b := nn.NewTrainBatch(cfg, len(samples))
	if err := fillBatch(rules, samples, 0.25, b); err != nil {
		t.Fatal(err)
	}
	if err := b.Check(cfg); err != nil {
		t.Fatal(err)
	}
	ps := s.PolicySize
	wantWDL := [][3]float32{{0.5, 0.5, 0}, {0.125, 0.875, 0}, {0, 0, 1}} // z = 0.75*result + 0.25*value
	wantLeft := []float32{40, 7, 1}                                      // game length - ply
	for j := range samples {
		sum := float32(0)
		for k, p := range b.Policy[j*ps : (j+1)*ps] {
			if p != 0 && b.Legal[j*ps+k] != 1 {
				t.Errorf("sample %d: target on illegal move %d", j, k)
			}
			sum += p
		}
		if math.Abs(float64(sum-1)) > 1e-6 {
			t.Errorf("sample %d: policy target sums to %g", j, sum)
		}
		if b.MovesLeft[j] != wantLeft[j] {
			t.Errorf("sample %d: moves-left target %v, want %v", j, b.MovesLeft[j], wantLeft[j])
		}
		for k := range 3 {
			if math.Abs(float64(b.WDL[3*j+k]-wantWDL[j][k])) > 1e-6 {
				t.Errorf("sample %d: WDL %v, want %v", j, b.WDL[3*j:3*j+3], wantWDL[j])
				break
			}
		}
	}
	if got := b.Policy[moves[0]]; math.Abs(float64(got-0.75)) > 1e-6 {
		t.Errorf("visits 3:1 give %g to the first move, want 0.75", got)
	}
	for _, ply := range []int32{-1, 40, 41} {
		past := []datasets.Sample{{Position: text, Ply: ply, GameLength: 40, PolicyIndex: []int32{int32(moves[0])}, Visits: []float32{1}}}
		if err := fillBatch(rules, past, 0, nn.NewTrainBatch(cfg, 1)); err == nil {
			t.Errorf("ply %d of a game of length 40 was accepted", ply)
		}
	}
	bad := []datasets.Sample{{Position: text, GameLength: 1, PolicyIndex: []int32{int32(ps - 1)}, Visits: []float32{1}}}
	if moves[len(moves)-1] != ps-1 {
		if err := fillBatch(rules, bad, 0, nn.NewTrainBatch(cfg, 1)); err == nil {
			t.Error("a policy target on an illegal move was accepted")
		}
	}
	garbled := []datasets.Sample{{Position: "not a position", GameLength: 1, PolicyIndex: []int32{0}, Visits: []float32{1}}}
	if err := fillBatch(rules, garbled, 0, nn.NewTrainBatch(cfg, 1)); err == nil {
		t.Error("a garbled position was accepted")
	}
}

func TestRateFactorDecaysLinearlyOverTheLastShareOfTheBudget(t *testing.T) {
	for _, c := range []struct {
		used, share, final, want float64
	}{
		{0, 0.25, 0.1, 1},
		{0.75, 0.25, 0.1, 1},     // the decay starts at 1 - share
		{0.875, 0.25, 0.1, 0.55}, // halfway through it
		{1, 0.25, 0.1, 0.1},      // the final factor at the budget's end
		{1.5, 0.25, 0.1, 0.1},    // never below it (a budget overrun)
		{0.5, 1, 0.5, 0.75},      // share 1 decays from the start
		{0.99, 0, 0.1, 1},        // share 0: constant
		{0.9, 0.25, 1, 1},        // final 1: constant
	} {
		if got := rateFactor(c.used, c.share, c.final); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("rateFactor(%v, %v, %v) = %v, want %v", c.used, c.share, c.final, got, c.want)
		}
	}
}

func TestValueMixIsTheTeachersTheLabelsOrTheTrainers(t *testing.T) {
	def, err := setup.DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	def.Train.ValueMix, def.Teacher.ValueMix, def.SelfPlay.LabelMix = 0.1, 0.5, 0.7
	for _, c := range []struct {
		name     string
		teaching bool
		labels   int
		engine   bool
		want     float64
	}{
		{"engine teacher's generation", true, 0, true, 0.5},
		{"engine teacher's generation in a labelled run", true, 500, true, 0.5},
		{"alpha-beta teacher's generation", true, 0, false, 0.1},
		{"self-play, no labels", false, 0, true, 0.1},
		{"self-play, labelled", false, 500, true, 0.7},
	} {
		cfg := def
		cfg.SelfPlay.LabelNodes = c.labels
		if !c.engine {
			cfg.Teacher.Player = "alphabeta"
		}
		if got := valueMix(cfg, c.teaching); got != c.want {
			t.Errorf("%s: value_mix %v, want %v", c.name, got, c.want)
		}
	}
}
