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
		if ch.solved || visits > 0 {
			q = ch.provenQ()
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

// forcedVisits is the least number of visits forced playouts give a root
// child of prior p among total child visits: sqrt(k*p*total).
func forcedVisits(k float64, p float32, total float64) float64 {
	return math.Sqrt(k * float64(p) * total)
}

// forcedChild returns the root child most short of its forced visits
// (forcedVisits, virtual visits counted), ties broken uniformly at random
// with rng, or -1 when every child has them. A move proven lost is never
// forced.
func (t *tree) forcedChild(k float64, rng *rand.Rand) int32 {
	root := t.root()
	children := t.children(root)
	total := 0.0
	for i := range children {
		total += float64(children[i].n) + float64(children[i].vl)
	}
	best, bestShort, ties := int32(-1), 0.0, 0
	for i := range children {
		ch := &children[i]
		if ch.provenLoss() || ch.prior <= 0 {
			continue
		}
		short := forcedVisits(k, ch.prior, total) - float64(ch.n) - float64(ch.vl)
		switch {
		case short <= 0:
		case short > bestShort:
			best, bestShort, ties = int32(i), short, 1
		case short == bestShort:
			if ties++; rng.IntN(ties) == 0 {
				best = int32(i)
			}
		}
	}
	if best < 0 {
		return -1
	}
	return root.first + best
}

// prunedPolicy writes the root's visit distribution into r.Policy with
// the forced playouts taken back (KataGo's policy target pruning): c*, the
// most visited child, keeps its visits; every other child gives back up to
// its forced visits, as many as leave its PUCT score below c*'s, and a
// child left with one visit or fewer gives them all. It falls back to the
// plain distribution (visitPolicy) when nothing was visited.
func prunedPolicy(t *tree, cfg *Config, r *Result) {
	root := t.root()
	children := t.children(root)
	star, total := -1, 0.0
	for i := range children {
		total += float64(children[i].n)
		if children[i].n > 0 && (star < 0 || children[i].n > children[star].n) {
			star = i
		}
	}
	if star < 0 {
		visitPolicy(t, r)
		return
	}
	parentN := float64(root.n)
	explore := cfg.cpuct(parentN) * math.Sqrt(parentN)
	cs := &children[star]
	puctStar := cs.provenQ() + explore*float64(cs.prior)/(1+float64(cs.n))
	sum := 0.0
	start := len(r.Policy)
	for i := range children {
		ch := &children[i]
		n := float64(ch.n)
		if i != star && n > 0 {
			kept := n // visits kept: none taken back unless the PUCT score allows
			if gap := puctStar - ch.provenQ(); gap > 0 {
				// The fewest visits n' whose score stays below c*'s:
				// q + explore*P/(1+n') < puctStar, so 1+n' > explore*P/gap.
				least := math.Floor(explore * float64(ch.prior) / gap)
				kept = min(n, max(n-forcedVisits(cfg.ForcedPlayouts, ch.prior, total), least))
			}
			if kept <= 1 {
				kept = 0
			}
			n = kept
		}
		sum += n
		r.Policy = append(r.Policy, float32(n))
	}
	for i := start; i < len(r.Policy); i++ {
		r.Policy[i] = float32(float64(r.Policy[i]) / sum)
	}
}
