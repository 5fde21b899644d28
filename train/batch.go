package train

import (
	"fmt"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/eval"
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
	}
	return nil
}

// quality measures a network on samples: the share where its most likely
// move is the search's most visited one, and the mean squared error of its
// expected value (win - loss) against the game result.
func quality(r *agent.Rules, f *nn.Folded, samples []datasets.Sample) (accuracy, valueErr float64, err error) {
	if len(samples) == 0 {
		return 0, 0, nil
	}
	const chunk = 64
	ev, err := nn.NewEvaluator(f, chunk)
	if err != nil {
		return 0, 0, fmt.Errorf("train: quality: %w", err)
	}
	s := r.Shape()
	in, ps := s.InputSize(), s.PolicySize
	b := eval.NewBatch(s, chunk)
	hits := 0
	for start := 0; start < len(samples); start += chunk {
		part := samples[start:min(start+chunk, len(samples))]
		b.Size = len(part)
		for j := range part {
			if err := r.EncodeText(part[j].Position, int(part[j].Ply), part[j].Repetitions, b.Planes[j*in:(j+1)*in], b.Legal[j*ps:(j+1)*ps]); err != nil {
				return 0, 0, fmt.Errorf("train: quality: sample position %q: %w", part[j].Position, err)
			}
		}
		if err := ev.Evaluate(b); err != nil {
			return 0, 0, fmt.Errorf("train: quality: %w", err)
		}
		for j := range part {
			smp := &part[j]
			best, bestP := -1, float32(-1)
			for k, p := range b.Policy[j*ps : (j+1)*ps] {
				if p > bestP {
					best, bestP = k, p
				}
			}
			top, topV := int32(-1), float32(-1)
			for k, v := range smp.Visits {
				if v > topV {
					top, topV = smp.PolicyIndex[k], v
				}
			}
			if int32(best) == top {
				hits++
			}
			d := float64(b.WDL[3*j]-b.WDL[3*j+2]) - float64(smp.Result)
			valueErr += d * d
		}
	}
	n := float64(len(samples))
	return float64(hits) / n, valueErr / n, nil
}
