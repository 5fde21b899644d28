package mcts

import (
	"runtime"
	"slices"
	"testing"
)

// TestArenaKeepsGroupsContiguousAndYieldsEveryNode allocates groups of
// children of several sizes (a block's worth, and more than a block) into
// an arena, twice with a reset between (blocks reused, and replaced where
// too short), and checks that every group reads back through at and group
// alike, that no group crosses into a block it does not own, and that all
// yields exactly the allocated nodes in order.
func TestArenaKeepsGroupsContiguousAndYieldsEveryNode(t *testing.T) {
	for _, c := range []struct {
		name   string
		rounds [][]int // group sizes, one list per round after a reset
	}{
		{"small groups", [][]int{{1, 9, 9, 30, 7}}},
		{"tails skipped", [][]int{{1, BlockNodes - 3, 5, BlockNodes - 1, 2, 2}}},
		{"a group longer than a block", [][]int{{1, 100, 2*BlockNodes + 5, 3, BlockNodes}}},
		{"reuse, then a run over reused blocks", [][]int{
			{1, 2 * BlockNodes, 50, BlockNodes},
			{1, BlockNodes - 10, 20, 3 * BlockNodes, 4},
			{1, BlockNodes + 1, BlockNodes / 2, BlockNodes/2 + 10, 5},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var a arena
			maxSpan := 0
			for r, sizes := range c.rounds {
				a.reset()
				var firsts []int32
				var want []int32
				id := int32(0)
				for _, n := range sizes {
					f := a.alloc(n)
					firsts = append(firsts, f)
					kids := a.group(f, int32(n))
					for k := range kids {
						kids[k] = node{move: id, parent: -1}
						want = append(want, f+int32(k))
						id++
					}
				}
				id = 0
				for g, n := range sizes {
					for k := int32(0); k < int32(n); k++ {
						if got := a.at(firsts[g] + k).move; got != id {
							t.Fatalf("round %d, group %d, child %d: node %d reads %d, want %d", r, g, k, firsts[g]+k, got, id)
						}
						id++
					}
				}
				if got := slices.Collect(a.all()); !slices.Equal(got, want) {
					t.Fatalf("round %d: all yields %d nodes, want %d (first difference near %v)", r, len(got), len(want), firstDiff(got, want))
				}
				maxSpan = max(maxSpan, a.span())
				if len(a.blocks) > (maxSpan+BlockNodes-1)/BlockNodes || a.span() < len(want) {
					t.Fatalf("round %d: span %d (largest %d) in %d blocks for %d nodes", r, a.span(), maxSpan, len(a.blocks), len(want))
				}
			}
		})
	}
}

func firstDiff(a, b []int32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestTreeGrowsWithinItsMemoryCap is issue 34's "go infinite stays under
// its memory cap": a tree filled to a small tree_memory_mb must allocate no
// more than its cap's one arena (no reroot happens in one search) plus a
// margin for the searcher's own buffers, and hold no more after a
// collection. A tree grown by append allocated each of its growing copies
// (some 4x its final size in total) and peaked at old and new copy alive.
func TestTreeGrowsWithinItsMemoryCap(t *testing.T) {
	const capMB = 4
	const margin = 256 << 10
	g := tttFrom(nil, nil)
	cfg := testConfig(MaxSims)
	cfg.Solver = false
	cfg.CacheEntries = 0
	cfg.TreeMemoryMB = capMB
	ev := newUniform(t, g)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := searched(t, cfg, ev, g)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if r := s.Result(0); r == nil || !r.TreeFull {
		t.Fatalf("result %+v: want a search ended by its full tree", r)
	}
	arenaBytes := uint64(capMB << 20 / 2) // one of the two arenas
	if total := after.TotalAlloc - before.TotalAlloc; total > arenaBytes+margin {
		t.Errorf("filling a %d MiB tree allocated %d bytes, want <= %d (its arena) + %d", capMB, total, arenaBytes, margin)
	}
	if in := int64(after.HeapInuse) - int64(before.HeapInuse); in > int64(arenaBytes+margin) {
		t.Errorf("a full %d MiB tree holds %d bytes of heap after a collection, want <= %d + %d", capMB, in, arenaBytes, margin)
	}
	if used := s.TreeSize(0); used < cfg.NodeBudget()*9/10 {
		t.Errorf("the full tree holds %d nodes of a budget of %d: want it filled", used, cfg.NodeBudget())
	}
	runtime.KeepAlive(s)
}
