package mcts

import (
	"errors"
	"math"
	"strings"
	"testing"

	"bomberzero/internal/keys"
)

// materialSubtraction is the subtraction game with a material balance for
// the side to move, kept zero-sum: taking k stones gains k-1 pawns, so
// each side does best by taking 3. Quiescence reports the balance and
// counts its calls. The balance depends on the path, so searches of it run
// without the evaluation cache (Hash sees only the stones).
type materialSubtraction struct {
	subtraction
	balance float64
	calls   *int
}

func (g *materialSubtraction) Play(m int) {
	g.subtraction.Play(m)
	g.balance = -(g.balance + float64(m))
}
func (g *materialSubtraction) Quiescence() float64 {
	*g.calls++
	return g.balance
}
func (g *materialSubtraction) Clone() Game { c := *g; return &c }
func (g *materialSubtraction) CopyFrom(src Game) {
	*g = *src.(*materialSubtraction)
}

func TestLeafMaterialMixValue(t *testing.T) {
	// One playout: the root's value is the mixed value of the root itself,
	// (1-w)*v + w*tanh(q/scale), for the evaluator's v and the game's q.
	const v = 0.2
	ev := &tableEval{shape: subShape, max: 8, value: v}
	for _, tc := range []struct{ mix, scale float64 }{{0, 3}, {0.5, 3}, {1, 3}, {0.25, 7}} {
		calls := 0
		cfg := testConfig(1)
		cfg.CacheEntries = 0
		cfg.LeafMaterialMix, cfg.LeafMaterialScale = tc.mix, tc.scale
		r, err := searchOnce(cfg, ev, &materialSubtraction{subtraction{stones: 14}, 4, &calls})
		if err != nil {
			t.Fatal(err)
		}
		want := (1-tc.mix)*v + tc.mix*math.Tanh(4/tc.scale)
		if math.Abs(float64(r.Value)-want) > 1e-6 {
			t.Errorf("mix %g, scale %g: root value %g, want %g", tc.mix, tc.scale, r.Value, want)
		}
		if wantCalls := map[bool]int{true: 1, false: 0}[tc.mix > 0]; calls != wantCalls {
			t.Errorf("mix %g: %d calls of Quiescence, want %d", tc.mix, calls, wantCalls)
		}
	}
}

func TestLeafMaterialMixSteersTheSearch(t *testing.T) {
	// The evaluator values every position alike, so only the material can
	// tell the moves apart: the leaf's balance is for the side to move
	// there, so the search must negate it for the root player to find the
	// move that gains the most (take 3, index 2).
	calls := 0
	cfg := testConfig(100)
	cfg.CacheEntries = 0
	cfg.LeafMaterialMix = 1
	ev := &tableEval{shape: subShape, max: 8, value: 0}
	r, err := searchOnce(cfg, ev, &materialSubtraction{subtraction{stones: 30}, 0, &calls})
	if err != nil {
		t.Fatal(err)
	}
	if r.Move != 2 {
		t.Errorf("with the material mixed in the search plays %d (policy %v), want 2 (take 3 stones)", r.Move, r.Policy)
	}
}

func TestLeafMaterialMixNeedsAQuiescer(t *testing.T) {
	cfg := testConfig(4)
	cfg.LeafMaterialMix = 0.5
	ev := &tableEval{shape: subShape, max: 8, value: 0}
	_, err := searchOnce(cfg, ev, &subtraction{stones: 9})
	if err == nil || !strings.Contains(err.Error(), "leaf_material_mix") {
		t.Fatalf("searching a game without Quiescence with the mix on: error %v, want one naming leaf_material_mix", err)
	}
}

func TestLeafMaterialKeysValidated(t *testing.T) {
	for _, tc := range []struct {
		key        string
		mix, scale float64
	}{
		{"leaf_material_mix", -0.1, 3}, {"leaf_material_mix", 1.5, 3}, {"leaf_material_mix", math.NaN(), 3},
		{"leaf_material_scale", 0.5, 0}, {"leaf_material_scale", 0.5, -1}, {"leaf_material_scale", 0.5, math.Inf(1)},
	} {
		cfg := DefaultConfig()
		cfg.LeafMaterialMix, cfg.LeafMaterialScale = tc.mix, tc.scale
		var ke *keys.KeyError
		if err := cfg.Validate(); !errors.As(err, &ke) || ke.Key != tc.key {
			t.Errorf("mix %g, scale %g: Validate = %v, want a KeyError for %s", tc.mix, tc.scale, err, tc.key)
		}
	}
}
