package mcts

import (
	"math"
	"math/rand/v2"
)

// gumbelRoot is the root state of a Gumbel search (Danihelka et al. 2022):
// the Gumbel samples, the moves still considered by sequential halving and
// the visits each got in the current phase. Slices are indexed by the
// root child's offset and reused across searches.
type gumbelRoot struct {
	g        []float64 // Gumbel sample per root move
	logit    []float64 // log prior per root move
	cand     []int32   // offsets of the moves still considered, best first after a halving
	given    []int32   // visits given to each move in the current phase (at selection)
	prior    []float64 // scratch: priors
	visits   []int32   // scratch: visit counts
	q        []float64 // scratch: mean values, then completed values
	score    []float64 // scratch: halving scores
	phase    int
	phases   int
	perVisit int32
	final    bool
	budget   int // playouts given to sequential halving
}

// start samples the considered moves of the expanded root of t by
// Gumbel-top-k over the root priors and opens the first phase of
// sequential halving over budget playouts.
func (gr *gumbelRoot) start(t *tree, cfg *Config, r *rand.Rand, budget int) {
	root := t.root()
	n := int(root.nChild)
	gr.g = resizeF(gr.g, n)
	gr.logit = resizeF(gr.logit, n)
	gr.given = resizeI(gr.given, n)
	open := 0
	for k := 0; k < n; k++ {
		gr.g[k] = gumbel(r)
		gr.logit[k] = math.Log(math.Max(float64(t.at(root.first+int32(k)).prior), 1e-30))
		gr.given[k] = 0
		if !t.at(root.first + int32(k)).provenLoss() {
			open++
		}
	}
	if open > 0 && open < n {
		// Moves proven lost are not sampled while another move is open.
		for k := 0; k < n; k++ {
			if t.at(root.first + int32(k)).provenLoss() {
				gr.given[k] = 1
			}
		}
	} else {
		open = n
	}
	m := min(cfg.GumbelM, open)
	gr.cand = gr.cand[:0]
	for len(gr.cand) < m { // top-m of g + logit, by repeated selection
		best, bestScore := -1, math.Inf(-1)
		for k := 0; k < n; k++ {
			if gr.given[k] == 0 && gr.g[k]+gr.logit[k] > bestScore {
				best, bestScore = k, gr.g[k]+gr.logit[k]
			}
		}
		gr.given[best] = 1
		gr.cand = append(gr.cand, int32(best))
	}
	gr.phases = 1
	for 1<<gr.phases < m {
		gr.phases++
	}
	gr.phase = 0
	gr.budget = budget
	gr.startPhase(budget)
}

// startPhase opens the current phase with remaining playouts left. The last
// phase (two moves left, or the last of ceil(log2 m)) shares everything that
// is left; earlier ones give each move budget/(phases*|considered|) visits,
// at least one.
func (gr *gumbelRoot) startPhase(remaining int) {
	c := len(gr.cand)
	gr.final = c <= 2 || gr.phase >= gr.phases-1
	if gr.final {
		gr.perVisit = int32((remaining + c - 1) / c)
	} else {
		gr.perVisit = int32(max(1, gr.budget/(gr.phases*c)))
	}
	for _, k := range gr.cand {
		gr.given[k] = 0
	}
}

// pick returns the root child the next playout must visit, or -1 when the
// phase is over but leaves are still in flight (its halving must wait for
// their values). remaining is the number of playouts not yet started.
func (gr *gumbelRoot) pick(t *tree, cfg *Config, inflight, remaining int) int32 {
	for {
		best := gr.cand[0]
		for _, k := range gr.cand[1:] {
			if gr.given[k] < gr.given[best] {
				best = k
			}
		}
		if gr.final || gr.given[best] < gr.perVisit {
			gr.given[best]++
			return t.root().first + best
		}
		if inflight > 0 {
			return -1
		}
		gr.halve(t, cfg)
		gr.phase++
		gr.startPhase(remaining)
	}
}

// halve keeps the better half (rounded up) of the considered moves by
// g + logit + sigma(completed Q).
func (gr *gumbelRoot) halve(t *tree, cfg *Config) {
	gr.scores(t, cfg)
	// Insertion sort of the few candidates, best first.
	for i := 1; i < len(gr.cand); i++ {
		for j := i; j > 0 && gr.score[gr.cand[j]] > gr.score[gr.cand[j-1]]; j-- {
			gr.cand[j], gr.cand[j-1] = gr.cand[j-1], gr.cand[j]
		}
	}
	gr.cand = gr.cand[:(len(gr.cand)+1)/2]
}

// choice returns the offset of the considered move with the best
// g + logit + sigma(completed Q): the move the search plays. A move proven
// lost is chosen only when every move is: if all the considered moves were
// proven lost during the search, the best of the other moves is played.
func (gr *gumbelRoot) choice(t *tree, cfg *Config) int32 {
	gr.scores(t, cfg)
	first := t.root().first
	lost := func(k int32) bool { return t.at(first + k).provenLoss() }
	best := int32(-1)
	for _, k := range gr.cand {
		if !lost(k) && (best < 0 || gr.score[k] > gr.score[best]) {
			best = k
		}
	}
	if best >= 0 {
		return best
	}
	for k := range gr.score {
		if !lost(int32(k)) && (best < 0 || gr.score[k] > gr.score[best]) {
			best = int32(k)
		}
	}
	if best >= 0 {
		return best
	}
	return gr.cand[0]
}

// scores fills gr.score with g + logit + sigma(completed Q) for every root
// move, leaving the sigma-transformed completed values in gr.q.
func (gr *gumbelRoot) scores(t *tree, cfg *Config) {
	gr.load(t)
	maxN := completeQ(gr.prior, gr.visits, gr.q, float64(t.root().value))
	sigma(gr.q, maxN, cfg.GumbelCVisit, cfg.GumbelCScale)
	gr.score = resizeF(gr.score, len(gr.q))
	for k := range gr.q {
		gr.score[k] = gr.g[k] + gr.logit[k] + gr.q[k]
	}
}

// load copies the root children's priors, visits and mean values (for the
// player to move at the root) into the scratch slices.
func (gr *gumbelRoot) load(t *tree) {
	root := t.root()
	n := int(root.nChild)
	gr.prior = resizeF(gr.prior, n)
	gr.visits = resizeI(gr.visits, n)
	gr.q = resizeF(gr.q, n)
	for k := 0; k < n; k++ {
		ch := t.at(root.first + int32(k))
		gr.prior[k], gr.visits[k] = float64(ch.prior), ch.n
		gr.q[k] = 0
		if ch.n > 0 {
			gr.q[k] = ch.w / float64(ch.n)
		}
		if ch.solved {
			// A proven value is exact: it counts as visited.
			gr.visits[k], gr.q[k] = max(ch.n, 1), -float64(ch.sv)
		}
	}
}

// improvedPolicy writes the Gumbel MuZero policy target
// softmax(logit + sigma(completed Q)) over the root moves into out and
// returns its expected completed value, the search's value of the root.
// The logits are the network's: a policy temperature shapes the search,
// not the target, so the tree's tempered priors are raised back to
// PolicyTemp first (else each generation would learn a flatter copy of
// its own policy).
func (gr *gumbelRoot) improvedPolicy(t *tree, cfg *Config, out []float32) float64 {
	gr.load(t)
	if tp := cfg.PolicyTemp; tp > 0 && tp != 1 {
		if sum := powRatios(gr.prior, tp); sum > 0 {
			for k := range gr.prior {
				gr.prior[k] /= sum
			}
		}
	}
	return completedQPolicy(gr.prior, gr.visits, gr.q, float64(t.root().value), cfg.GumbelCVisit, cfg.GumbelCScale, out)
}

// completedQPolicy writes softmax(log prior + sigma(completed Q)) into out,
// where q holds the mean value of each visited move (in [-1, 1], for the
// player to move), vhat is the evaluator's value of the root, and sigma is
// the transform of Gumbel MuZero with c_visit and c_scale. It returns the
// expected completed value under the new policy, sum_a out[a] * q(a). The
// unvisited entries of q are replaced by their completed value.
func completedQPolicy(prior []float64, visits []int32, q []float64, vhat, cVisit, cScale float64, out []float32) float64 {
	maxN := completeQ(prior, visits, q, vhat)
	f := (cVisit + float64(maxN)) * cScale
	logit := func(k int) float64 { return math.Log(math.Max(prior[k], 1e-30)) + f*(q[k]+1)/2 }
	maxLogit := math.Inf(-1)
	for k := range q {
		maxLogit = math.Max(maxLogit, logit(k))
	}
	sum := 0.0
	for k := range q {
		sum += math.Exp(logit(k) - maxLogit)
	}
	value := 0.0
	for k := range q {
		p := math.Exp(logit(k)-maxLogit) / sum
		out[k] = float32(p)
		value += p * q[k]
	}
	return value
}

// completeQ replaces the value of every unvisited move in q by the mixed
// value estimate
//
//	v_mix = (vhat + sum_b N(b) / sum_{b visited} P(b) * sum_{a visited} P(a) q(a)) / (1 + sum_b N(b))
//
// and returns the largest visit count.
func completeQ(prior []float64, visits []int32, q []float64, vhat float64) (maxN int32) {
	sumN, sumP, sumPQ := 0.0, 0.0, 0.0
	for k, n := range visits {
		if n > 0 {
			sumN += float64(n)
			sumP += prior[k]
			sumPQ += prior[k] * q[k]
			maxN = max(maxN, n)
		}
	}
	vmix := vhat
	if sumN > 0 && sumP > 0 {
		vmix = (vhat + sumN/sumP*sumPQ) / (1 + sumN)
	}
	for k, n := range visits {
		if n == 0 {
			q[k] = vmix
		}
	}
	return maxN
}

// sigma maps values in [-1, 1] to [0, 1] and scales them by
// (cVisit + maxN) * cScale, in place.
func sigma(q []float64, maxN int32, cVisit, cScale float64) {
	f := (cVisit + float64(maxN)) * cScale
	for k := range q {
		q[k] = f * (q[k] + 1) / 2
	}
}

// resizeF returns s with length n, reusing its storage when it is large
// enough.
func resizeF(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// resizeI is resizeF for int32 slices.
func resizeI(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}
