package nn

import "math"

// Losses are one training step's mean losses over the batch.
type Losses struct {
	Policy    float64 // cross-entropy of the policy target against the policy over legal moves
	Value     float64 // cross-entropy of the WDL target against the WDL prediction
	MovesLeft float64 // Huber loss of the moves-left head, in units of MovesLeftScale plies (unweighted)
	// ShortValue is the short-term value head's squared error (unweighted;
	// 0 without the head).
	ShortValue float64
	L2         float64 // the L2 coefficient times the sum of squared weights (not biases or BatchNorm)
	Total      float64 // Policy + Value + MovesLeftWeight*MovesLeft + ShortValueWeight*ShortValue + L2
}

// The moves-left head (lc0's) predicts the plies until the game ends in
// units of MovesLeftScale plies; its loss is the Huber loss of the scaled
// error with threshold movesLeftDelta (quadratic within 10 plies of the
// target, linear beyond, so a few very long games do not dominate).
const (
	// MovesLeftScale is the plies one unit of the moves-left head's raw
	// output stands for.
	MovesLeftScale = 20
	movesLeftDelta = 0.5
)

// huber returns the Huber loss of the error d and its derivative.
func huber(d float64) (loss, grad float64) {
	if math.Abs(d) <= movesLeftDelta {
		return 0.5 * d * d, d
	}
	return movesLeftDelta * (math.Abs(d) - 0.5*movesLeftDelta), math.Copysign(movesLeftDelta, d)
}

// lossKernel computes the batch-mean policy and WDL cross-entropies and the
// moves-left Huber loss from the network's outputs and, in the same pass,
// their gradients (the moves-left one scaled by mlWeight).
type lossKernel struct {
	n, hw, planes int
	batch         *TrainBatch // targets of the current step
	mlWeight      float64     // the moves-left loss's weight in the total
	svWeight      float64     // the short-term value loss's weight
	policy, value float64     // the last forward pass's losses
	movesLeft     float64
	shortValue    float64
	dPolicy       []float32 // planes x n*hw, CNHW like the logits
	dWDL          []float32 // 3 x n
	dML           []float32 // 1 x n
	dSV           []float32 // 1 x n: at the short-term value head's raw output
}

func newLossKernel(n, hw, planes int) *lossKernel {
	return &lossKernel{n: n, hw: hw, planes: planes,
		dPolicy: make([]float32, planes*n*hw), dWDL: make([]float32, 3*n), dML: make([]float32, n), dSV: make([]float32, n)}
}

// forward reads the policy logits (planes x n*hw), WDL logits (3 x n),
// moves-left outputs (1 x n) and, when not nil, the short-term value head's
// raw outputs (1 x n): its loss is the squared error of their tanh.
func (k *lossKernel) forward(logits, wdl, ml, sv []float32) {
	b := k.batch
	size := k.planes * k.hw
	inv := 1 / float64(k.n)
	var pl, vl, mll, svl float64
	for pos := 0; pos < k.n; pos++ {
		if sv != nil {
			o := math.Tanh(float64(sv[pos]))
			e := o - float64(b.ShortValue[pos])
			svl += e * e
			k.dSV[pos] = float32(k.svWeight * 2 * e * (1 - o*o) * inv)
		}
		e, g := huber(float64(ml[pos]) - float64(b.MovesLeft[pos])/MovesLeftScale)
		mll += e
		k.dML[pos] = float32(k.mlWeight * g * inv)
		legal := b.Legal[pos*size : (pos+1)*size]
		target := b.Policy[pos*size : (pos+1)*size]
		// Policy index plane*hw+sq lives at logits[(plane*n+pos)*hw+sq].
		maxv := math.Inf(-1)
		var tsum float64
		for plane := 0; plane < k.planes; plane++ {
			lg := logits[(plane*k.n+pos)*k.hw:][:k.hw]
			for sq, l := range legal[plane*k.hw : (plane+1)*k.hw] {
				if l != 0 {
					maxv = max(maxv, float64(lg[sq]))
					tsum += float64(target[plane*k.hw+sq])
				}
			}
		}
		var sum float64
		for plane := 0; plane < k.planes; plane++ {
			lg := logits[(plane*k.n+pos)*k.hw:][:k.hw]
			for sq, l := range legal[plane*k.hw : (plane+1)*k.hw] {
				if l != 0 {
					sum += math.Exp(float64(lg[sq]) - maxv)
				}
			}
		}
		lse := maxv + math.Log(sum)
		for plane := 0; plane < k.planes; plane++ {
			lg := logits[(plane*k.n+pos)*k.hw:][:k.hw]
			d := k.dPolicy[(plane*k.n+pos)*k.hw:][:k.hw]
			for sq, l := range legal[plane*k.hw : (plane+1)*k.hw] {
				if l == 0 {
					d[sq] = 0
					continue
				}
				t := float64(target[plane*k.hw+sq])
				lp := float64(lg[sq]) - lse
				pl -= t * lp
				d[sq] = float32((tsum*math.Exp(lp) - t) * inv)
			}
		}
		z := [3]float64{float64(wdl[pos]), float64(wdl[k.n+pos]), float64(wdl[2*k.n+pos])}
		m := max(z[0], z[1], z[2])
		l := m + math.Log(math.Exp(z[0]-m)+math.Exp(z[1]-m)+math.Exp(z[2]-m))
		t := b.WDL[pos*3 : pos*3+3]
		ts := float64(t[0] + t[1] + t[2])
		for j := 0; j < 3; j++ {
			lp := z[j] - l
			vl -= float64(t[j]) * lp
			k.dWDL[j*k.n+pos] = float32((ts*math.Exp(lp) - float64(t[j])) * inv)
		}
	}
	k.policy, k.value, k.movesLeft, k.shortValue = pl*inv, vl*inv, mll*inv, svl*inv
}

// logitLayout says where a graph keeps the policy logit of position pos,
// plane plane, square (y, x) of a batch of n: at
// (plane*n+pos)*plane + origin + y*row + x, plus bias[plane] when bias is
// not nil.
type logitLayout struct {
	plane, origin, row int
	bias               []float32
}

// cnhwLogits is the layout of logits in the channel-major layout of an h x w board.
func cnhwLogits(h, w int) logitLayout { return logitLayout{plane: h * w, row: w} }

// writeOutputs turns the first size of a batch of n positions' logits into
// eval outputs: the policy softmax over each position's legal moves (0
// elsewhere, all 0 when none is legal) and the WDL softmax (wdl holds logit
// k of position pos at k*n+pos), positions-major as package eval lays them
// out.
func writeOutputs(logits, wdl []float32, size, n int, lay logitLayout, h, w, planes int, legal, policy, outWDL []float32) {
	hw := h * w
	ps := planes * hw
	for pos := 0; pos < size; pos++ {
		lg := legal[pos*ps : (pos+1)*ps]
		out := policy[pos*ps : (pos+1)*ps]
		maxv := float32(math.Inf(-1))
		for plane := 0; plane < planes; plane++ {
			base := (plane*n+pos)*lay.plane + lay.origin
			var b float32
			if lay.bias != nil {
				b = lay.bias[plane]
			}
			for y := 0; y < h; y++ {
				row := logits[base+y*lay.row:][:w]
				o := out[plane*hw+y*w:][:w]
				for x, l := range lg[plane*hw+y*w:][:w] {
					if l == 0 {
						o[x] = 0
						continue
					}
					v := row[x] + b
					o[x] = v // the logit for now; exponentiated below
					maxv = max(maxv, v)
				}
			}
		}
		var sum float32
		for i, l := range lg {
			if l == 0 {
				continue
			}
			e := float32(math.Exp(float64(out[i] - maxv)))
			out[i] = e
			sum += e
		}
		if sum > 0 {
			s := 1 / sum
			for i := range out {
				out[i] *= s
			}
		}
		z0, z1, z2 := wdl[pos], wdl[n+pos], wdl[2*n+pos]
		m := max(z0, z1, z2)
		e0 := float32(math.Exp(float64(z0 - m)))
		e1 := float32(math.Exp(float64(z1 - m)))
		e2 := float32(math.Exp(float64(z2 - m)))
		s := 1 / (e0 + e1 + e2)
		outWDL[pos*3], outWDL[pos*3+1], outWDL[pos*3+2] = e0*s, e1*s, e2*s
	}
}
