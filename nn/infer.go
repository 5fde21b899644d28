package nn

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Inference keeps activations position-major and channel-last (NHWC), each
// position's board inside a zero border and every channel count rounded up
// to a multiple of 8 (the extra channels are zero). A 3x3 convolution is
// then a Winograd F(2x2, 3x3) convolution (winograd.go) whose transforms
// read and write whole channel vectors (winokern.go) and whose 16 products
// are plain GEMMs on contiguous matrices; a 1x1 convolution is one GEMM over
// every square of the padded boards. The border is never written by a 3x3
// convolution, so it stays zero and gives the convolutions their padding.
// (Training keeps the channel-major layout of im2col.go: its backward pass
// needs the columns anyway.)

// padGeom is the padded NHWC geometry of an h x w board: the board's
// squares sit at rows 1..h and columns 1..w of a ph x pw plane whose other
// squares are zero. ph and pw also leave room for the Winograd tiles of an
// odd height or width (tiles whose extra outputs are computed and then
// cleared).
type padGeom struct {
	h, w   int // the board
	th, tw int // Winograd tile rows and columns
	ph, pw int // the padded plane
}

// newPadGeom returns the padded geometry of an h x w board.
func newPadGeom(h, w int) padGeom {
	th, tw := winoTiles(h, w)
	return padGeom{h: h, w: w, th: th, tw: tw, ph: 2*th + 2, pw: 2*tw + 2}
}

// squares returns the squares of one padded plane.
func (g padGeom) squares() int { return g.ph * g.pw }

// at returns the padded square of board square (y, x).
func (g padGeom) at(y, x int) int { return (y+1)*g.pw + x + 1 }

// roundUp8 rounds a channel count up to a multiple of 8, the vector width
// of the transform kernels.
func roundUp8(c int) int { return (c + 7) &^ 7 }

// winoConv is a folded 3x3 convolution ready for Winograd inference.
type winoConv struct {
	cin, cout int       // channels, rounded up to multiples of 8
	u         []float32 // 16 x cin x cout: U_ξ, zero for the padding channels
	bias      []float32 // cout
	relu      bool
}

// newWinoConv transforms the folded 3x3 layer l.
func newWinoConv(l *convLayer) *winoConv {
	c := &winoConv{cin: roundUp8(l.cin), cout: roundUp8(l.cout), relu: l.relu}
	c.u = winogradWeights(l.weight.Data, l.cout, l.cin, c.cout, c.cin)
	c.bias = make([]float32, c.cout)
	copy(c.bias, l.bias.Data)
	return c
}

// pointConv is a folded 1x1 convolution over padded NHWC input: y (squares
// x cout) = relu?(x (squares x cin) * weightᵀ + bias).
type pointConv struct {
	cin, cout int       // cin: the input's row width (channels, maybe padded)
	weight    []float32 // cout x cin, zero for the padding channels
	bias      []float32 // cout
	relu      bool
}

// newPointConv copies the folded 1x1 layer l for input rows of cin >= l.cin
// channels (the extra ones zero).
func newPointConv(l *convLayer, cin int) *pointConv {
	c := &pointConv{cin: cin, cout: l.cout, relu: l.relu, bias: append([]float32(nil), l.bias.Data...)}
	c.weight = make([]float32, c.cout*c.cin)
	for co := 0; co < l.cout; co++ {
		copy(c.weight[co*c.cin:][:l.cin], l.weight.Data[co*l.cin:][:l.cin])
	}
	return c
}

// inferWeights is a Folded network laid out for the NHWC inference graph.
type inferWeights struct {
	geom            padGeom
	stem            *winoConv
	blocks          [][2]*winoConv
	pools           []*poolLayer // each block's global pooling; nil without
	polConv, polOut *pointConv   // polOut writes its logits transposed (inferGraph.policy)
	// The value and moves-left heads run as one head of twice the width,
	// so that they cost three products, not six: headConv is both 1x1
	// convolutions (value channels first), fc1 both hidden layers, fc2 the
	// WDL logits and the moves-left output; each layer's weights are zero
	// where one head would read the other's features.
	headConv *pointConv
	// fc1 is the fc1s' weights at the padded squares, zero on the border,
	// transposed: squares*2*ValueFilters x 2*hidden, so that the product
	// reads it as it is stored at any batch size (a transposed operand of
	// fewer rows than a panel would be transposed at every call).
	fc1          []float32
	fc1Bias      []float32 // 2*hidden
	fc2, fc2Bias []float32 // 4 x 2*hidden, 4
}

// placeDense copies the weights of l, a dense layer reading a position's vf
// x h x w features channel-major, into rows row.. of dst, a weight matrix
// over the padded NHWC plane of cs channels the inference graph hands it
// (square*cs + channel), reading channels c0..c0+vf; dst's other entries
// (the border, other channels) are left as they are (zero).
func placeDense(dst []float32, row int, l *denseLayer, g padGeom, vf, cs, c0 int) {
	hw, in := g.h*g.w, g.squares()*cs
	for o := 0; o < l.out; o++ {
		src := l.weight.Data[o*vf*hw:][:vf*hw]
		d := dst[(row+o)*in:][:in]
		for c := 0; c < vf; c++ {
			for y := 0; y < g.h; y++ {
				for x := 0; x < g.w; x++ {
					d[g.at(y, x)*cs+c0+c] = src[c*hw+y*g.w+x]
				}
			}
		}
	}
}

// newInferWeights lays out the folded tower t of a cfg network.
func newInferWeights(cfg Config, t *tower) *inferWeights {
	g := newPadGeom(cfg.Height, cfg.Width)
	f := roundUp8(cfg.Filters)
	iw := &inferWeights{geom: g, stem: newWinoConv(t.stem),
		polConv: newPointConv(t.polConv, f), polOut: newPointConv(t.polOut, cfg.PolicyFilters)}
	for _, b := range t.blocks {
		iw.blocks = append(iw.blocks, [2]*winoConv{newWinoConv(b[0]), newWinoConv(b[1])})
	}
	iw.pools = t.pools
	// The two heads' 1x1 convolutions as one, value channels first.
	vf, vh := cfg.ValueFilters, cfg.ValueHidden
	vc, mc := newPointConv(t.valConv, f), newPointConv(t.mlConv, f)
	iw.headConv = &pointConv{cin: f, cout: 2 * vf, relu: true,
		weight: append(vc.weight, mc.weight...), bias: append(vc.bias, mc.bias...)}
	// fc1 reads a position's features channel-major (c*hw + square); the
	// graph hands it the padded NHWC plane of both heads' features
	// (square*2vf + c) instead.
	in := g.squares() * 2 * vf
	fc1 := make([]float32, 2*vh*in)
	placeDense(fc1, 0, t.fc1, g, vf, 2*vf, 0)
	placeDense(fc1, vh, t.mlFc1, g, vf, 2*vf, vf)
	iw.fc1 = make([]float32, len(fc1))
	for o := 0; o < 2*vh; o++ {
		for i, w := range fc1[o*in:][:in] {
			iw.fc1[i*2*vh+o] = w
		}
	}
	iw.fc1Bias = append(append([]float32(nil), t.fc1.bias.Data...), t.mlFc1.bias.Data...)
	iw.fc2 = make([]float32, 4*2*vh)
	for k := 0; k < 3; k++ {
		copy(iw.fc2[k*2*vh:][:vh], t.fc2.weight.Data[k*vh:][:vh])
	}
	copy(iw.fc2[3*2*vh+vh:][:vh], t.mlFc2.weight.Data)
	iw.fc2Bias = append(append([]float32(nil), t.fc2.bias.Data...), t.mlFc2.bias.Data...)
	return iw
}

// gemmFlopsPerPosition returns the floating-point operations of the
// products the inference graph issues per position: what Winograd leaves of
// the 3x3 convolutions (with the channel padding), and the 1x1 convolutions
// and fc1 over the padded squares.
func (iw *inferWeights) gemmFlopsPerPosition() float64 {
	g := iw.geom
	tiles, sq := float64(g.th*g.tw), float64(g.squares())
	f := 0.0
	for _, c := range append([]*winoConv{iw.stem}, flattenBlocks(iw.blocks)...) {
		f += 2 * 16 * tiles * float64(c.cin*c.cout)
	}
	for _, c := range []*pointConv{iw.polConv, iw.polOut, iw.headConv} {
		f += 2 * sq * float64(c.cin*c.cout)
	}
	return f + 2*float64(len(iw.fc1)+len(iw.fc2))
}

// inferGraph is the Gorgonia graph of a folded network's forward pass at a
// fixed batch size n, in the padded NHWC layout, with every buffer
// allocated once. run executes its ops in the graph's topological order
// without allocating.
type inferGraph struct {
	g      *G.ExprGraph
	geom   padGeom
	n      int
	order  []*kernelOp
	planes []float32 // n x squares x roundUp8(Channels): the input
	policy []float32 // PolicyPlanes x n*squares: the policy logits without their bias, plane-major
	pbias  []float32 // PolicyPlanes: the policy logits' bias
	wdl    []float32 // 3 x n: the WDL logits
	ml     []float32 // n: the moves-left head's raw outputs (right after wdl)
}

// inferScratch is the working memory the Winograd convolutions of one graph
// share (they run one after another).
type inferScratch struct {
	v, m []float32 // 16 x slab tiles x channels: transformed input, products
}

// newInferGraph builds the inference graph of iw for batches of n positions.
func newInferGraph(cfg Config, iw *inferWeights, n int) (*inferGraph, error) {
	geo := iw.geom
	sq := n * geo.squares()
	ig := &inferGraph{g: G.NewGraph(), geom: geo, n: n, pbias: iw.polOut.bias}
	b := &graphBuilder{g: ig.g, tensors: map[*G.Node]*tensor.Dense{}}
	maxC := iw.stem.cin
	for _, c := range append([]*winoConv{iw.stem}, flattenBlocks(iw.blocks)...) {
		maxC = max(maxC, c.cin, c.cout)
	}
	slab := min(n, winoSlabPositions(cfg.Height, cfg.Width))
	s := &inferScratch{v: make([]float32, 16*slab*geo.th*geo.tw*maxC), m: make([]float32, 16*slab*geo.th*geo.tw*maxC)}
	ig.planes = make([]float32, sq*iw.stem.cin)
	x := b.input("planes", ig.planes, n, geo.ph, geo.pw, iw.stem.cin)

	// The tower: three activation buffers rotate (block input, the first
	// convolution's output, the block's output).
	f := iw.stem.cout
	acts := [3][]float32{make([]float32, sq*f), make([]float32, sq*f), make([]float32, sq*f)}
	wino := func(name string, c *winoConv, in *G.Node, inBuf []float32, skip *G.Node, skipBuf, out []float32) *G.Node {
		inputs := []*G.Node{in, b.input(name+".winograd_weight", c.u, 16, c.cin, c.cout), b.input(name+".folded_bias", c.bias, c.cout)}
		if skip != nil {
			inputs = append(inputs, skip)
		}
		k := &winoKernel{c: c, geom: geo, n: n, s: s, x: inBuf, skip: skipBuf, y: out}
		return b.apply(newKernelOp(name, out, []int{n, geo.ph, geo.pw, c.cout}, k.forward, inputs...), inputs...)
	}
	y := wino("stem", iw.stem, x, ig.planes, nil, nil, acts[0])
	// With global pooling a fourth buffer holds each block's pooled
	// activations (the blocks run one after another).
	var pooled []float32
	if iw.pools != nil {
		pooled = make([]float32, sq*f)
	}
	cur := 0
	for i, bl := range iw.blocks {
		mid, next := (cur+1)%3, (cur+2)%3
		h := wino(fmt.Sprintf("block%d.conv1", i), bl[0], y, acts[cur], nil, nil, acts[mid])
		hBuf := acts[mid]
		if iw.pools != nil {
			p := newInferPool(iw.pools[i], geo)
			in, pIn := acts[mid], []*G.Node{h, b.input(fmt.Sprintf("block%d.pool.weight", i), p.l.weight.Data, p.l.weight.Shape...),
				b.input(fmt.Sprintf("block%d.pool.bias", i), p.l.bias.Data, p.l.bias.Shape...)}
			h = b.apply(newKernelOp(fmt.Sprintf("block%d.pool", i), pooled, []int{n, geo.ph, geo.pw, f}, func() {
				p.apply(geo, n, f, in, pooled)
			}, pIn...), pIn...)
			hBuf = pooled
		}
		y = wino(fmt.Sprintf("block%d.conv2", i), bl[1], h, hBuf, y, acts[cur], acts[next])
		cur = next
	}
	tower := acts[cur]

	// Policy head: a 1x1 convolution with ReLU, then the logits, computed
	// transposed (plane-major) so that reading one position's legal moves
	// walks rows; their bias is added as they are read.
	pc, po := iw.polConv, iw.polOut
	pbuf := make([]float32, sq*pc.cout)
	ig.policy = make([]float32, po.cout*sq)
	p1 := b.pointwise("policy.conv", pc, y, tower, pbuf, sq)
	plIn := []*G.Node{p1, b.input("policy.logits.weight", po.weight, po.cout, po.cin)}
	b.apply(newKernelOp("policy.logits", ig.policy, []int{po.cout, sq}, func() {
		sgemmSerial(false, true, po.cout, sq, po.cin, po.weight, po.cin, pbuf, pc.cout, 0, ig.policy, sq)
	}, plIn...), plIn...)

	// Value and moves-left heads, as one: a 1x1 convolution with ReLU, then
	// fc1 over each position's padded plane of features and fc2 to the WDL
	// logits and the moves-left output.
	vc := iw.headConv
	vbuf := make([]float32, sq*vc.cout)
	v1 := b.pointwise("heads.conv", vc, y, tower, vbuf, sq)
	hidden, in := len(iw.fc1Bias), geo.squares()*vc.cout
	hbuf := make([]float32, n*hidden)
	fc1In := []*G.Node{v1, b.input("heads.fc1.weight", iw.fc1, in, hidden), b.input("heads.fc1.bias", iw.fc1Bias, hidden)}
	v2 := b.apply(newKernelOp("heads.fc1", hbuf, []int{n, hidden}, func() {
		sgemmSerial(false, false, n, hidden, in, vbuf, in, iw.fc1, hidden, 0, hbuf, hidden)
		biasReLURows(hbuf, iw.fc1Bias, true)
	}, fc1In...), fc1In...)
	out := make([]float32, 4*n)
	ig.wdl, ig.ml = out[:3*n], out[3*n:]
	fc2In := []*G.Node{v2, b.input("heads.fc2.weight", iw.fc2, 4, hidden), b.input("heads.fc2.bias", iw.fc2Bias, 4)}
	b.apply(newKernelOp("heads.fc2", out, []int{4, n}, func() {
		sgemmSerial(false, true, 4, n, hidden, iw.fc2, hidden, hbuf, hidden, 0, out, n)
		for k := 0; k < 4; k++ {
			row := out[k*n:][:n]
			for i := range row {
				row[i] += iw.fc2Bias[k]
			}
		}
	}, fc2In...), fc2In...)

	if b.err != nil {
		return nil, b.err
	}
	order, err := sortedOps(ig.g)
	if err != nil {
		return nil, err
	}
	ig.order = order
	return ig, nil
}

// flattenBlocks lists the convolutions of the residual blocks in order.
func flattenBlocks(blocks [][2]*winoConv) []*winoConv {
	var out []*winoConv
	for _, b := range blocks {
		out = append(out, b[0], b[1])
	}
	return out
}

// pointwise adds a 1x1 convolution over all sq padded squares of in (whose
// values are inBuf), writing out.
func (b *graphBuilder) pointwise(name string, c *pointConv, in *G.Node, inBuf, out []float32, sq int) *G.Node {
	inputs := []*G.Node{in, b.input(name+".weight", c.weight, c.cout, c.cin), b.input(name+".folded_bias", c.bias, c.cout)}
	return b.apply(newKernelOp(name, out, []int{sq, c.cout}, func() {
		sgemmSerial(false, true, sq, c.cout, c.cin, inBuf, c.cin, c.weight, c.cin, 0, out, c.cout)
		biasReLURows(out, c.bias, c.relu)
	}, inputs...), inputs...)
}

// biasReLURows adds bias to every row of the row-major matrix y (rows of
// len(bias)) and applies a ReLU when relu is set.
func biasReLURows(y, bias []float32, relu bool) {
	c := len(bias)
	for r := 0; r+c <= len(y); r += c {
		row := y[r : r+c]
		for i, b := range bias {
			v := row[i] + b
			if relu {
				v = relu0(v)
			}
			row[i] = v
		}
	}
}

// run executes the graph's ops in order.
func (ig *inferGraph) run() {
	for _, op := range ig.order {
		op.exec()
	}
}

// setPlanes copies size positions of NCHW planes into the interior of the
// graph's padded NHWC input and zeroes the rest of the batch's interior.
func (ig *inferGraph) setPlanes(src []float32, size, channels int) {
	geo := ig.geom
	cp := len(ig.planes) / (ig.n * geo.squares())
	hw := geo.h * geo.w
	for p := 0; p < ig.n; p++ {
		plane := ig.planes[p*geo.squares()*cp:][:geo.squares()*cp]
		for y := 0; y < geo.h; y++ {
			for x := 0; x < geo.w; x++ {
				dst := plane[geo.at(y, x)*cp:][:channels]
				if p >= size {
					clear(dst)
					continue
				}
				s := src[p*channels*hw+y*geo.w+x:]
				for c := range dst {
					dst[c] = s[c*hw]
				}
			}
		}
	}
}

// logitLayout returns how writeOutputs finds the graph's policy logits.
func (ig *inferGraph) logitLayout() logitLayout {
	return logitLayout{plane: ig.geom.squares(), origin: ig.geom.at(0, 0), row: ig.geom.pw, bias: ig.pbias}
}

// winoKernel is one Winograd convolution of an inference graph.
type winoKernel struct {
	c       *winoConv
	geom    padGeom
	n       int
	s       *inferScratch
	x, skip []float32 // padded NHWC input and residual (nil for none)
	y       []float32 // padded NHWC output: only the board's squares are written
}

// forward runs the convolution slab by slab: the input transform of a
// slab's tiles, the 16 products, and the output transform with the bias,
// residual add and ReLU, while the slab is still in cache.
func (k *winoKernel) forward() {
	c, geo, s := k.c, k.geom, k.s
	per := geo.th * geo.tw
	rowIn, rowOut := geo.pw*c.cin, geo.pw*c.cout
	slab := winoSlabPositions(geo.h, geo.w)
	for p0 := 0; p0 < k.n; p0 += slab {
		p1 := min(k.n, p0+slab)
		tiles := (p1 - p0) * per
		for p := p0; p < p1; p++ {
			for ty := 0; ty < geo.th; ty++ {
				t := (p-p0)*per + ty*geo.tw
				winoInputRow(s.v[t*c.cin:], tiles*c.cin, k.x[(p*geo.ph+2*ty)*rowIn:], rowIn, c.cin, geo.tw)
			}
		}
		for xi := 0; xi < 16; xi++ {
			sgemmSerial(false, false, tiles, c.cout, c.cin, s.v[xi*tiles*c.cin:], c.cin,
				c.u[xi*c.cin*c.cout:], c.cout, 0, s.m[xi*tiles*c.cout:], c.cout)
		}
		for p := p0; p < p1; p++ {
			for ty := 0; ty < geo.th; ty++ {
				t := (p-p0)*per + ty*geo.tw
				off := (p*geo.ph+2*ty+1)*rowOut + c.cout
				var skip []float32
				if k.skip != nil {
					skip = k.skip[off:]
				}
				winoOutputRow(k.y[off:], rowOut, s.m[t*c.cout:], tiles*c.cout, c.bias, skip, c.cout, geo.tw, c.relu)
			}
		}
	}
	k.clearOverhang()
}

// clearOverhang zeroes what the last tile row or column of an odd height or
// width wrote past the board: the border must stay zero.
func (k *winoKernel) clearOverhang() {
	geo, cout := k.geom, k.c.cout
	if geo.h%2 == 0 && geo.w%2 == 0 {
		return
	}
	for p := 0; p < k.n; p++ {
		plane := k.y[p*geo.squares()*cout:][:geo.squares()*cout]
		if geo.h%2 == 1 {
			clear(plane[(geo.h+1)*geo.pw*cout:][:geo.pw*cout])
		}
		if geo.w%2 == 1 {
			for y := 1; y <= geo.h+1; y++ {
				clear(plane[(y*geo.pw+geo.w+1)*cout:][:cout])
			}
		}
	}
}
