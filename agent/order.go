package agent

import "bomberzero/env"

// SortByKey sorts moves by their keys (keys[i] belongs to moves[i], and
// moves with it), largest first, keeping the order of equal keys: an
// insertion sort, stable and allocation-free for the short move lists of
// one position. The alpha-beta players order their moves by material gain
// with it, and Quiescence its captures.
func SortByKey(moves []env.Move, keys []int32) {
	for i := 1; i < len(moves); i++ {
		m, k := moves[i], keys[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			moves[j], keys[j] = moves[j-1], keys[j-1]
		}
		moves[j], keys[j] = m, k
	}
}
