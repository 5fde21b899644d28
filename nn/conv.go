package nn

import "math"

// bnEpsilon is added to BatchNorm variances; bnMomentum weights a batch's
// statistics in the running averages (PyTorch's defaults).
const (
	bnEpsilon  = 1e-5
	bnMomentum = 0.1
)

// normMode says what follows a convolution.
type normMode int

const (
	normBatch normMode = iota // BatchNorm with the batch's statistics (training)
	normEval                  // BatchNorm with the running statistics (training graph in eval mode)
	normBias                  // a per-channel bias (folded BatchNorm, or the policy logits)
)

// convLayer is the parameters of one k x k convolution (stride 1, zero
// padding k/2) followed by BatchNorm or a bias, an optional residual add and
// an optional ReLU. Exactly one of (gamma, beta, mean, variance) and bias is
// set.
type convLayer struct {
	cin, cout, k int
	relu         bool
	weight       *Param // (cout, cin, k, k)
	gamma, beta  *Param // (cout) BatchNorm scale and shift
	mean, vari   *Param // (cout) BatchNorm running statistics
	bias         *Param // (cout)
}

// convKernel is one graph's working state for a convLayer at batch size n:
// the buffers its forward pass writes and its backward pass reads. A k x k
// convolution builds its im2col columns a cache-sized slab of
// positions at a time, in scratch the graph's kernels share, and builds them
// again in the backward pass instead of keeping them.
type convKernel struct {
	l            *convLayer
	mode         normMode
	n, h, w      int
	weight, bias []float32    // weights used in the forward pass
	s            *convScratch // k > 1: the graph's shared scratch
	slab         int          // k > 1: positions per slab of columns
	x, skip      []float32    // the last forward pass's inputs
	z            []float32    // cout x n*h*w: convolution output, normalised in place in training
	y            []float32    // cout x n*h*w: output
	invstd       []float32    // cout: batch 1/sqrt(var+eps) in training
	g            []float32    // cout x n*h*w: gradient at the pre-activation (and of the skip input)
	dx           []float32    // cin x n*h*w: gradient of the input
	needDX       bool         // whether backward computes dx (false for the stem)
}

// newConvKernel allocates a kernel's buffers; train adds the backward ones.
// s is the scratch of the graph the kernel belongs to (nil: the kernel
// makes its own).
func newConvKernel(l *convLayer, mode normMode, n, h, w int, s *convScratch, train bool) *convKernel {
	m := n * h * w
	c := &convKernel{l: l, mode: mode, n: n, h: h, w: w,
		z: make([]float32, l.cout*m), y: make([]float32, l.cout*m), needDX: true}
	c.weight = l.weight.Data
	if l.k > 1 {
		if s == nil {
			s = newConvScratch(l.cin*l.k*l.k, l.cout, n, h, w, l.k)
		}
		c.s, c.slab = s, colsSlabPositions(l.cin*l.k*l.k, h, w)
	}
	if l.bias != nil {
		c.bias = l.bias.Data
	}
	if train {
		c.invstd = make([]float32, l.cout)
		c.g = make([]float32, l.cout*m)
		c.dx = make([]float32, l.cin*m)
	}
	return c
}

// forward computes y from x (cin x n*h*w) and skip (cout x n*h*w or nil).
func (c *convKernel) forward(x, skip []float32) {
	l := c.l
	hw := c.h * c.w
	m := c.n * hw
	kk := l.cin * l.k * l.k
	c.x, c.skip = x, skip
	if l.k == 1 {
		sgemmPar(true, false, false, l.cout, m, kk, c.weight, kk, x, m, 0, c.z, m)
	} else {
		c.forEachSlab(func(_, p0, p1 int, _ bool, cols []float32) {
			im2col(x, l.cin, c.n, c.h, c.w, l.k, cols, p0, p1, c.s.masks)
			sgemmSerial(false, false, l.cout, (p1-p0)*hw, kk, c.weight, kk, cols, (p1-p0)*hw, 0, c.z[p0*hw:], m)
		})
	}
	forEach(l.cout, c.forwardChannel)
}

// forwardChannel normalises (or biases) output channel co of the last
// convolution and writes its part of y.
func (c *convKernel) forwardChannel(co int) {
	l := c.l
	m := c.n * c.h * c.w
	{
		z := c.z[co*m : (co+1)*m]
		y := c.y[co*m : (co+1)*m]
		var scale, shift float32
		switch c.mode {
		case normBatch:
			// One pass for both moments (float64 sums of float32 values:
			// no cancellation worth the second pass over the row).
			sum, sq := bnMoments(z)
			mean := sum / float64(m)
			ss := max(0, sq-sum*mean)
			variance := ss / float64(m)
			inv := 1 / math.Sqrt(variance+bnEpsilon)
			c.invstd[co] = float32(inv)
			mf, invf := float32(mean), float32(inv)
			scale, shift = l.gamma.Data[co], l.beta.Data[co]
			// Normalise z in place (backward reads xhat) and write y in
			// the same pass.
			var skip []float32
			if c.skip != nil {
				skip = c.skip[co*m : (co+1)*m]
			}
			bnNormalize(y, z, mf, invf, scale, shift, skip, l.relu)
			unbiased := variance
			if m > 1 {
				unbiased = ss / float64(m-1)
			}
			l.mean.Data[co] = float32((1-bnMomentum)*float64(l.mean.Data[co]) + bnMomentum*mean)
			l.vari.Data[co] = float32((1-bnMomentum)*float64(l.vari.Data[co]) + bnMomentum*unbiased)
			return
		case normEval:
			inv := float32(1 / math.Sqrt(float64(l.vari.Data[co])+bnEpsilon))
			scale = l.gamma.Data[co] * inv
			shift = l.beta.Data[co] - l.mean.Data[co]*scale
		default:
			scale, shift = 1, c.bias[co]
		}
		c.epilogue(y, z, scale, shift, c.skip, co*m)
	}
}

// epilogue writes y = relu?(scale*z + shift + skip) for one channel's row.
func (c *convKernel) epilogue(y, z []float32, scale, shift float32, skip []float32, off int) {
	switch {
	case skip != nil && c.l.relu:
		s := skip[off : off+len(y)]
		for i, v := range z {
			y[i] = relu0(scale*v + shift + s[i])
		}
	case skip != nil:
		s := skip[off : off+len(y)]
		for i, v := range z {
			y[i] = scale*v + shift + s[i]
		}
	case c.l.relu:
		for i, v := range z {
			y[i] = relu0(scale*v + shift)
		}
	default:
		for i, v := range z {
			y[i] = scale*v + shift
		}
	}
}

// backward takes dy = d(loss)/dy, writes the parameter gradients and, when
// needDX, c.dx = d(loss)/dx plus accum (when not nil). c.g then holds the
// gradient of the skip input. It must follow a normBatch or normBias forward
// pass on the same kernel.
func (c *convKernel) backward(dy, accum []float32) {
	l := c.l
	m := c.n * c.h * c.w
	kk := l.cin * l.k * l.k
	// gz is the gradient at the convolution output; it reuses c.g only when
	// no skip input needs c.g afterwards. One pass per channel applies the
	// ReLU mask (writing c.g) and sums what BatchNorm's backward needs.
	gz := c.g
	if c.skip != nil {
		gz = c.z
	}
	forEach(l.cout, func(co int) {
		g, y := c.g[co*m:(co+1)*m], c.y[co*m:(co+1)*m]
		d := dy[co*m : (co+1)*m]
		out := gz[co*m : (co+1)*m]
		if c.mode == normBias {
			l.bias.Grad[co] = float32(biasMaskSum(g, d, y, l.relu))
			if &out[0] != &g[0] {
				copy(out, g)
			}
			return
		}
		xhat := c.z[co*m : (co+1)*m]
		db, dg := bnMaskSums(g, d, y, xhat, l.relu)
		l.gamma.Grad[co] = float32(dg)
		l.beta.Grad[co] = float32(db)
		k := l.gamma.Data[co] * c.invstd[co]
		mdb, mdg := float32(db/float64(m)), float32(dg/float64(m))
		bnBackward(out, g, xhat, k, mdb, mdg)
	})
	if l.k > 1 {
		c.backwardColumns(gz, accum)
		return
	}
	sgemmPar(true, false, true, l.cout, kk, m, gz, m, c.x, m, 0, l.weight.Grad, kk)
	if !c.needDX {
		return
	}
	sgemmPar(true, true, false, kk, m, l.cout, c.weight, kk, gz, m, 0, c.dx, m)
	if accum != nil {
		addInto(c.dx, accum)
	}
}

// backwardColumns writes the weight gradient and, when needDX, c.dx (plus
// accum when not nil) of a k x k convolution from the gradient gz at its
// output, slab by slab of positions: the slab's columns again (im2col), the
// goroutine's share of the weight gradient gz·colsᵀ, then the columns'
// gradient Wᵀ·gz in the same scratch and col2im of it into the slab's own
// part of dx. The goroutines' shares of the weight gradient are summed in a
// fixed order, so the result does not depend on scheduling.
func (c *convKernel) backwardColumns(gz, accum []float32) {
	l := c.l
	hw := c.h * c.w
	m := c.n * hw
	kk := l.cin * l.k * l.k
	size := l.cout * kk
	workers := c.forEachSlab(func(worker, p0, p1 int, first bool, cols []float32) {
		nc := (p1 - p0) * hw
		im2col(c.x, l.cin, c.n, c.h, c.w, l.k, cols, p0, p1, c.s.masks)
		var beta float32 = 1
		if first {
			beta = 0
		}
		sgemmSerial(false, true, l.cout, kk, nc, gz[p0*hw:], m, cols, nc, beta, c.s.dw[worker*size:], kk)
		if !c.needDX {
			return
		}
		sgemmSerial(true, false, kk, nc, l.cout, c.weight, kk, gz[p0*hw:], m, 0, cols, nc)
		col2im(cols, l.cin, c.n, c.h, c.w, l.k, c.dx, p0, p1, c.s.masks)
		if accum != nil {
			for ci := 0; ci < l.cin; ci++ {
				off := ci*m + p0*hw
				addInto(c.dx[off:off+nc], accum[off:off+nc])
			}
		}
	})
	grad := l.weight.Grad[:size]
	copy(grad, c.s.dw[:size])
	for w := 1; w < workers; w++ {
		addInto(grad, c.s.dw[w*size:])
	}
}

// forEachSlab cuts the batch into slabs of c.slab positions and calls
// f(worker, p0, p1, first, cols) for each slab [p0, p1), cols being the
// worker's scratch for the slab's columns and first whether the slab is the
// worker's first. Each of up to GOMAXPROCS goroutines takes a fixed,
// contiguous range of slabs. It returns the number of workers.
func (c *convKernel) forEachSlab(f func(worker, p0, p1 int, first bool, cols []float32)) int {
	kk := c.l.cin * c.l.k * c.l.k
	hw := c.h * c.w
	slabs := (c.n + c.slab - 1) / c.slab
	return forRanges(slabs, c.s.workers, func(worker, s0, s1 int) {
		for s := s0; s < s1; s++ {
			p0, p1 := s*c.slab, min(c.n, (s+1)*c.slab)
			f(worker, p0, p1, s == s0, c.s.cols[worker*c.s.per:][:kk*(p1-p0)*hw])
		}
	})
}

// colsSlabFloats bounds the slab of im2col columns (in float32s) one
// goroutine builds and multiplies at a time: 1 MiB, 4 positions of a
// 64-channel 3x3 layer on 10x10, so that the columns are still in L2 when
// the products read them. (The whole batch's columns, 59 MB a layer for the
// 6x64 net at batch 256, would go to memory and back, three times a step.)
const colsSlabFloats = 256 << 10

// colsSlabPositions returns the positions of one slab of a layer's columns,
// kk rows of h*w columns per position.
func colsSlabPositions(kk, h, w int) int { return max(1, colsSlabFloats/(kk*h*w)) }

// convScratch is the working memory the k x k convolutions of one graph
// share (they run one after another): a slab of columns and a share of the
// weight gradient per goroutine, and the taps' masks.
type convScratch struct {
	workers int       // goroutines the slabs are spread over (GOMAXPROCS when built)
	per     int       // floats of cols per goroutine
	cols    []float32 // workers x per
	dw      []float32 // workers x the largest cout*kk
	masks   []uint32  // tapMasks(n, h, w, k)
}

// newConvScratch returns the scratch for k x k convolutions of at most maxKK
// column rows (cin*k*k) and maxCout outputs over batches of n h x w boards.
func newConvScratch(maxKK, maxCout, n, h, w, k int) *convScratch {
	workers := maxProcs()
	per := max(colsSlabFloats, maxKK*h*w)
	return &convScratch{workers: workers, per: per, cols: make([]float32, workers*per),
		dw: make([]float32, workers*maxCout*maxKK), masks: tapMasks(n, h, w, k)}
}

// addInto adds src[i] to dst[i] for i < len(dst).
func addInto(dst, src []float32) {
	for i, v := range src[:len(dst)] {
		dst[i] += v
	}
}

// relu0 is max(0, v) without a branch (a ReLU's sign is a coin toss, and
// its mispredicted branches cost more than the arithmetic): the sign bit
// selects 0. A negative NaN gives 0 too.
func relu0(v float32) float32 {
	b := math.Float32bits(v)
	return math.Float32frombits(b &^ uint32(int32(b)>>31))
}
