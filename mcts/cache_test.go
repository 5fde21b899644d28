package mcts

import (
	"slices"
	"testing"
)

func TestCacheReturnsWhatWasPutUnderTheSameHash(t *testing.T) {
	c, err := NewCache(100, 4)
	if err != nil {
		t.Fatal(err)
	}
	c.Put(42, 0.25, []float32{0.5, 0.5})
	c.Put(7, -0.5, []float32{0.1, 0.2, 0.7})
	if v, p, ok := c.Get(42, 2); !ok || v != 0.25 || !slices.Equal(p, []float32{0.5, 0.5}) {
		t.Errorf("Get(42) = %g %v %v, want 0.25 [0.5 0.5] true", v, p, ok)
	}
	if v, p, ok := c.Get(7, 3); !ok || v != -0.5 || !slices.Equal(p, []float32{0.1, 0.2, 0.7}) {
		t.Errorf("Get(7) = %g %v %v, want -0.5 [0.1 0.2 0.7] true", v, p, ok)
	}
	if _, _, ok := c.Get(43, 2); ok {
		t.Error("Get of a hash never put hit, want a miss")
	}
	if _, _, ok := c.Get(42, 3); ok {
		t.Error("Get with a different legal move count hit, want a miss")
	}
	c.Put(99, 1, []float32{0.2, 0.2, 0.2, 0.2, 0.2}) // more moves than the cache holds
	if _, _, ok := c.Get(99, 5); ok {
		t.Error("a position with more moves than maxMoves was stored")
	}
	if hits, misses := c.Stats(); hits != 2 || misses != 3 {
		t.Errorf("stats %d hits %d misses, want 2 and 3", hits, misses)
	}
}

func TestCacheEntryIsReplacedBySameSlotHash(t *testing.T) {
	c, err := NewCache(1, 2) // one slot: every hash shares it
	if err != nil {
		t.Fatal(err)
	}
	c.Put(1, 0.5, []float32{1})
	c.Put(2, -0.5, []float32{1})
	if _, _, ok := c.Get(1, 1); ok {
		t.Error("the replaced entry still hits")
	}
	if v, _, ok := c.Get(2, 1); !ok || v != -0.5 {
		t.Errorf("Get(2) = %g %v, want -0.5 true", v, ok)
	}
}

func TestNewCacheRejectsEmptySizes(t *testing.T) {
	for _, c := range [][2]int{{0, 4}, {4, 0}, {-1, 1}} {
		if _, err := NewCache(c[0], c[1]); err == nil {
			t.Errorf("NewCache(%d, %d) succeeded, want an error", c[0], c[1])
		}
	}
}

func TestCacheGivesTheSameSearchWithFewerEvaluations(t *testing.T) {
	// A deterministic evaluator values a position the same way every
	// time, so answering transpositions from the cache must not change a
	// single visit, only the number of positions sent to the evaluator.
	var results [2]Result
	var evaluated [2]int
	for i, entries := range []int{0, 4096} {
		cfg := testConfig(600)
		cfg.CacheEntries = entries
		ev := &tableEval{shape: tttShape, max: 8, policy: []float32{3, 1, 3, 1, 4, 1, 3, 1, 3}, value: 0.1}
		r, err := searchOnce(cfg, ev, newTicTacToe())
		if err != nil {
			t.Fatal(err)
		}
		results[i] = r
		for _, n := range ev.sizes {
			evaluated[i] += n
		}
	}
	if !slices.Equal(results[0].Policy, results[1].Policy) || results[0].Value != results[1].Value || results[0].Move != results[1].Move {
		t.Errorf("with cache: policy %v value %g move %d; without: %v %g %d; want equal",
			results[1].Policy, results[1].Value, results[1].Move, results[0].Policy, results[0].Value, results[0].Move)
	}
	if evaluated[1] >= evaluated[0] {
		t.Errorf("evaluated %d positions with the cache, %d without; want fewer with", evaluated[1], evaluated[0])
	}
	t.Logf("positions evaluated: %d without cache, %d with", evaluated[0], evaluated[1])
}
