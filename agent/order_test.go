package agent

import (
	"math/rand/v2"
	"slices"
	"testing"

	"bomberzero/env"
)

func TestSortByKeyIsAStableDescendingSort(t *testing.T) {
	// Against the standard library's stable sort, on random lists with
	// many equal keys; each move must stay with its key.
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := rng.IntN(40)
		moves, keys := make([]env.Move, n), make([]int32, n)
		type pair struct {
			m env.Move
			k int32
		}
		want := make([]pair, n)
		for i := range moves {
			moves[i], keys[i] = env.Move(i), int32(rng.IntN(5))
			want[i] = pair{moves[i], keys[i]}
		}
		slices.SortStableFunc(want, func(a, b pair) int { return int(b.k - a.k) })
		SortByKey(moves, keys)
		for i := range want {
			if moves[i] != want[i].m || keys[i] != want[i].k {
				t.Fatalf("trial %d: position %d holds move %d key %d, want move %d key %d", trial, i, moves[i], keys[i], want[i].m, want[i].k)
			}
		}
	}
}
