package nn

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// graphMode is what a graph computes.
type graphMode int

const (
	modeTrain graphMode = iota // forward with batch statistics, loss, backward
	modeEval                   // forward with running statistics (the unfolded reference of inference)
)

// netGraph is one Gorgonia graph of a tower at a fixed batch size, with
// every buffer its ops write allocated once. Running it (run) executes its
// ops in the topological order Gorgonia sorts the graph into, without
// allocating; Gorgonia's own TapeMachine runs the same graph to the same
// result (tested).
type netGraph struct {
	g        *G.ExprGraph
	n, h, w  int
	planes   []float32   // Channels x n*h*w: the input, CNHW
	order    []*kernelOp // ops in execution order
	convs    []*convKernel
	logits   []float32 // PolicyPlanes x n*h*w
	wdl      []float32 // 3 x n
	ml       []float32 // 1 x n: the moves-left head's raw output
	loss     *lossKernel
	lossVal  []float32 // {policy, value, moves left}
	lossNode *G.Node
	fc1      *denseKernel // value head kernels
	fc2      *denseKernel
}

// graphBuilder holds the state of one graph under construction.
type graphBuilder struct {
	g       *G.ExprGraph
	ng      *netGraph                 // nil for an inference graph
	tensors map[*G.Node]*tensor.Dense // the tensor each node's value lives in
	scratch *convScratch              // shared by the graph's 3x3 convolutions
	train   bool
	err     error
}

// input returns a graph input node named name bound to data.
func (b *graphBuilder) input(name string, data []float32, shape ...int) *G.Node {
	t := tensor.New(tensor.WithBacking(data), tensor.WithShape(shape...))
	n := G.NewTensor(b.g, tensor.Float32, len(shape), G.WithShape(shape...), G.WithName(name), G.WithValue(t))
	b.tensors[n] = t
	return n
}

// param returns a graph input node bound to p's values.
func (b *graphBuilder) param(p *Param) *G.Node {
	return b.input(p.Name, p.Data, p.Shape...)
}

// apply adds op to the graph reading inputs.
func (b *graphBuilder) apply(op *kernelOp, inputs ...*G.Node) *G.Node {
	if b.err != nil {
		return nil
	}
	for _, in := range inputs {
		op.expect = append(op.expect, b.tensors[in].Uintptr())
	}
	node, err := G.ApplyOpWithName(op, op.name, inputs...)
	if err != nil {
		b.err = fmt.Errorf("nn: building op %s: %w", op.name, err)
		return nil
	}
	b.tensors[node] = op.out
	return node
}

// conv adds a convolution reading in (whose values are inBuf) and, when
// skip is not nil, adding skipBuf before the ReLU.
func (b *graphBuilder) conv(name string, l *convLayer, in *G.Node, inBuf []float32, skip *G.Node, skipBuf []float32) (*G.Node, *convKernel) {
	ng := b.ng
	mode := normBias
	if l.gamma != nil {
		mode = normEval
		if b.train {
			mode = normBatch
		}
	}
	var s *convScratch
	if l.k > 1 {
		s = b.scratch
	}
	k := newConvKernel(l, mode, ng.n, ng.h, ng.w, s, b.train)
	inputs := []*G.Node{in, b.param(l.weight)}
	if l.gamma != nil {
		inputs = append(inputs, b.param(l.gamma), b.param(l.beta), b.param(l.mean), b.param(l.vari))
	} else {
		inputs = append(inputs, b.param(l.bias))
	}
	if skip != nil {
		inputs = append(inputs, skip)
	}
	op := newKernelOp(name, k.y, []int{l.cout, ng.n, ng.h, ng.w}, func() { k.forward(inBuf, skipBuf) }, inputs...)
	ng.convs = append(ng.convs, k)
	return b.apply(op, inputs...), k
}

// convGrad adds k's backward pass reading dy (and adding accum when not
// nil); its output is the gradient of k's input.
func (b *graphBuilder) convGrad(name string, k *convKernel, dy *G.Node, dyBuf []float32, accum *G.Node, accBuf []float32) *G.Node {
	inputs := []*G.Node{dy}
	if accum != nil {
		inputs = append(inputs, accum)
	}
	op := newKernelOp(name, k.dx, []int{k.l.cin, k.n, k.h, k.w}, func() { k.backward(dyBuf, accBuf) }, inputs...)
	return b.apply(op, inputs...)
}

// view adds an op that runs nothing and exposes buf, written by the op of
// node, as a node of its own: how the second output of a fused backward op
// (a residual's gradient, the WDL logits' gradient) enters the graph.
func (b *graphBuilder) view(name string, buf []float32, shape []int, node *G.Node) *G.Node {
	return b.apply(newKernelOp(name, buf, shape, nil, node), node)
}

// dense adds a dense layer reading in, a CNHW tensor over hw squares.
func (b *graphBuilder) dense(name string, l *denseLayer, hw int, in *G.Node, inBuf []float32) (*G.Node, *denseKernel) {
	k := newDenseKernel(l, b.ng.n, hw, b.train)
	inputs := []*G.Node{in, b.param(l.weight), b.param(l.bias)}
	op := newKernelOp(name, k.y, []int{l.out, b.ng.n}, func() { k.forward(inBuf) }, inputs...)
	return b.apply(op, inputs...), k
}

// denseGrad adds k's backward pass reading dy (and adding accum when not
// nil); its output is the gradient of k's input.
func (b *graphBuilder) denseGrad(name string, k *denseKernel, dy *G.Node, dyBuf []float32, accum *G.Node, accBuf []float32) *G.Node {
	inputs := []*G.Node{dy}
	if accum != nil {
		inputs = append(inputs, accum)
	}
	c := k.l.in / k.hw
	op := newKernelOp(name, k.dx, []int{c, k.n * k.hw}, func() { k.backward(dyBuf, accBuf) }, inputs...)
	return b.apply(op, inputs...)
}

// newNetGraph builds the graph of t for batches of n positions of cfg's shape.
func newNetGraph(cfg Config, t *tower, mode graphMode, n int) (*netGraph, error) {
	h, w := cfg.Height, cfg.Width
	m := n * h * w
	ng := &netGraph{g: G.NewGraph(), n: n, h: h, w: w, planes: make([]float32, cfg.Channels*m)}
	b := &graphBuilder{g: ng.g, ng: ng, train: mode == modeTrain, tensors: map[*G.Node]*tensor.Dense{},
		scratch: newConvScratch(max(cfg.Channels, cfg.Filters)*9, cfg.Filters, n, h, w, 3)}
	x := b.input("planes", ng.planes, cfg.Channels, n, h, w)

	// Forward.
	y, stem := b.conv("stem", t.stem, x, ng.planes, nil, nil)
	yBuf := stem.y
	type blockKernels struct {
		c1, c2 *convKernel
		pool   *poolKernel // nil without global pooling
	}
	var blocks []blockKernels
	for i, bl := range t.blocks {
		hNode, k1 := b.conv(fmt.Sprintf("block%d.conv1", i), bl[0], y, yBuf, nil, nil)
		hBuf := k1.y
		var pk *poolKernel
		if t.pools != nil {
			hNode, pk = b.pool(fmt.Sprintf("block%d.pool", i), t.pools[i], hNode, k1.y)
			hBuf = pk.y
		}
		y2, k2 := b.conv(fmt.Sprintf("block%d.conv2", i), bl[1], hNode, hBuf, y, yBuf)
		blocks = append(blocks, blockKernels{k1, k2, pk})
		y, yBuf = y2, k2.y
	}
	p1, pk1 := b.conv("policy.conv", t.polConv, y, yBuf, nil, nil)
	logits, pk2 := b.conv("policy.logits", t.polOut, p1, pk1.y, nil, nil)
	v1, vk := b.conv("value.conv", t.valConv, y, yBuf, nil, nil)
	v2, fk1 := b.dense("value.fc1", t.fc1, h*w, v1, vk.y)
	wdl, fk2 := b.dense("value.fc2", t.fc2, 1, v2, fk1.y)
	m1, mk := b.conv("moves_left.conv", t.mlConv, y, yBuf, nil, nil)
	m2, mfk1 := b.dense("moves_left.fc1", t.mlFc1, h*w, m1, mk.y)
	ml, mfk2 := b.dense("moves_left.fc2", t.mlFc2, 1, m2, mfk1.y)
	ng.logits, ng.wdl, ng.ml, ng.fc1, ng.fc2 = pk2.y, fk2.y, mfk2.y, fk1, fk2
	lossIn := []*G.Node{logits, wdl, ml}
	var svk *denseKernel // the short-term value head, read from the value head's hidden layer
	var svOut []float32
	if t.svFc != nil {
		var sv *G.Node
		sv, svk = b.dense("value.short", t.svFc, 1, v2, fk1.y)
		lossIn, svOut = append(lossIn, sv), svk.y
	}

	lk := newLossKernel(n, h*w, cfg.PolicyPlanes)
	ng.loss, ng.lossVal = lk, make([]float32, 4)
	lossOp := newKernelOp("loss", ng.lossVal, []int{4}, func() {
		lk.forward(pk2.y, fk2.y, mfk2.y, svOut)
		ng.lossVal[0], ng.lossVal[1], ng.lossVal[2], ng.lossVal[3] = float32(lk.policy), float32(lk.value), float32(lk.movesLeft), float32(lk.shortValue)
	}, lossIn...)
	ng.lossNode = b.apply(lossOp, lossIn...)
	if b.train {
		// Backward, in reverse.
		loss := ng.lossNode
		dLogits := b.view("loss.grad.policy", lk.dPolicy, []int{cfg.PolicyPlanes, n, h, w}, loss)
		dWDL := b.view("loss.grad.wdl", lk.dWDL, []int{3, n}, loss)
		dML := b.view("loss.grad.moves_left", lk.dML, []int{1, n}, loss)
		dm2 := b.denseGrad("moves_left.fc2.grad", mfk2, dML, lk.dML, nil, nil)
		dm1 := b.denseGrad("moves_left.fc1.grad", mfk1, dm2, mfk2.dx, nil, nil)
		dyM := b.convGrad("moves_left.conv.grad", mk, dm1, mfk1.dx, nil, nil)
		// The hidden layer's gradient is fc2's plus, with the short-term
		// value head, that head's (added by fc2's backward pass).
		var ds *G.Node
		var dsBuf []float32
		if svk != nil {
			dSV := b.view("loss.grad.short_value", lk.dSV, []int{1, n}, loss)
			ds, dsBuf = b.denseGrad("value.short.grad", svk, dSV, lk.dSV, nil, nil), svk.dx
		}
		dv2 := b.denseGrad("value.fc2.grad", fk2, dWDL, lk.dWDL, ds, dsBuf)
		dv1 := b.denseGrad("value.fc1.grad", fk1, dv2, fk2.dx, nil, nil)
		dyV := b.convGrad("value.conv.grad", vk, dv1, fk1.dx, dyM, mk.dx)
		dp1 := b.convGrad("policy.logits.grad", pk2, dLogits, lk.dPolicy, nil, nil)
		dy := b.convGrad("policy.conv.grad", pk1, dp1, pk2.dx, dyV, vk.dx)
		dyBuf := pk1.dx
		for i := len(blocks) - 1; i >= 0; i-- {
			k1, k2 := blocks[i].c1, blocks[i].c2
			dh := b.convGrad(fmt.Sprintf("block%d.conv2.grad", i), k2, dy, dyBuf, nil, nil)
			dskip := b.view(fmt.Sprintf("block%d.skip.grad", i), k2.g, []int{k2.l.cout, n, h, w}, dh)
			dhBuf := k2.dx
			if pk := blocks[i].pool; pk != nil {
				dh, dhBuf = b.poolGrad(fmt.Sprintf("block%d.pool.grad", i), pk, dh, k2.dx), pk.dx
			}
			dy = b.convGrad(fmt.Sprintf("block%d.conv1.grad", i), k1, dh, dhBuf, dskip, k2.g)
			dyBuf = k1.dx
		}
		stem.needDX = false
		b.convGrad("stem.grad", stem, dy, dyBuf, nil, nil)
	}
	if b.err != nil {
		return nil, b.err
	}
	order, err := sortedOps(ng.g)
	if err != nil {
		return nil, err
	}
	ng.order = order
	return ng, nil
}

// sortedOps returns the kernel ops of g in the order Gorgonia's
// topological sort says they run.
func sortedOps(g *G.ExprGraph) ([]*kernelOp, error) {
	sorted, err := G.Sort(g)
	if err != nil {
		return nil, fmt.Errorf("nn: sorting graph: %w", err)
	}
	var order []*kernelOp
	for i := len(sorted) - 1; i >= 0; i-- {
		if op, ok := sorted[i].Op().(*kernelOp); ok {
			order = append(order, op)
		}
	}
	return order, nil
}

// run executes the graph's ops in order.
func (ng *netGraph) run() {
	for _, op := range ng.order {
		op.exec()
	}
}

// setPlanes copies size positions of NCHW planes into the graph's CNHW
// input, zeroing the rest of the batch.
func (ng *netGraph) setPlanes(src []float32, size, channels int) {
	hw := ng.h * ng.w
	nchwToCNHW(src, size, ng.n, channels, hw, ng.planes)
	if size < ng.n {
		// nchwToCNHW wrote positions [0, size) of each channel row.
		for ci := 0; ci < channels; ci++ {
			clear(ng.planes[(ci*ng.n+size)*hw : (ci+1)*ng.n*hw])
		}
	}
}
