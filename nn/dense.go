package nn

// denseLayer is a fully connected layer out = relu?(weight * x + bias) over
// a position's flattened features (channel-major, then square).
type denseLayer struct {
	in, out int
	relu    bool
	weight  *Param // (out, in)
	bias    *Param // (out)
}

// denseKernel is one graph's working state for a denseLayer at batch size
// n. Its input is a CNHW tensor of in/hw channels (hw = 1 for a dense input)
// and its output is (out x n), the CNHW layout of a 1x1 board.
type denseKernel struct {
	l     *denseLayer
	n, hw int
	xf    []float32 // in x n: the flattened input
	y     []float32 // out x n
	g     []float32 // out x n: gradient at the pre-activation
	dxf   []float32 // in x n
	dx    []float32 // (in/hw) x n*hw: gradient of the input, CNHW
}

// newDenseKernel allocates a kernel's buffers; train adds the backward ones.
func newDenseKernel(l *denseLayer, n, hw int, train bool) *denseKernel {
	d := &denseKernel{l: l, n: n, hw: hw, xf: make([]float32, l.in*n), y: make([]float32, l.out*n)}
	if train {
		d.g = make([]float32, l.out*n)
		d.dxf = make([]float32, l.in*n)
		d.dx = make([]float32, l.in*n)
	}
	return d
}

// forward computes y from the CNHW input x.
func (d *denseKernel) forward(x []float32) {
	l := d.l
	c := l.in / d.hw
	// xf[(ci*hw+p)][pos] = x[ci][pos*hw+p]
	for ci := 0; ci < c; ci++ {
		for pos := 0; pos < d.n; pos++ {
			src := x[(ci*d.n+pos)*d.hw : (ci*d.n+pos+1)*d.hw]
			for p, v := range src {
				d.xf[(ci*d.hw+p)*d.n+pos] = v
			}
		}
	}
	sgemmSerial(false, false, l.out, d.n, l.in, l.weight.Data, l.in, d.xf, d.n, 0, d.y, d.n)
	for o := 0; o < l.out; o++ {
		b := l.bias.Data[o]
		row := d.y[o*d.n : (o+1)*d.n]
		for i, v := range row {
			v += b
			if l.relu && v < 0 {
				v = 0
			}
			row[i] = v
		}
	}
}

// backward takes dy = d(loss)/dy and writes the parameter gradients and dx
// plus accum (when not nil), as convKernel.backward adds a second reader's
// gradient of the same input.
func (d *denseKernel) backward(dy, accum []float32) {
	l := d.l
	for i, v := range dy[:l.out*d.n] {
		if l.relu && d.y[i] <= 0 {
			v = 0
		}
		d.g[i] = v
	}
	for o := 0; o < l.out; o++ {
		var s float64
		for _, v := range d.g[o*d.n : (o+1)*d.n] {
			s += float64(v)
		}
		l.bias.Grad[o] = float32(s)
	}
	sgemmSerial(false, true, l.out, l.in, d.n, d.g, d.n, d.xf, d.n, 0, l.weight.Grad, l.in)
	sgemmSerial(true, false, l.in, d.n, l.out, l.weight.Data, l.in, d.g, d.n, 0, d.dxf, d.n)
	c := l.in / d.hw
	for ci := 0; ci < c; ci++ {
		for pos := 0; pos < d.n; pos++ {
			dst := d.dx[(ci*d.n+pos)*d.hw : (ci*d.n+pos+1)*d.hw]
			for p := range dst {
				dst[p] = d.dxf[(ci*d.hw+p)*d.n+pos]
			}
		}
	}
	if accum != nil {
		addInto(d.dx, accum)
	}
}
