package mcts

import (
	"math"
	"math/rand/v2"
)

// cpuct returns the exploration constant for a parent with n visits
// (AlphaZero's slowly growing c(s)).
func (c *Config) cpuct(n float64) float64 {
	return c.CPUCTInit + math.Log((1+n+c.CPUCTBase)/c.CPUCTBase)
}

// pickPUCT returns the child of node p with the highest PUCT score
//
//	Q(c) + c(N) * P(c) * sqrt(N) / (1 + N(c))
//
// where N counts p's visits (its own evaluation included) and virtual
// visits, Q counts virtual visits as losses, and an unvisited child gets
// the first-play-urgency value: p's own value minus
// fpuReduction*sqrt(sum of the priors of the visited children). Ties are
// broken uniformly at random with rng, never by the children's order: the
// order is the rules engine's move-generation order, which is not the same
// for both colours (it scans the board from one side), and with equal
// priors (network-free evaluators) most children tie, so a fixed
// tie-break would let one colour's search look only at the moves generated
// first (a colour bias found in chess self-play: Black won 86 of 100 games).
func (t *tree) pickPUCT(cfg *Config, p int32, fpuReduction float64, rng *rand.Rand) int32 {
	par := t.at(p)
	parentN := float64(par.n) + float64(par.vl)
	// The parent's own mean value, for the player choosing here.
	parentQ := 0.0
	if par.n > 0 {
		parentQ = -par.w / float64(par.n)
	}
	visitedPrior := 0.0
	children := t.children(par)
	for k := range children {
		if children[k].n+children[k].vl > 0 {
			visitedPrior += float64(children[k].prior)
		}
	}
	fpu := parentQ - fpuReduction*math.Sqrt(visitedPrior)
	explore := cfg.cpuct(parentN) * math.Sqrt(parentN)
	best, bestScore, ties := int32(0), math.Inf(-1), 0
	for k := range children {
		ch := &children[k]
		if ch.provenLoss() {
			continue // never explore a move proven lost (MCTS-solver)
		}
		visits := float64(ch.n) + float64(ch.vl)
		q := fpu
		switch {
		case ch.solved:
			q = -float64(ch.sv)
		case visits > 0:
			q = ch.q()
		}
		score := q + explore*float64(ch.prior)/(1+visits)
		switch {
		case score > bestScore:
			best, bestScore, ties = int32(k), score, 1
		case score == bestScore:
			// Reservoir sampling: each of the ties seen so far is kept with
			// probability 1/ties.
			if ties++; rng.IntN(ties) == 0 {
				best = int32(k)
			}
		}
	}
	return par.first + best
}
