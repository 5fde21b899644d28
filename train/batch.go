package train

import (
	"fmt"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/nn"
)

// fillBatch encodes samples into b: input planes and legal masks from the
// position text at the sample's ply (so the length-cap plane is the one
// self-play saw), the policy target from the visit fractions, and the WDL
// target from the game result blended with the search value by valueMix,
// and the moves-left target (the plies from the position to the end of its
// game).
func fillBatch(r *agent.Rules, samples []datasets.Sample, valueMix float32, b *nn.TrainBatch) error {
	s := r.Shape()
	in, ps := s.InputSize(), s.PolicySize
	b.Size = len(samples)
	for j := range samples {
		smp := &samples[j]
		planes := b.Planes[j*in : (j+1)*in]
		legal := b.Legal[j*ps : (j+1)*ps]
		if err := r.EncodeText(smp.Position, int(smp.Ply), smp.Repetitions, planes, legal); err != nil {
			return fmt.Errorf("train: sample position %q: %w", smp.Position, err)
		}
		policy := b.Policy[j*ps : (j+1)*ps]
		clear(policy)
		var total float32
		for k, idx := range smp.PolicyIndex {
			if idx < 0 || int(idx) >= ps || legal[idx] == 0 {
				return fmt.Errorf("train: sample position %q: policy index %d is not a legal move", smp.Position, idx)
			}
			policy[idx] += smp.Visits[k]
			total += smp.Visits[k]
		}
		if total <= 0 {
			return fmt.Errorf("train: sample position %q: no visits in the policy target", smp.Position)
		}
		for k := range policy {
			policy[k] /= total
		}
		z := (1-valueMix)*smp.Result + valueMix*smp.Value
		z = min(max(z, -1), 1)
		w, l := max(z, 0), max(-z, 0)
		b.WDL[3*j], b.WDL[3*j+1], b.WDL[3*j+2] = w, 1-w-l, l
		if smp.Ply < 0 || smp.GameLength <= smp.Ply {
			return fmt.Errorf("train: sample position %q: ply %d of a game of length %d", smp.Position, smp.Ply, smp.GameLength)
		}
		b.MovesLeft[j] = float32(smp.GameLength - smp.Ply)
		if j < len(b.ShortValue) { // a batch for a network without the head may leave it out
			b.ShortValue[j] = smp.ShortValue
		}
	}
	return nil
}

// quality measures a network on samples: the share where its most likely
// move is the search's most visited one, and the mean squared error of its
// expected value (win - loss) against the game result.
func quality(r *agent.Rules, f *nn.Folded, samples []datasets.Sample) (accuracy, valueErr float64, err error) {
	scores, err := Assess(r, f, samples)
	if err != nil || len(scores) == 0 {
		return 0, 0, err
	}
	hits := 0
	for _, sc := range scores {
		if sc.Hit {
			hits++
		}
		valueErr += sc.ValueError
	}
	n := float64(len(scores))
	return float64(hits) / n, valueErr / n, nil
}
