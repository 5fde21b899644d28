package mcts

import (
	"errors"
	"math"
	"testing"

	"bomberzero/eval"
)

func TestUniformGivesEqualPriorsToLegalMovesAndADraw(t *testing.T) {
	u, err := NewUniform(tttShape, 2)
	if err != nil {
		t.Fatal(err)
	}
	b := eval.NewBatch(tttShape, 2)
	for _, m := range []int{0, 4, 8} {
		b.Legal[m] = 1
	}
	b.Legal[9+3] = 1
	b.Policy[1] = 5 // stale value must be cleared
	if err := u.Evaluate(b); err != nil {
		t.Fatal(err)
	}
	want := []float32{1.0 / 3, 0, 0, 0, 1.0 / 3, 0, 0, 0, 1.0 / 3, 0, 0, 0, 1, 0, 0, 0, 0, 0}
	for k, w := range want {
		if b.Policy[k] != w {
			t.Errorf("policy[%d] = %g, want %g", k, b.Policy[k], w)
		}
	}
	for j := 0; j < 2; j++ {
		if b.WDL[3*j] != 0 || b.WDL[3*j+1] != 1 || b.WDL[3*j+2] != 0 {
			t.Errorf("entry %d WDL %v, want a certain draw", j, b.WDL[3*j:3*j+3])
		}
	}
	b.Size = 3
	if err := u.Evaluate(b); err == nil {
		t.Error("Evaluate of an overfull batch succeeded, want an error")
	}
}

// exactRandomPlayout returns the expected result, for the side to move, of
// uniformly random play in the subtraction game from n stones.
func exactRandomPlayout(n int) float64 {
	if n == 0 {
		return -1
	}
	sum, count := 0.0, 0
	for k := 1; k <= 3 && k <= n; k++ {
		sum -= exactRandomPlayout(n - k)
		count++
	}
	return sum / float64(count)
}

func TestRolloutValueIsTheMeanOfRandomPlayouts(t *testing.T) {
	// Each playout is +-1, so the mean of P playouts has standard error
	// at most 1/sqrt(P); the estimate must lie within 5 of them.
	const playouts = 4000
	r, err := NewRollout(subShape, 4, playouts, 100, 3)
	if err != nil {
		t.Fatal(err)
	}
	b := eval.NewBatch(subShape, 4)
	games := []Game{&subtraction{1}, &subtraction{4}, &subtraction{6}, &subtraction{9}}
	for j, g := range games {
		for _, m := range g.LegalMoves(nil) {
			b.Legal[j*3+m] = 1
		}
	}
	if err := r.EvaluateGames(games, b); err != nil {
		t.Fatal(err)
	}
	for j, g := range games {
		v := float64(b.WDL[3*j] - b.WDL[3*j+2])
		want := exactRandomPlayout(g.(*subtraction).stones)
		if math.Abs(v-want) > 5/math.Sqrt(playouts) {
			t.Errorf("%d stones: rollout value %.3f, want %.3f within %.3f", g.(*subtraction).stones, v, want, 5/math.Sqrt(playouts))
		}
	}
	if b.WDL[0] != 1 {
		t.Errorf("1 stone: WDL %v, want a certain win", b.WDL[0:3])
	}
	if err := r.Evaluate(b); !errors.Is(err, errNeedsGames) {
		t.Errorf("Evaluate from planes: %v, want errNeedsGames", err)
	}
}

func TestRolloutLongerThanMaxPliesIsADraw(t *testing.T) {
	r, err := NewRollout(wideShape, 1, 10, wideDepth-1, 3)
	if err != nil {
		t.Fatal(err)
	}
	b := eval.NewBatch(wideShape, 1)
	if err := r.EvaluateGames([]Game{&wide{}}, b); err != nil {
		t.Fatal(err)
	}
	if b.WDL[1] != 1 {
		t.Errorf("WDL %v, want a certain draw", b.WDL[:3])
	}
}

// materialGame is a subtraction game that reports material.
type materialGame struct {
	subtraction
	balance float64
}

func (g *materialGame) Material() float64 { return g.balance }

func TestMaterialValueIsTanhOfBalanceOverScale(t *testing.T) {
	m, err := NewMaterial(subShape, 2, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := eval.NewBatch(subShape, 2)
	b.Legal[0], b.Legal[3] = 1, 1
	games := []Game{&materialGame{subtraction{2}, 3}, &materialGame{subtraction{2}, -1.5}}
	if err := m.EvaluateGames(games, b); err != nil {
		t.Fatal(err)
	}
	for j, want := range []float64{math.Tanh(1), math.Tanh(-0.5)} {
		if v := float64(b.WDL[3*j] - b.WDL[3*j+2]); math.Abs(v-want) > 1e-6 {
			t.Errorf("entry %d: value %.6f, want %.6f", j, v, want)
		}
		if s := b.WDL[3*j] + b.WDL[3*j+1] + b.WDL[3*j+2]; math.Abs(float64(s)-1) > 1e-6 {
			t.Errorf("entry %d: WDL sums to %g, want 1", j, s)
		}
	}
	if err := m.EvaluateGames([]Game{&subtraction{2}, &subtraction{2}}, b); err == nil {
		t.Error("material of a game without Material succeeded, want an error")
	}
}

func TestNetworkFreeEvaluatorsRejectBadParameters(t *testing.T) {
	bad := eval.Shape{}
	if _, err := NewUniform(bad, 1); err == nil {
		t.Error("NewUniform with an empty shape succeeded")
	}
	if _, err := NewUniform(subShape, 0); err == nil {
		t.Error("NewUniform with max batch 0 succeeded")
	}
	if _, err := NewMaterial(subShape, 1, 0, nil); err == nil {
		t.Error("NewMaterial with scale 0 succeeded")
	}
	if _, err := NewMaterial(tttShape, 1, 1, []float64{1}); err == nil {
		t.Error("NewMaterial with 1 plane weight for 2 planes succeeded")
	}
	if _, err := NewRollout(subShape, 1, 0, 10, 1); err == nil {
		t.Error("NewRollout with 0 playouts succeeded")
	}
}

// brokenEval returns a NaN value.
type brokenEval struct{ Uniform }

func (e *brokenEval) Evaluate(b *eval.Batch) error {
	if err := e.Uniform.Evaluate(b); err != nil {
		return err
	}
	b.WDL[0] = float32(math.NaN())
	return nil
}

func TestSearchReportsEvaluatorFaults(t *testing.T) {
	u, err := NewUniform(tttShape, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := searchOnce(testConfig(10), &brokenEval{*u}, newTicTacToe()); err == nil {
		t.Error("a NaN value was accepted, want an error")
	}
	m, err := NewMaterial(tttShape, 4, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := searchOnce(testConfig(10), m, newTicTacToe()); err == nil {
		t.Error("material of tic-tac-toe (no Material method) was accepted, want an error")
	}
	// A game whose moves fall outside the policy.
	if _, err := searchOnce(testConfig(10), u, &pick{values: make([]float32, 20), picked: -1}); err == nil {
		t.Error("move index 19 with policy size 9 was accepted, want an error")
	}
}
