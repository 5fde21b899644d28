package train

import (
	"fmt"
	"math"
	"slices"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/eval"
	"bomberzero/nn"
)

// PositionScore is how a network did on one training position against its
// targets: the ones the trainer uses, with value_mix 0 (the game result).
type PositionScore struct {
	// Hit says whether the network's most likely move is the target's most
	// visited one.
	Hit bool
	// PolicyLoss is the cross-entropy, in nats, of the target's visit
	// distribution against the network's policy over the legal moves.
	PolicyLoss float64
	// ValueLoss is the cross-entropy, in nats, of the game result as a
	// win/draw/loss target against the network's WDL prediction.
	ValueLoss float64
	// ValueError is the squared error of the network's expected value
	// (win minus loss) against the game result, side to move's view.
	ValueError float64
}

// minProb keeps a cross-entropy finite when the network gives a target
// move probability 0 (a float32 softmax can underflow).
const minProb = 1e-30

// assessChunk is how many positions Assess evaluates at once.
const assessChunk = 64

// Assess scores the network f on samples, one PositionScore a sample, in
// order, with rules r encoding each position as self-play saw it.
func Assess(r *agent.Rules, f *nn.Folded, samples []datasets.Sample) ([]PositionScore, error) {
	if len(samples) == 0 {
		return nil, nil
	}
	ev, err := nn.NewEvaluator(f, assessChunk)
	if err != nil {
		return nil, fmt.Errorf("train: assess: %w", err)
	}
	s := r.Shape()
	in, ps := s.InputSize(), s.PolicySize
	b := eval.NewBatch(s, assessChunk)
	out := make([]PositionScore, 0, len(samples))
	for start := 0; start < len(samples); start += assessChunk {
		part := samples[start:min(start+assessChunk, len(samples))]
		b.Size = len(part)
		for j := range part {
			if err := r.EncodeText(part[j].Position, int(part[j].Ply), part[j].Repetitions, b.Planes[j*in:(j+1)*in], b.Legal[j*ps:(j+1)*ps]); err != nil {
				return nil, fmt.Errorf("train: assess: sample position %q: %w", part[j].Position, err)
			}
		}
		if err := ev.Evaluate(b); err != nil {
			return nil, fmt.Errorf("train: assess: %w", err)
		}
		for j := range part {
			sc, err := scorePosition(&part[j], b.Policy[j*ps:(j+1)*ps], b.WDL[3*j:3*j+3])
			if err != nil {
				return nil, err
			}
			out = append(out, sc)
		}
	}
	return out, nil
}

// scorePosition compares one position's network outputs (policy over the
// policy vector, WDL) with the sample's targets.
func scorePosition(smp *datasets.Sample, policy, wdl []float32) (PositionScore, error) {
	var sc PositionScore
	best, bestP := -1, float32(-1)
	for k, p := range policy {
		if p > bestP {
			best, bestP = k, p
		}
	}
	top, topV := int32(-1), float32(-1)
	var total float64
	for k, v := range smp.Visits {
		if v > topV {
			top, topV = smp.PolicyIndex[k], v
		}
		total += float64(v)
	}
	if total <= 0 {
		return sc, fmt.Errorf("train: assess: sample position %q: no visits in the policy target", smp.Position)
	}
	sc.Hit = int32(best) == top
	for k, idx := range smp.PolicyIndex {
		if idx < 0 || int(idx) >= len(policy) {
			return sc, fmt.Errorf("train: assess: sample position %q: policy index %d outside the policy's %d entries", smp.Position, idx, len(policy))
		}
		sc.PolicyLoss -= float64(smp.Visits[k]) / total * math.Log(max(float64(policy[idx]), minProb))
	}
	z := float64(smp.Result)
	w, l := max(z, 0), max(-z, 0)
	for k, t := range []float64{w, 1 - w - l, l} {
		if t > 0 {
			sc.ValueLoss -= t * math.Log(max(float64(wdl[k]), minProb))
		}
	}
	d := float64(wdl[0]-wdl[2]) - z
	sc.ValueError = d * d
	return sc, nil
}

// GameSums is an assessment added up game by game, the clusters of a
// bootstrap over whole games: Positions[k] is the number of positions of
// game k, and Sums[m][k] the sum over them of figure m, in PositionScore's
// order: hits (Hit counted), policy loss, value loss, value error. The
// clustered mean of Sums[m] over Positions is the figure's mean.
type GameSums struct {
	Positions []float64
	Sums      [4][]float64
}

// AssessGames scores the network f on games' positions (Assess on all of
// them, in order) and adds the scores up game by game.
func AssessGames(r *agent.Rules, f *nn.Folded, games [][]datasets.Sample) (*GameSums, error) {
	var flat []datasets.Sample
	for _, g := range games {
		flat = append(flat, g...)
	}
	scores, err := Assess(r, f, flat)
	if err != nil {
		return nil, err
	}
	s := &GameSums{Positions: make([]float64, len(games))}
	for m := range s.Sums {
		s.Sums[m] = make([]float64, len(games))
	}
	i := 0
	for k, g := range games {
		s.Positions[k] = float64(len(g))
		for range g {
			sc := scores[i]
			if sc.Hit {
				s.Sums[0][k]++
			}
			s.Sums[1][k] += sc.PolicyLoss
			s.Sums[2][k] += sc.ValueLoss
			s.Sums[3][k] += sc.ValueError
			i++
		}
	}
	return s, nil
}

// Minus returns the paired difference s - base of two networks' sums over
// the same games: its Sums are the per-game differences, whose clustered
// mean is the difference of the two means. It fails when the games differ
// in number or size.
func (s *GameSums) Minus(base *GameSums) (*GameSums, error) {
	if !slices.Equal(s.Positions, base.Positions) {
		return nil, fmt.Errorf("train: assess: paired difference of sums over different games (%d and %d games)", len(s.Positions), len(base.Positions))
	}
	d := &GameSums{Positions: slices.Clone(s.Positions)}
	for m := range d.Sums {
		d.Sums[m] = make([]float64, len(s.Positions))
		for k := range d.Sums[m] {
			d.Sums[m][k] = s.Sums[m][k] - base.Sums[m][k]
		}
	}
	return d, nil
}
