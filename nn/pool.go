package nn

import G "gorgonia.org/gorgonia"

// poolLayer is a residual block's global pooling (KataGo's global pooling
// bias): the mean and the maximum over the board of the first g channels
// of the block's first convolution (after its ReLU) feed a dense layer
// whose c outputs, one a channel, are added to every channel at every
// square before the block's second convolution. A 3x3 tower sees a few
// squares a layer; this gives every square of every block the whole
// board's summary.
type poolLayer struct {
	g, c   int
	weight *Param // (c, 2g): the g means' weights, then the g maxima's
	bias   *Param // (c)
}

// poolKernel is one training graph's working state for a poolLayer at
// batch size n over boards of hw squares, in the graph's CNHW layout.
type poolKernel struct {
	l      *poolLayer
	n, hw  int
	feats  []float32 // n x 2g: each position's means, then maxima
	argmax []int     // n x g: the square of each maximum (the first, on ties)
	add    []float32 // n x c: the biases added
	y      []float32 // c x n x hw: the input plus the biases
	dadd   []float32 // n x c: gradient at the biases (training)
	dfeats []float32 // n x 2g: gradient at the features (training)
	dx     []float32 // c x n x hw: gradient at the input (training)
}

// newPoolKernel allocates a kernel's buffers; train adds the backward ones.
func newPoolKernel(l *poolLayer, n, hw int, train bool) *poolKernel {
	k := &poolKernel{l: l, n: n, hw: hw, feats: make([]float32, n*2*l.g), argmax: make([]int, n*l.g),
		add: make([]float32, n*l.c), y: make([]float32, l.c*n*hw)}
	if train {
		k.dadd, k.dfeats, k.dx = make([]float32, n*l.c), make([]float32, n*2*l.g), make([]float32, l.c*n*hw)
	}
	return k
}

// poolBiases sets feats (2g: means, maxima) from the g pooled channels that
// channel(ch) returns, and add (c) from them through l's dense layer;
// argmax (g), when not nil, gets the square of each maximum.
func (l *poolLayer) poolBiases(channel func(ch int) (mean float64, max float32, at int), feats, add []float32, argmax []int) {
	g := l.g
	for ch := 0; ch < g; ch++ {
		mean, m, at := channel(ch)
		feats[ch], feats[g+ch] = float32(mean), m
		if argmax != nil {
			argmax[ch] = at
		}
	}
	for o := range add {
		s := float64(l.bias.Data[o])
		for j, w := range l.weight.Data[o*2*g:][:2*g] {
			s += float64(w) * float64(feats[j])
		}
		add[o] = float32(s)
	}
}

// meanMax returns the mean of row, its maximum and the index of the first
// maximum.
func meanMax(row []float32) (float64, float32, int) {
	var s float64
	m, at := row[0], 0
	for i, v := range row {
		s += float64(v)
		if v > m {
			m, at = v, i
		}
	}
	return s / float64(len(row)), m, at
}

// forward computes y from the CNHW input x.
func (k *poolKernel) forward(x []float32) {
	l, n, hw, g := k.l, k.n, k.hw, k.l.g
	for pos := 0; pos < n; pos++ {
		l.poolBiases(func(ch int) (float64, float32, int) { return meanMax(x[(ch*n+pos)*hw:][:hw]) },
			k.feats[pos*2*g:][:2*g], k.add[pos*l.c:][:l.c], k.argmax[pos*g:][:g])
	}
	for ch := 0; ch < l.c; ch++ {
		for pos := 0; pos < n; pos++ {
			b := k.add[pos*l.c+ch]
			out := k.y[(ch*n+pos)*hw:][:hw]
			for i, v := range x[(ch*n+pos)*hw:][:hw] {
				out[i] = v + b
			}
		}
	}
}

// backward takes dy = d(loss)/dy and writes the parameter gradients and
// dx, the gradient at the input: dy itself (the identity path) plus what
// flows back through the pooled features.
func (k *poolKernel) backward(dy []float32) {
	l, n, hw, g := k.l, k.n, k.hw, k.l.g
	for ch := 0; ch < l.c; ch++ {
		for pos := 0; pos < n; pos++ {
			var s float64
			for _, v := range dy[(ch*n+pos)*hw:][:hw] {
				s += float64(v)
			}
			k.dadd[pos*l.c+ch] = float32(s)
		}
	}
	for o := 0; o < l.c; o++ {
		var sb float64
		for pos := 0; pos < n; pos++ {
			sb += float64(k.dadd[pos*l.c+o])
		}
		l.bias.Grad[o] = float32(sb)
		for j := 0; j < 2*g; j++ {
			var sw float64
			for pos := 0; pos < n; pos++ {
				sw += float64(k.dadd[pos*l.c+o]) * float64(k.feats[pos*2*g+j])
			}
			l.weight.Grad[o*2*g+j] = float32(sw)
		}
	}
	for pos := 0; pos < n; pos++ {
		for j := 0; j < 2*g; j++ {
			var s float64
			for o := 0; o < l.c; o++ {
				s += float64(l.weight.Data[o*2*g+j]) * float64(k.dadd[pos*l.c+o])
			}
			k.dfeats[pos*2*g+j] = float32(s)
		}
	}
	copy(k.dx, dy[:len(k.dx)])
	for ch := 0; ch < g; ch++ {
		for pos := 0; pos < n; pos++ {
			row := k.dx[(ch*n+pos)*hw:][:hw]
			dm := k.dfeats[pos*2*g+ch] / float32(hw)
			for i := range row {
				row[i] += dm
			}
			row[k.argmax[pos*g+ch]] += k.dfeats[pos*2*g+g+ch]
		}
	}
}

// pool adds l's global pooling reading in (whose values are inBuf).
func (b *graphBuilder) pool(name string, l *poolLayer, in *G.Node, inBuf []float32) (*G.Node, *poolKernel) {
	ng := b.ng
	k := newPoolKernel(l, ng.n, ng.h*ng.w, b.train)
	inputs := []*G.Node{in, b.param(l.weight), b.param(l.bias)}
	op := newKernelOp(name, k.y, []int{l.c, ng.n, ng.h, ng.w}, func() { k.forward(inBuf) }, inputs...)
	return b.apply(op, inputs...), k
}

// poolGrad adds k's backward pass reading dy; its output is the gradient
// of k's input.
func (b *graphBuilder) poolGrad(name string, k *poolKernel, dy *G.Node, dyBuf []float32) *G.Node {
	op := newKernelOp(name, k.dx, []int{k.l.c, k.n, k.hw}, func() { k.backward(dyBuf) }, dy)
	return b.apply(op, dy)
}

// inferPool is a poolLayer laid out for the inference graph, which keeps
// each position's squares padded (padGeom) with cs channels a square.
type inferPool struct {
	l     *poolLayer
	feats []float32 // 2g
	add   []float32 // c
	row   []float32 // the board's squares of one channel
}

// newInferPool returns l for the inference graph.
func newInferPool(l *poolLayer, g padGeom) *inferPool {
	return &inferPool{l: l, feats: make([]float32, 2*l.g), add: make([]float32, l.c), row: make([]float32, g.h*g.w)}
}

// apply writes into out the n positions of h (padded NHWC, cs channels a
// square) with each position's biases added to its first c channels at the
// board's squares; the border is copied as it is (zero), as the next
// convolution's padding needs.
func (p *inferPool) apply(geo padGeom, n, cs int, h, out []float32) {
	copy(out, h[:n*geo.squares()*cs])
	for pos := 0; pos < n; pos++ {
		base := pos * geo.squares()
		p.l.poolBiases(func(ch int) (float64, float32, int) {
			for y := 0; y < geo.h; y++ {
				for x := 0; x < geo.w; x++ {
					p.row[y*geo.w+x] = h[(base+geo.at(y, x))*cs+ch]
				}
			}
			return meanMax(p.row)
		}, p.feats, p.add, nil)
		for y := 0; y < geo.h; y++ {
			for x := 0; x < geo.w; x++ {
				sq := out[(base+geo.at(y, x))*cs:][:p.l.c]
				for c, b := range p.add {
					sq[c] += b
				}
			}
		}
	}
}
