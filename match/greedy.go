package match

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"bomberzero/agent"
	"bomberzero/env"
)

// Greedy plays the move with the largest immediate material gain (pieces
// removed, promotions), ties broken at random. It does not look at the reply.
type Greedy struct {
	table []int32
	rng   *rand.Rand
	buf   []env.Move
}

// NewGreedy returns a Greedy player for variant v with piece values vals,
// seeded by seed.
func NewGreedy(v *env.Variant, vals agent.Values, seed uint64) (*Greedy, error) {
	t, err := vals.Table(v)
	if err != nil {
		return nil, fmt.Errorf("greedy: %w", err)
	}
	return &Greedy{table: t, rng: rand.New(rand.NewPCG(seed, 0x677265656479)), buf: make([]env.Move, 0, env.MaxMoves)}, nil
}

// Name returns "greedy".
func (g *Greedy) Name() string { return "greedy" }

// Meter is MeterThread: the player moves on its caller's goroutine.
func (g *Greedy) Meter() Meter { return MeterThread }

// gain returns the material the side to move gains by m, in centipawns.
func gain(pos *env.Position, m env.Move, table []int32) int32 {
	before := agent.Centipawns(pos, table)
	u := pos.DoMove(m)
	after := -agent.Centipawns(pos, table)
	pos.UndoMove(u)
	return after - before
}

// Choose returns a move of the largest material gain, chosen uniformly among
// the equal best.
func (g *Greedy) Choose(pos *env.Position) (env.Move, error) {
	g.buf = pos.LegalMoves(g.buf[:0])
	if len(g.buf) == 0 {
		return env.NoMove, fmt.Errorf("greedy: no legal move in %s", pos)
	}
	best, ties := env.NoMove, 0
	var bestGain int32
	for _, m := range g.buf {
		x := gain(pos, m, g.table)
		switch {
		case ties == 0 || x > bestGain:
			best, bestGain, ties = m, x, 1
		case x == bestGain:
			ties++
			if g.rng.IntN(ties) == 0 { // reservoir sampling: uniform among ties
				best = m
			}
		}
	}
	return best, nil
}

// Analyze lists the moves with the largest immediate gains.
func (g *Greedy) Analyze(pos *env.Position, n int) ([]Candidate, error) {
	moves := pos.LegalMoves(nil)
	out := make([]Candidate, len(moves))
	for i, m := range moves {
		x := gain(pos, m, g.table)
		out[i] = Candidate{Move: m, Score: float64(x) / 100, Note: fmt.Sprintf("gains %+.2f", float64(x)/100)}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}
