package mcts

import "math"

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
// fpuReduction*sqrt(sum of the priors of the visited children). Ties go to
// the first child.
func (t *tree) pickPUCT(cfg *Config, p int32, fpuReduction float64) int32 {
	par := &t.nodes[p]
	parentN := float64(par.n) + float64(par.vl)
	// The parent's own mean value, for the player choosing here.
	parentQ := 0.0
	if par.n > 0 {
		parentQ = -par.w / float64(par.n)
	}
	visitedPrior := 0.0
	children := t.nodes[par.first : par.first+par.nChild]
	for k := range children {
		if children[k].n+children[k].vl > 0 {
			visitedPrior += float64(children[k].prior)
		}
	}
	fpu := parentQ - fpuReduction*math.Sqrt(visitedPrior)
	explore := cfg.cpuct(parentN) * math.Sqrt(parentN)
	best, bestScore := int32(0), math.Inf(-1)
	for k := range children {
		ch := &children[k]
		visits := float64(ch.n) + float64(ch.vl)
		q := fpu
		if visits > 0 {
			q = ch.q()
		}
		score := q + explore*float64(ch.prior)/(1+visits)
		if score > bestScore {
			best, bestScore = int32(k), score
		}
	}
	return par.first + best
}
