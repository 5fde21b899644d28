package mcts

import "math"

// Result is the outcome of one search: what the slot's position is worth,
// the training target over its legal moves and the move to play. The
// slices are owned by the Searcher and stay valid until the slot's next
// Play or Reset.
type Result struct {
	// Moves holds the policy indices of the root's legal moves.
	Moves []int
	// Policy is the training target over Moves: the visit distribution
	// (PUCT) or the completed-Q improved policy (Gumbel). It sums to 1.
	Policy []float32
	// Value is the search's value of the root for the side to move, in
	// [-1, 1]: the mean over all visits (PUCT), or the expected completed
	// value under the improved policy (Gumbel).
	Value float32
	// Move is the move to play (a policy index), or -1 when the game is
	// already over (Moves is then empty and Value is the rules' value).
	Move int
	// Full reports a full search; a cheap search (playout-cap
	// randomization) is played but not trained on.
	Full bool
	// Sims is the number of playouts this search made (reused visits not
	// counted).
	Sims int
	// Proven reports that the MCTS-solver proved the root's value: Value
	// is then exactly +1 (a forced win), 0 (a forced draw) or -1 (a forced
	// loss), and for a win or a draw Policy is shared equally by the moves
	// that force it.
	Proven bool
	// TreeFull reports a search that ended before Sims playouts because
	// its tree reached the node budget (Config.NodeBudget); Move is then
	// the best move of the visits so far.
	TreeFull bool
}

// visitPolicy writes the root's visit distribution into r.Policy (the
// priors when no child has a visit).
func visitPolicy(t *tree, r *Result) {
	root := t.root()
	sum := 0.0
	for k := int32(0); k < root.nChild; k++ {
		sum += float64(t.at(root.first + k).n)
	}
	for k := int32(0); k < root.nChild; k++ {
		ch := t.at(root.first + k)
		p := float64(ch.prior)
		if sum > 0 {
			p = float64(ch.n) / sum
		}
		r.Policy = append(r.Policy, float32(p))
	}
}

// maskLosses removes the root moves proven lost (for the side to move)
// from r.Policy while some move is not proven lost: their share goes to
// the others in proportion, or, when none of those was visited, the
// others' priors make the policy.
func maskLosses(t *tree, r *Result) {
	root := t.root()
	children := t.children(root)
	lost, nOpen := false, 0
	for k := range children {
		if children[k].provenLoss() {
			lost = true
		} else {
			nOpen++
		}
	}
	if !lost || nOpen == 0 {
		return
	}
	sum := float32(0)
	for k := range children {
		if children[k].provenLoss() {
			r.Policy[k] = 0
		}
		sum += r.Policy[k]
	}
	if sum <= 0 {
		for k := range children {
			if !children[k].provenLoss() {
				r.Policy[k] = children[k].prior
				sum += r.Policy[k]
			}
		}
	}
	for k := range r.Policy {
		switch {
		case sum > 0:
			r.Policy[k] /= sum
		case !children[k].provenLoss():
			r.Policy[k] = 1 / float32(nOpen)
		}
	}
}

// sampleMove returns an index into policy drawn with probability
// proportional to policy^(1/temp). Temp 0 returns a most probable index:
// among equally probable ones the one with the highest value (values[k] is
// move k's mean value for the side choosing; nil: none), and among those
// one drawn uniformly, never the first by position (the order of the moves
// is the rules engine's generation order, which differs between the
// colours, so taking the first would bias one colour's play). u is a
// uniform number in [0, 1).
func sampleMove(policy []float32, values []float64, temp, u float64) int {
	best := 0
	for k, p := range policy {
		if p > policy[best] {
			best = k
		}
	}
	if temp == 0 || policy[best] <= 0 {
		return pickBest(policy, values, policy[best], u)
	}
	top := float64(policy[best])
	sum := 0.0
	for _, p := range policy {
		if p > 0 {
			sum += math.Pow(float64(p)/top, 1/temp)
		}
	}
	x := u * sum
	for k, p := range policy {
		if p > 0 {
			x -= math.Pow(float64(p)/top, 1/temp)
			if x < 0 {
				return k
			}
		}
	}
	return best
}

// pickBest returns, among the indices whose policy is top, one with the
// highest value (all of them when values is nil), drawn uniformly with u.
func pickBest(policy []float32, values []float64, top float32, u float64) int {
	value := func(k int) float64 {
		if values == nil {
			return 0
		}
		return values[k]
	}
	bestV, ties := math.Inf(-1), 0
	for k, p := range policy {
		if p != top {
			continue
		}
		switch v := value(k); {
		case v > bestV:
			bestV, ties = v, 1
		case v == bestV:
			ties++
		}
	}
	pick := min(int(u*float64(ties)), ties-1)
	for k, p := range policy {
		if p == top && value(k) == bestV {
			if pick == 0 {
				return k
			}
			pick--
		}
	}
	return 0
}
