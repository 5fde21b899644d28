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
// the buffers its forward pass writes and its backward pass reads. In
// training each 3x3 kernel keeps its own im2col columns for the backward
// pass; in the eval-mode graph the kernels share one column buffer.
type convKernel struct {
	l            *convLayer
	mode         normMode
	n, h, w      int
	weight, bias []float32 // weights used in the forward pass
	cols         []float32 // >= cin*k*k*n*h*w (nil when k == 1): the kernel's own in training, shared in eval mode
	dcols        []float32 // training, k > 1: a slab of input-gradient columns per goroutine, shared by the graph's kernels
	dslab        int       // positions per slab of dcols
	masks        []uint32  // k > 1: tapMasks(n, h, w, k)
	x, skip      []float32 // the last forward pass's inputs
	z            []float32 // cout x n*h*w: convolution output, normalised in place in training
	y            []float32 // cout x n*h*w: output
	invstd       []float32 // cout: batch 1/sqrt(var+eps) in training
	g            []float32 // cout x n*h*w: gradient at the pre-activation (and of the skip input)
	dx           []float32 // cin x n*h*w: gradient of the input
	needDX       bool      // whether backward computes dx (false for the stem)
}

// newConvKernel allocates a kernel's buffers; train adds the backward ones.
// masks is tapMasks(n, h, w, l.k), shared by the graph's kernels of that
// size (nil: the kernel makes its own).
func newConvKernel(l *convLayer, mode normMode, n, h, w int, cols, dcols []float32, masks []uint32, train bool) *convKernel {
	m := n * h * w
	c := &convKernel{l: l, mode: mode, n: n, h: h, w: w, cols: cols, dcols: dcols, dslab: dcolsSlabPositions(l.cin*l.k*l.k, h, w),
		z: make([]float32, l.cout*m), y: make([]float32, l.cout*m), needDX: true}
	c.weight = l.weight.Data
	if l.k > 1 {
		if masks == nil {
			masks = tapMasks(n, h, w, l.k)
		}
		c.masks = masks
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

// columns returns the im2col matrix of x (x itself for a 1x1 convolution).
func (c *convKernel) columns(x []float32) []float32 {
	if c.l.k == 1 {
		return x
	}
	im2col(x, c.l.cin, c.n, c.h, c.w, c.l.k, c.cols, c.masks)
	return c.cols
}

// forward computes y from x (cin x n*h*w) and skip (cout x n*h*w or nil).
func (c *convKernel) forward(x, skip []float32) {
	l := c.l
	m := c.n * c.h * c.w
	kk := l.cin * l.k * l.k
	c.x, c.skip = x, skip
	sgemmPar(true, false, false, l.cout, m, kk, c.weight, kk, c.columns(x), m, 0, c.z, m)
	forEach(true, l.cout, c.forwardChannel)
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
			sum, sq := moments(z)
			mean := sum / float64(m)
			ss := max(0, sq-sum*mean)
			variance := ss / float64(m)
			inv := 1 / math.Sqrt(variance+bnEpsilon)
			c.invstd[co] = float32(inv)
			mf, invf := float32(mean), float32(inv)
			scale, shift = l.gamma.Data[co], l.beta.Data[co]
			// Normalise z in place (backward reads xhat) and write y in
			// the same pass.
			c.epilogueNorm(y, z, mf, invf, scale, shift, c.skip, co*m)
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

// epilogueNorm normalises one channel's row in place, z = (z-mean)*inv,
// and writes y = relu?(scale*z + shift + skip) in the same pass.
func (c *convKernel) epilogueNorm(y, z []float32, mean, inv, scale, shift float32, skip []float32, off int) {
	y = y[:len(z)]
	var s []float32
	if skip != nil {
		s = skip[off : off+len(z)]
	}
	relu := c.l.relu
	for i, v := range z {
		xh := (v - mean) * inv
		z[i] = xh
		o := scale*xh + shift
		if s != nil {
			o += s[i]
		}
		if relu {
			o = relu0(o)
		}
		y[i] = o
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
	forEach(true, l.cout, func(co int) {
		g, y := c.g[co*m:(co+1)*m], c.y[co*m:(co+1)*m]
		d := dy[co*m : (co+1)*m]
		out := gz[co*m : (co+1)*m]
		if c.mode == normBias {
			var db float64
			for i, v := range d {
				if l.relu && y[i] <= 0 {
					v = 0
				}
				g[i] = v
				db += float64(v)
			}
			l.bias.Grad[co] = float32(db)
			if &out[0] != &g[0] {
				copy(out, g)
			}
			return
		}
		xhat := c.z[co*m : (co+1)*m]
		db, dg := maskSums(g, d, y, xhat, l.relu)
		l.gamma.Grad[co] = float32(dg)
		l.beta.Grad[co] = float32(db)
		k := l.gamma.Data[co] * c.invstd[co]
		mdb, mdg := float32(db/float64(m)), float32(dg/float64(m))
		for i, v := range g {
			out[i] = k * (v - mdb - xhat[i]*mdg)
		}
	})
	cols := c.x
	if l.k > 1 {
		cols = c.cols // still this layer's columns: training kernels own theirs
	}
	sgemmPar(true, false, true, l.cout, kk, m, gz, m, cols, m, 0, l.weight.Grad, kk)
	if !c.needDX {
		return
	}
	if l.k > 1 {
		c.backwardColumns(gz, accum)
		return
	}
	sgemmPar(true, true, false, kk, m, l.cout, c.weight, kk, gz, m, 0, c.dx, m)
	if accum != nil {
		for i, v := range accum[:len(c.dx)] {
			c.dx[i] += v
		}
	}
}

// dcolsSlabFloats bounds the slab of the input-gradient columns (in
// float32s) one goroutine multiplies and folds back at a time: 1 MiB, 4
// positions of a 64-channel 3x3 layer on 10x10, so that the product's
// output is still in L2 when col2im reads it. (The whole batch's columns,
// 59 MB for the 6x64 net at batch 256, would go to memory and back.)
const dcolsSlabFloats = 256 << 10

// dcolsSlabPositions returns the positions of one slab of a layer's
// input-gradient columns, kk rows of h*w columns per position.
func dcolsSlabPositions(kk, h, w int) int { return max(1, dcolsSlabFloats/(kk*h*w)) }

// dcolsScratch returns the floats one goroutine's slab of input-gradient
// columns needs for any layer of at most maxKK rows on an h x w board.
func dcolsScratch(maxKK, h, w int) int { return max(dcolsSlabFloats, maxKK*h*w) }

// backwardColumns writes c.dx (plus accum when not nil) for a k x k
// convolution from the gradient gz at its output: slab by slab of
// positions, spread over goroutines, dcols = Wᵀ gz for the slab, then
// col2im of the slab into its own part of dx.
func (c *convKernel) backwardColumns(gz, accum []float32) {
	l := c.l
	hw := c.h * c.w
	m := c.n * hw
	kk := l.cin * l.k * l.k
	per := c.dslab
	scratch := kk * per * hw
	slabs := (c.n + per - 1) / per
	forEachWorker(slabs, len(c.dcols)/scratch, func(worker, s int) {
		p0, p1 := s*per, min(c.n, (s+1)*per)
		cols := (p1 - p0) * hw
		buf := c.dcols[worker*scratch:][:kk*cols]
		sgemmSerial(true, false, kk, cols, l.cout, c.weight, kk, gz[p0*hw:], m, 0, buf, cols)
		col2im(buf, l.cin, c.n, c.h, c.w, l.k, c.dx, p0, p1, c.masks)
		if accum != nil {
			for ci := 0; ci < l.cin; ci++ {
				off := ci*m + p0*hw
				d, a := c.dx[off:off+cols], accum[off:off+cols]
				for i, v := range a {
					d[i] += v
				}
			}
		}
	})
}

// moments returns the sum and the sum of squares of z in float64, over four
// independent accumulators of each so that the additions pipeline.
func moments(z []float32) (sum, sq float64) {
	var s0, s1, s2, s3, q0, q1, q2, q3 float64
	i := 0
	for ; i+4 <= len(z); i += 4 {
		v := z[i : i+4 : i+4]
		f0, f1, f2, f3 := float64(v[0]), float64(v[1]), float64(v[2]), float64(v[3])
		s0, s1, s2, s3 = s0+f0, s1+f1, s2+f2, s3+f3
		q0, q1, q2, q3 = q0+f0*f0, q1+f1*f1, q2+f2*f2, q3+f3*f3
	}
	for ; i < len(z); i++ {
		f := float64(z[i])
		s0 += f
		q0 += f * f
	}
	return (s0 + s1) + (s2 + s3), (q0 + q1) + (q2 + q3)
}

// relu0 is max(0, v) without a branch (a ReLU's sign is a coin toss, and
// its mispredicted branches cost more than the arithmetic): the sign bit
// selects 0. A negative NaN gives 0 too.
func relu0(v float32) float32 {
	b := math.Float32bits(v)
	return math.Float32frombits(b &^ uint32(int32(b)>>31))
}

// maskBy returns v where the ReLU output y is nonzero and 0 where it is
// (+ or -) zero, without a branch: y is a ReLU's output, so y <= 0 means
// y == 0.
func maskBy(v, y float32) float32 {
	a := math.Float32bits(y) &^ (1 << 31)
	keep := uint32(int32(a|-a) >> 31)
	return math.Float32frombits(math.Float32bits(v) & keep)
}

// maskSums writes g = d, zeroed where relu is set and y <= 0 (the ReLU's
// gradient mask), and returns sum(g) and sum(g*xhat) in float64, over four
// independent accumulators of each so that the additions pipeline.
func maskSums(g, d, y, xhat []float32, relu bool) (db, dg float64) {
	n := len(g)
	d, y, xhat = d[:n], y[:n], xhat[:n]
	var b0, b1, b2, b3, g0, g1, g2, g3 float64
	i := 0
	for ; i+4 <= n; i += 4 {
		v := [4]float32(d[i : i+4])
		if relu {
			yy := [4]float32(y[i : i+4])
			for j := range v {
				v[j] = maskBy(v[j], yy[j])
			}
		}
		copy(g[i:i+4], v[:])
		x := [4]float32(xhat[i : i+4])
		b0, b1, b2, b3 = b0+float64(v[0]), b1+float64(v[1]), b2+float64(v[2]), b3+float64(v[3])
		g0 += float64(v[0]) * float64(x[0])
		g1 += float64(v[1]) * float64(x[1])
		g2 += float64(v[2]) * float64(x[2])
		g3 += float64(v[3]) * float64(x[3])
	}
	for ; i < n; i++ {
		v := d[i]
		if relu && y[i] <= 0 {
			v = 0
		}
		g[i] = v
		b0 += float64(v)
		g0 += float64(v) * float64(xhat[i])
	}
	return (b0 + b1) + (b2 + b3), (g0 + g1) + (g2 + g3)
}
