package nn

import (
	"fmt"
	"math"

	"bomberzero/eval"
)

// Folded is a read-only inference snapshot of a Net: every BatchNorm folded
// into its convolution's weights and a bias (w' = w*gamma/sqrt(var+eps),
// b' = beta - mean*gamma/sqrt(var+eps)), so each tower step is one fused
// op (convolution, bias, residual add, ReLU) of the inference graph
// (infer.go), laid out for it. Any number of Evaluators, one per goroutine,
// may share one Folded.
type Folded struct {
	cfg Config
	iw  *inferWeights // the folded layers, laid out for the inference graph
}

// Fold returns an inference snapshot of n's current weights and running
// statistics. Later training does not change the snapshot.
func (n *Net) Fold() *Folded {
	f := &Folded{cfg: n.cfg}
	// clone copies a parameter's values (not its gradient): the snapshot
	// must not change as training goes on.
	clone := func(p *Param) *Param {
		return &Param{Name: p.Name, Shape: p.Shape, Data: append([]float32(nil), p.Data...)}
	}
	fold := func(l *convLayer) *convLayer {
		out := &convLayer{cin: l.cin, cout: l.cout, k: l.k, relu: l.relu}
		out.weight = clone(l.weight)
		out.bias = &Param{Name: l.weight.Name + ".folded_bias", Shape: []int{l.cout}, Data: make([]float32, l.cout)}
		if l.bias != nil {
			copy(out.bias.Data, l.bias.Data)
			return out
		}
		per := l.cin * l.k * l.k
		for co := 0; co < l.cout; co++ {
			s := float64(l.gamma.Data[co]) / math.Sqrt(float64(l.vari.Data[co])+bnEpsilon)
			w := out.weight.Data[co*per : (co+1)*per]
			for i := range w {
				w[i] = float32(float64(w[i]) * s)
			}
			out.bias.Data[co] = float32(float64(l.beta.Data[co]) - float64(l.mean.Data[co])*s)
		}
		return out
	}
	copyDense := func(l *denseLayer) *denseLayer {
		return &denseLayer{in: l.in, out: l.out, relu: l.relu, weight: clone(l.weight), bias: clone(l.bias)}
	}
	var t tower
	t.stem = fold(n.t.stem)
	for _, b := range n.t.blocks {
		t.blocks = append(t.blocks, [2]*convLayer{fold(b[0]), fold(b[1])})
	}
	for _, p := range n.t.pools {
		t.pools = append(t.pools, &poolLayer{g: p.g, c: p.c, weight: clone(p.weight), bias: clone(p.bias)})
	}
	t.polConv, t.polOut, t.valConv = fold(n.t.polConv), fold(n.t.polOut), fold(n.t.valConv)
	t.fc1, t.fc2 = copyDense(n.t.fc1), copyDense(n.t.fc2)
	t.mlConv, t.mlFc1, t.mlFc2 = fold(n.t.mlConv), copyDense(n.t.mlFc1), copyDense(n.t.mlFc2)
	f.iw = newInferWeights(n.cfg, &t)
	return f
}

// Config returns the snapshot's network shape.
func (f *Folded) Config() Config { return f.cfg }

// Evaluator evaluates batches with a Folded network. It implements
// eval.Evaluator. It keeps one inference graph per batch-size bucket (1, 2,
// 4, ... up to MaxBatch), each built on first use; a batch runs on the
// smallest bucket that holds it, so after every bucket has been used once
// Evaluate allocates nothing. Not safe for concurrent use: give each worker
// goroutine its own Evaluator over a shared Folded.
type Evaluator struct {
	f      *Folded
	max    int
	graphs []*inferGraph // by bucket index: capacity 1<<i, the last one max
}

var _ eval.Evaluator = (*Evaluator)(nil)

// NewEvaluator returns an Evaluator over f for batches of up to maxBatch
// positions.
func NewEvaluator(f *Folded, maxBatch int) (*Evaluator, error) {
	if maxBatch <= 0 {
		return nil, fmt.Errorf("nn: evaluator max batch %d, want > 0", maxBatch)
	}
	nb := 1
	for 1<<(nb-1) < maxBatch {
		nb++
	}
	return &Evaluator{f: f, max: maxBatch, graphs: make([]*inferGraph, nb)}, nil
}

// Shape returns the input and policy shape the evaluator expects.
func (e *Evaluator) Shape() eval.Shape { return e.f.cfg.Shape() }

// MaxBatch returns the largest Batch.Size Evaluate accepts.
func (e *Evaluator) MaxBatch() int { return e.max }

// Warm builds every bucket's graph now, so that no later Evaluate allocates.
func (e *Evaluator) Warm() error {
	for i := range e.graphs {
		if _, err := e.graph(i); err != nil {
			return err
		}
	}
	return nil
}

// graph returns bucket i's graph, building it on first use.
func (e *Evaluator) graph(i int) (*inferGraph, error) {
	if e.graphs[i] == nil {
		n := min(1<<i, e.max)
		g, err := newInferGraph(e.f.cfg, e.f.iw, n)
		if err != nil {
			return nil, err
		}
		e.graphs[i] = g
	}
	return e.graphs[i], nil
}

// Evaluate writes b.Policy (softmax over each position's legal moves, 0
// elsewhere; all 0 for a position without legal moves) and b.WDL for the
// first b.Size positions of b, and b.MovesLeft (the moves-left head's
// prediction of the plies until the game ends, >= 0) when it holds b.Size
// values.
func (e *Evaluator) Evaluate(b *eval.Batch) error {
	s := e.f.cfg.Shape()
	if err := b.Check(s); err != nil {
		return err
	}
	if b.Size > e.max {
		return fmt.Errorf("nn: batch size %d exceeds the evaluator's maximum %d", b.Size, e.max)
	}
	i := 0
	for 1<<i < b.Size {
		i++
	}
	g, err := e.graph(i)
	if err != nil {
		return err
	}
	g.setPlanes(b.Planes, b.Size, s.Channels)
	g.run()
	cfg := e.f.cfg
	writeOutputs(g.policy, g.wdl, b.Size, g.n, g.logitLayout(), cfg.Height, cfg.Width, cfg.PolicyPlanes, b.Legal, b.Policy, b.WDL)
	if len(b.MovesLeft) >= b.Size {
		writeMovesLeft(g.ml[:b.Size], b.MovesLeft)
	}
	return nil
}

// writeMovesLeft turns the moves-left head's raw outputs into plies: the
// output times MovesLeftScale, never negative.
func writeMovesLeft(raw, plies []float32) {
	for i, v := range raw {
		plies[i] = max(v, 0) * MovesLeftScale
	}
}
