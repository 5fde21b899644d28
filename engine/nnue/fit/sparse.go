package fit

import (
	"math"
	"sync"

	"bomberzero/engine/nnue"
)

// The sparse trainer: the same net, loss and Adam as the Gorgonia graph,
// written by hand. The first layer is a gather-sum of the active
// features' weight rows (about 40 of a few thousand), not a dense one-hot
// matrix product, and its gradient is scattered back into those rows
// only. A batch is split into contiguous shares, one a goroutine; each
// share's gradients go to its own buffers, which are summed in share
// order, so a run is deterministic for a given number of shares.

// grads is one share's gradients and scratch.
type grads struct {
	w1, b1, w2, b2, w3, psqt []float32
	b3                       float32
	loss                     float64
	// touched lists the W1 rows (features) with a gradient this step;
	// mark[f] says whether f is in it.
	touched []int32
	mark    []bool
	// Scratch of one sample: the accumulators (2H, unclipped), the second
	// layer's pre-activation (L2) and the gradients flowing back.
	acc, z2, dx, dz2 []float32
}

func newGrads(n *nnue.Net) *grads {
	return &grads{
		w1: make([]float32, len(n.W1)), b1: make([]float32, n.H), w2: make([]float32, len(n.W2)),
		b2: make([]float32, n.L2), w3: make([]float32, n.L2), psqt: make([]float32, n.Features),
		touched: make([]int32, 0, n.Features), mark: make([]bool, n.Features),
		acc: make([]float32, 2*n.H), z2: make([]float32, n.L2), dx: make([]float32, 2*n.H), dz2: make([]float32, n.L2),
	}
}

// reset zeroes the gradients (only the touched rows of W1).
func (g *grads) reset(H int) {
	for _, f := range g.touched {
		clear(g.w1[int(f)*H : int(f+1)*H])
		g.mark[f] = false
	}
	g.touched = g.touched[:0]
	clear(g.b1)
	clear(g.w2)
	clear(g.b2)
	clear(g.w3)
	clear(g.psqt)
	g.b3, g.loss = 0, 0
}

// clip is the clipped ReLU's derivative as the Gorgonia graph has it
// (relu(x) - relu(x-1), relu's derivative taken as 1 at 0): 1 on [0, 1).
func clipGrad(x float32) bool { return x >= 0 && x < 1 }

func clip01(x float32) float32 {
	if x <= 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// forward computes sample i's accumulators into g.acc, the second layer's
// pre-activation into g.z2, and returns the raw output plus the sample's
// base score (zero without a base), which the loss compares.
func forward(n *nnue.Net, d *data, i int, g *grads) float32 {
	H := n.H
	var psq [2]float32
	for half, feats := range [2][]int32{d.feats[d.us[i]:d.them[i]], d.feats[d.them[i]:d.end[i]]} {
		a := g.acc[half*H : (half+1)*H]
		copy(a, n.B1)
		for _, f := range feats {
			nnue.AddRow(a, n.W1[int(f)*H:int(f+1)*H])
			psq[half] += n.PSQT[f]
		}
	}
	z2 := g.z2
	copy(z2, n.B2)
	nnue.AddClipped(z2, g.acc, n.W2)
	out := n.B3
	for j, z := range z2 {
		out += clip01(z) * n.W3[j]
	}
	return out + (psq[0]-psq[1])*0.5 + d.base[i]
}

// backward adds sample i's gradient of the batch loss (a mean over batch
// samples) to g, after forward has filled g's scratch.
func backward(n *nnue.Net, d *data, i int, out float32, batch int, g *grads) {
	H, L2 := n.H, n.L2
	s := float32(sigmoid(float64(out)))
	e := s - d.target[i]
	g.loss += float64(e) * float64(e)
	// d loss / d out for this sample.
	dout := 2 * e * s * (1 - s) / float32(batch)
	g.b3 += dout
	for j, z := range g.z2 {
		g.w3[j] += dout * clip01(z)
		if clipGrad(z) {
			g.dz2[j] = dout * n.W3[j]
		} else {
			g.dz2[j] = 0
		}
		g.b2[j] += g.dz2[j]
	}
	for k, a := range g.acc {
		if a < 0 { // no input, no gradient
			g.dx[k] = 0
			continue
		}
		x := clip01(a)
		row := n.W2[k*L2 : (k+1)*L2]
		grow := g.w2[k*L2 : (k+1)*L2]
		var dx float32
		for j, dz := range g.dz2 {
			grow[j] += x * dz
			dx += row[j] * dz
		}
		if !clipGrad(a) {
			dx = 0
		}
		g.dx[k] = dx
	}
	half := dout * 0.5
	for h, feats := range [2][]int32{d.feats[d.us[i]:d.them[i]], d.feats[d.them[i]:d.end[i]]} {
		dx := g.dx[h*H : (h+1)*H]
		for j, v := range dx {
			g.b1[j] += v
		}
		sign := half
		if h == 1 {
			sign = -half
		}
		for _, f := range feats {
			if !g.mark[f] {
				g.mark[f] = true
				g.touched = append(g.touched, f)
			}
			nnue.AddRow(g.w1[int(f)*H:int(f+1)*H], dx)
			g.psqt[f] += sign
		}
	}
}

// adam is Adam's state of one weight array, updated as Gorgonia's
// AdamSolver does (float32, its default betas and epsilon).
type adam struct{ m, v []float32 }

// adamConst is one step's constants.
type adamConst struct{ c1, c2, negEta float32 }

const (
	adamBeta1 = 0.9
	adamBeta2 = 0.999
	adamEps   = 1e-8
)

func newAdamConst(iter int, eta float64) adamConst {
	return adamConst{
		c1:     float32(1) / float32(1-math.Pow(adamBeta1, float64(iter))),
		c2:     float32(1) / float32(1-math.Pow(adamBeta2, float64(iter))),
		negEta: -float32(eta),
	}
}

// step updates w by gradient g.
func (a adam) step(w, g []float32, k adamConst) {
	const b1, b2 = float32(adamBeta1), float32(adamBeta2)
	const om1, om2 = float32(1) - b1, float32(1) - b2
	m, v := a.m[:len(w)], a.v[:len(w)]
	g = g[:len(w)]
	for i, gi := range g {
		mi := m[i]*b1 + gi*om1
		vi := v[i]*b2 + gi*gi*om2
		m[i], v[i] = mi, vi
		w[i] += (mi * k.c1 * k.negEta) / (float32(math.Sqrt(float64(vi*k.c2))) + adamEps)
	}
}

// sparse trains a net in place: forward and backward over a batch's
// shares on worker goroutines, then one Adam step.
type sparse struct {
	net *nnue.Net
	d   *data
	eta float64
	// etaFinal and steps, when etaFinal is not 0, make the rate fall
	// along a half cosine from eta to etaFinal over steps steps (rate).
	etaFinal float64
	steps    int
	iter     int
	g        []*grads // one a share; g[0] receives the sum
	opt      [7]adam  // W1, B1, W2, B2, W3, B3, PSQT
	b3       [2]float32
	gb3      [1]float32
	batch    []int      // the current batch's samples
	work     []chan int // to share k: the step's batch size
	done     chan struct{}
	wg       sync.WaitGroup
}

// newSparse returns a trainer of net on d with shares goroutines (at
// least 1); close stops them.
func newSparse(net *nnue.Net, d *data, eta float64, shares int) *sparse {
	shares = max(shares, 1)
	t := &sparse{net: net, d: d, eta: eta, done: make(chan struct{}, shares)}
	for range shares {
		t.g = append(t.g, newGrads(net))
	}
	for i, w := range [7][]float32{net.W1, net.B1, net.W2, net.B2, net.W3, t.b3[:1], net.PSQT} {
		t.opt[i] = adam{m: make([]float32, len(w)), v: make([]float32, len(w))}
	}
	for k := 1; k < shares; k++ {
		ch := make(chan int)
		t.work = append(t.work, ch)
		t.wg.Add(1)
		go func() {
			defer t.wg.Done()
			for n := range ch {
				t.share(k, n)
				t.done <- struct{}{}
			}
		}()
	}
	return t
}

// close stops the worker goroutines.
func (t *sparse) close() {
	for _, ch := range t.work {
		close(ch)
	}
	t.wg.Wait()
}

// bounds returns share k's part [lo, hi) of n samples.
func (t *sparse) bounds(k, n int) (int, int) {
	s := len(t.g)
	return k * n / s, (k + 1) * n / s
}

// share computes share k's gradients over its part of t.batch.
func (t *sparse) share(k, n int) {
	g := t.g[k]
	g.reset(t.net.H)
	lo, hi := t.bounds(k, n)
	for _, i := range t.batch[lo:hi] {
		out := forward(t.net, t.d, i, g)
		backward(t.net, t.d, i, out, n, g)
	}
}

// gradients computes the batch's mean loss and leaves its gradients in
// t.g[0] (B3's in t.g[0].b3).
func (t *sparse) gradients(batch []int) float64 {
	t.batch = batch
	n := len(batch)
	for _, ch := range t.work {
		ch <- n
	}
	t.share(0, n)
	for range t.work {
		<-t.done
	}
	g0, H := t.g[0], t.net.H
	for _, g := range t.g[1:] {
		for _, f := range g.touched {
			if !g0.mark[f] {
				g0.mark[f] = true
				g0.touched = append(g0.touched, f)
			}
			dst, src := g0.w1[int(f)*H:int(f+1)*H], g.w1[int(f)*H:int(f+1)*H]
			for j, v := range src {
				dst[j] += v
			}
		}
		for _, p := range [][2][]float32{{g0.b1, g.b1}, {g0.w2, g.w2}, {g0.b2, g.b2}, {g0.w3, g.w3}, {g0.psqt, g.psqt}} {
			for j, v := range p[1] {
				p[0][j] += v
			}
		}
		g0.b3 += g.b3
		g0.loss += g.loss
	}
	return g0.loss / float64(n)
}

// rate returns the learning rate of step i (from 0): eta throughout, or,
// with etaFinal set, eta at step 0 falling along a half cosine to etaFinal
// at step steps-1.
func (t *sparse) rate(i int) float64 {
	if t.etaFinal == 0 || t.steps < 2 {
		return t.eta
	}
	f := float64(min(i, t.steps-1)) / float64(t.steps-1)
	return t.etaFinal + (t.eta-t.etaFinal)*(1+math.Cos(math.Pi*f))/2
}

// step trains on one batch and returns its loss before the update.
func (t *sparse) step(batch []int) float64 {
	loss := t.gradients(batch)
	t.iter++
	k := newAdamConst(t.iter, t.rate(t.iter-1))
	g, n := t.g[0], t.net
	t.opt[0].step(n.W1, g.w1, k)
	t.opt[1].step(n.B1, g.b1, k)
	t.opt[2].step(n.W2, g.w2, k)
	t.opt[3].step(n.B2, g.b2, k)
	t.opt[4].step(n.W3, g.w3, k)
	t.b3[0], t.gb3[0] = n.B3, g.b3
	t.opt[5].step(t.b3[:1], t.gb3[:], k)
	n.B3 = t.b3[0]
	t.opt[6].step(n.PSQT, g.psqt, k)
	return loss
}

// loss returns the mean loss of samples idx without training, computed on
// the shares' goroutines.
func (t *sparse) loss(idx []int) float64 {
	if len(idx) == 0 {
		return math.NaN()
	}
	sum := 0.0
	g := t.g[0]
	// The validation set is small beside the epoch; one goroutine.
	for _, i := range idx {
		out := forward(t.net, t.d, i, g)
		e := float64(sigmoid(float64(out))) - float64(t.d.target[i])
		sum += e * e
	}
	return sum / float64(len(idx))
}
