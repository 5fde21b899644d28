package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"bomberzero/eval"
)

// TestEvaluateRowsAreExact holds ExactRows' promise: a position's policy,
// WDL and moves-left outputs have the same bits evaluated alone, at any
// place in batches of every size from 1 to 13 (every bucket of an
// Evaluator, partial ones included) and beside any other positions. MCTS
// batches depend on timing and on the other games of a worker; with this,
// a game's search does not.
func TestEvaluateRowsAreExact(t *testing.T) {
	if !ExactRows() {
		t.Skipf("this build's products (%s) do not promise batch-independent rows", BLASCore())
	}
	for _, cfg := range []Config{
		tinyConfig(),
		{Channels: 30, Height: 10, Width: 10, PolicyPlanes: 12, Blocks: 1, Filters: 16, PolicyFilters: 4, ValueFilters: 2, ValueHidden: 16},
		{Channels: 5, Height: 7, Width: 9, PolicyPlanes: 3, Blocks: 1, Filters: 8, PolicyFilters: 2, ValueFilters: 1, ValueHidden: 8},
	} {
		t.Run(fmt.Sprintf("%dx%d", cfg.Height, cfg.Width), func(t *testing.T) {
			net, err := New(cfg, 3)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(4, 4))
			randomizeStats(net, r)
			const n = 13
			src := randomBatch(cfg, n, r)
			s := cfg.Shape()
			in, ps := s.InputSize(), s.PolicySize
			ev, err := NewEvaluator(net.Fold(), 16)
			if err != nil {
				t.Fatal(err)
			}
			// evaluate runs the positions idx (in that order) as one batch and
			// returns each one's outputs as bits.
			evaluate := func(idx []int) [][]uint32 {
				b := eval.NewBatch(s, len(idx))
				b.MovesLeft = make([]float32, len(idx))
				for k, p := range idx {
					copy(b.Planes[k*in:][:in], src.Planes[p*in:][:in])
					copy(b.Legal[k*ps:][:ps], src.Legal[p*ps:][:ps])
				}
				if err := ev.Evaluate(b); err != nil {
					t.Fatal(err)
				}
				out := make([][]uint32, len(idx))
				for k := range idx {
					var bits []uint32
					for _, v := range b.Policy[k*ps:][:ps] {
						bits = append(bits, math.Float32bits(v))
					}
					for _, v := range append(b.WDL[k*3:][:3:3], b.MovesLeft[k]) {
						bits = append(bits, math.Float32bits(v))
					}
					out[k] = bits
				}
				return out
			}
			alone := make([][]uint32, n)
			for p := range n {
				alone[p] = evaluate([]int{p})[0]
			}
			for size := 2; size <= n; size++ {
				// The positions from a rotating start, in reverse every other size.
				idx := make([]int, size)
				for k := range idx {
					idx[k] = (k + 3*size) % n
					if size%2 == 0 {
						idx[k] = (n - 1 - k + size) % n
					}
				}
				for k, got := range evaluate(idx) {
					p := idx[k]
					for i := range got {
						if got[i] != alone[p][i] {
							t.Fatalf("position %d, output %d: %v at place %d of a batch of %d, %v alone",
								p, i, math.Float32frombits(got[i]), k, size, math.Float32frombits(alone[p][i]))
						}
					}
				}
			}
		})
	}
}
