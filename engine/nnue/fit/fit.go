// Package fit trains an engine/nnue net on positions scored by the
// engine's search and the games' results.
//
// Two trainers compute the same thing. The default, sparse, is written by
// hand (sparse.go): the first layer is a gather-sum of the active
// features' weight rows, forward and backward run over a batch split
// across goroutines, and Adam is Gorgonia's, so that it is the reference
// trainer's arithmetic without its multiplications by zero. The reference
// is a Gorgonia graph (Config.Trainer "gorgonia"). Its graph is the net's: both perspectives' dense one-hot inputs (batch x
// features) go through the one input-layer weight node, are concatenated,
// clipped to [0,1] (as relu(x) - relu(x-1)), and go through the two dense
// layers, to which the linear path adds (x_us - x_them) PSQT / 2; the loss is the mean squared error of sigmoid(output) against
// the target lambda*sigmoid(score/Scale) + (1-lambda)*result; Adam
// updates the net's own weight slices in place.
package fit

import (
	"fmt"
	"math"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"bomberzero/engine/nnue"
	"bomberzero/env"
)

// Sample is one training position.
type Sample struct {
	FEN    string
	Score  int32   // the search's score, centipawns for the side to move
	Result float32 // the game's result for the side to move: 1, 0.5 or 0
	// Base is the base evaluation's score of the position (centipawns for
	// the side to move) that a residual net's output is added to before
	// the loss, so that the net learns the target minus the base; zero for
	// a net without a base (nnue.Net.Base).
	Base int32
}

// Config sets the net's sizes and the training.
type Config struct {
	Hidden, L2   int
	Epochs       int
	Batch        int
	LearningRate float64
	// LearningRateFinal, when not 0, makes the sparse trainer's learning
	// rate fall along a half cosine from LearningRate at the first step to
	// LearningRateFinal at the last (0: the rate stays LearningRate).
	LearningRateFinal float64
	// Lambda weighs the search score against the result in the target,
	// as nnue-pytorch's lambda: 1 is the score alone, 0 the result alone.
	Lambda float64
	// Scale is the centipawns per unit of the net's output (400).
	Scale           float64
	ValidationShare float64
	Seed            uint64
	// Table, when not nil, is the piece values (centipawns by type, as
	// agent.Values.Table gives) a new net's linear path starts from
	// (nnue.Net.SetMaterial); nil starts it at zero.
	Table []int32
	// Trainer is TrainerSparse (also "", the default) or TrainerGorgonia
	// (the reference: the same net, loss and Adam as a Gorgonia graph with
	// a dense one-hot first layer, many times slower).
	Trainer string
	// Threads is the goroutines the sparse trainer splits a batch over
	// (0: GOMAXPROCS). The sums' order, so the last bits of the weights,
	// depend on it.
	Threads int
	// Residual makes a new net a residual one over the classical
	// evaluation with the piece values Table (nnue.NewResidual: the
	// untrained net adds nothing); the samples must then carry the
	// classical score in Sample.Base. A net to continue from keeps its own
	// kind.
	Residual bool
	// KingBuckets, when it has more than one bucket, gives a new net
	// king-bucketed input features (nnue.KingBuckets), trained factored:
	// a block shared by all buckets beside each bucket's own
	// (nnue.FeatureSet.ActiveTrain), folded into the net at the end. A net
	// to continue from keeps its own buckets (asking for others is an
	// error). Only the sparse trainer trains them.
	KingBuckets nnue.KingBuckets
	// Mirror gives a new net the file-mirrored input features
	// (nnue.Options.Mirror): a perspective whose king is on the left
	// half sees the board reflected file-wise. It combines with
	// KingBuckets (their factored training included). A net to continue
	// from keeps its own mirror (asking for it on a net without is an
	// error).
	Mirror bool
	// Checkpoint, when not "", is a file the sparse trainer writes
	// atomically after each epoch and resumes from when it is there and
	// was written for the same samples, settings and start net.
	Checkpoint string
}

// The trainers Config.Trainer names.
const (
	TrainerSparse   = "sparse"
	TrainerGorgonia = "gorgonia"
)

// DefaultConfig returns settings that fit two cores. Lambda 1 (the
// search score alone): on the first fbgc run's 79,000 positions it gave a
// net that played about 270 Elo better at depth 3 than lambda 0.75 (a few
// hundred games' results are a noisy target beside the scores), and on 1.6
// million positions lambda 0.7 and 0.5 screened -135 and -363 Elo against
// the classical evaluation where lambda 1 gave +67 (200 games each). Three
// epochs: fewer epochs play better although their validation loss is
// higher (on 76,000 fbgc positions, 200 games each at 10 ms a move: 2, 3
// and 5 epochs -42, -74 and -61 Elo against the classical evaluation, 10
// epochs -129; on the first run's data 10 epochs beat 20 by 100 Elo): a
// closer fit of the quiet positions does not carry over to the search
// (docs/RESULTS.md, "The learned evaluation against the classical one").
func DefaultConfig() Config {
	return Config{Hidden: nnue.DefaultHidden, L2: nnue.DefaultL2, Epochs: 3, Batch: 256,
		LearningRate: 1e-3, Lambda: 1, Scale: nnue.DefaultScale, ValidationShare: 0.1, Seed: 1}
}

// Validate reports the first setting out of range.
func (c Config) Validate() error {
	switch {
	case c.Hidden < 1 || c.Hidden > 4096:
		return fmt.Errorf("hidden %d: want 1 to 4096", c.Hidden)
	case c.L2 < 1 || c.L2 > 1024:
		return fmt.Errorf("l2 %d: want 1 to 1024", c.L2)
	case c.Epochs < 1:
		return fmt.Errorf("epochs %d: want at least 1", c.Epochs)
	case c.Batch < 1 || c.Batch > 1<<16:
		return fmt.Errorf("batch %d: want 1 to 65536", c.Batch)
	case !(c.LearningRate > 0 && c.LearningRate < 1):
		return fmt.Errorf("learning rate %v: want above 0 and below 1", c.LearningRate)
	case !(c.LearningRateFinal >= 0 && c.LearningRateFinal <= c.LearningRate):
		return fmt.Errorf("final learning rate %v: want 0 (none) or above 0 up to the learning rate %v", c.LearningRateFinal, c.LearningRate)
	case c.LearningRateFinal != 0 && c.Trainer == TrainerGorgonia:
		return fmt.Errorf("final learning rate %v: only the %s trainer changes its rate", c.LearningRateFinal, TrainerSparse)
	case !(c.Lambda >= 0 && c.Lambda <= 1):
		return fmt.Errorf("lambda %v: want 0 to 1", c.Lambda)
	case !(c.Scale > 0 && c.Scale < 1e5):
		return fmt.Errorf("scale %v: want a positive number of centipawns", c.Scale)
	case !(c.ValidationShare >= 0 && c.ValidationShare < 1):
		return fmt.Errorf("validation share %v: want 0 to below 1", c.ValidationShare)
	case c.Trainer != "" && c.Trainer != TrainerSparse && c.Trainer != TrainerGorgonia:
		return fmt.Errorf("trainer %q: want %s or %s", c.Trainer, TrainerSparse, TrainerGorgonia)
	case c.Threads < 0 || c.Threads > 256:
		return fmt.Errorf("threads %d: want 0 (all) to 256", c.Threads)
	case c.Residual && c.Trainer == TrainerGorgonia:
		return fmt.Errorf("residual: only the %s trainer adds a base score", TrainerSparse)
	case c.KingBuckets.Count() > 1 && c.Trainer == TrainerGorgonia:
		return fmt.Errorf("king buckets %s: only the %s trainer trains them", c.KingBuckets, TrainerSparse)
	case c.Checkpoint != "" && c.Trainer == TrainerGorgonia:
		return fmt.Errorf("checkpoint %s: only the %s trainer resumes", c.Checkpoint, TrainerSparse)
	}
	return c.KingBuckets.Validate()
}

// Report says how a training went.
type Report struct {
	Samples, Train, Validation int
	TrainLoss                  []float64 // mean loss per epoch
	ValidationLoss             []float64 // per epoch; the first entry precedes the first epoch
	Seconds                    float64
}

// data is the samples as sparse features: sample i's side-to-move
// features are feats[us[i]:them[i]], its opponent's feats[them[i]:end[i]];
// base[i] is its base score in output units (Sample.Base / Scale).
type data struct {
	feats         []int32
	us, them, end []int
	target        []float32
	base          []float32
}

// prepare parses every sample once; an unparseable FEN is an error naming
// the sample's index.
func prepare(v *env.Variant, fs *nnue.FeatureSet, samples []Sample, cfg Config) (*data, error) {
	d := &data{}
	buf := make([]int32, 0, 2*fs.MaxActive())
	for i, s := range samples {
		pos, err := v.ParsePosition(s.FEN)
		if err != nil {
			return nil, fmt.Errorf("sample %d: %w", i, err)
		}
		if !(s.Result >= 0 && s.Result <= 1) {
			return nil, fmt.Errorf("sample %d: result %v; want 0 to 1 for the side to move", i, s.Result)
		}
		us := pos.SideToMove()
		d.us = append(d.us, len(d.feats))
		buf = fs.ActiveTrain(pos, us, buf)
		d.feats = append(d.feats, buf...)
		d.them = append(d.them, len(d.feats))
		buf = fs.ActiveTrain(pos, us.Other(), buf)
		d.feats = append(d.feats, buf...)
		d.end = append(d.end, len(d.feats))
		p := cfg.Lambda*sigmoid(float64(s.Score)/cfg.Scale) + (1-cfg.Lambda)*float64(s.Result)
		d.target = append(d.target, float32(p))
		d.base = append(d.base, float32(float64(s.Base)/cfg.Scale))
	}
	return d, nil
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// graph is the training graph for one batch size.
type graph struct {
	g              *G.ExprGraph
	xUs, xThem, y  *tensor.Dense
	out, loss      *G.Node
	learnables     G.Nodes
	b3             []float32
	psqt           *G.Node
	batch, nFeats  int
	vm             G.VM
	lossVal, outV  G.Value
	net            *nnue.Net
	w1, b1, w2, b2 *G.Node
}

// newGraph builds the graph over net's weight slices (updated in place).
func newGraph(net *nnue.Net, batch int, withGrad bool) (*graph, error) {
	gr := &graph{g: G.NewGraph(), batch: batch, nFeats: net.Features, net: net, b3: []float32{net.B3}}
	g := gr.g
	F, H, L2 := net.Features, net.H, net.L2
	dense := func(data []float32, shape ...int) *tensor.Dense {
		return tensor.New(tensor.WithBacking(data), tensor.WithShape(shape...))
	}
	gr.xUs = dense(make([]float32, batch*F), batch, F)
	gr.xThem = dense(make([]float32, batch*F), batch, F)
	gr.y = dense(make([]float32, batch), batch, 1)
	node := func(name string, t *tensor.Dense) *G.Node {
		return G.NewMatrix(g, tensor.Float32, G.WithShape(t.Shape()...), G.WithName(name), G.WithValue(t))
	}
	xUs, xThem, y := node("x_us", gr.xUs), node("x_them", gr.xThem), node("target", gr.y)
	gr.w1 = node("W1", dense(net.W1, F, H))
	gr.b1 = node("B1", dense(net.B1, 1, H))
	gr.w2 = node("W2", dense(net.W2, 2*H, L2))
	gr.b2 = node("B2", dense(net.B2, 1, L2))
	w3 := node("W3", dense(net.W3, L2, 1))
	b3 := node("B3", dense(gr.b3, 1, 1))
	gr.psqt = node("PSQT", dense(net.PSQT, F, 1))
	one := G.NewConstant(float32(1), G.WithName("one"))
	half := G.NewConstant(float32(0.5), G.WithName("half"))
	var err error
	must := func(n *G.Node, e error) *G.Node {
		if e != nil && err == nil {
			err = e
		}
		return n
	}
	clip := func(x *G.Node) *G.Node {
		if err != nil {
			return nil
		}
		lo := must(G.Rectify(x))
		hi := must(G.Rectify(must(G.Sub(x, one))))
		if err != nil {
			return nil
		}
		return must(G.Sub(lo, hi))
	}
	accUs := must(G.BroadcastAdd(must(G.Mul(xUs, gr.w1)), gr.b1, nil, []byte{0}))
	accThem := must(G.BroadcastAdd(must(G.Mul(xThem, gr.w1)), gr.b1, nil, []byte{0}))
	if err != nil {
		return nil, err
	}
	cat := clip(must(G.Concat(1, accUs, accThem)))
	if err != nil {
		return nil, err
	}
	h2 := clip(must(G.BroadcastAdd(must(G.Mul(cat, gr.w2)), gr.b2, nil, []byte{0})))
	if err != nil {
		return nil, err
	}
	head := must(G.BroadcastAdd(must(G.Mul(h2, w3)), b3, nil, []byte{0}))
	lin := must(G.Mul(must(G.Mul(must(G.Sub(xUs, xThem)), gr.psqt)), half))
	if err != nil {
		return nil, err
	}
	gr.out = must(G.Add(head, lin))
	if err != nil {
		return nil, err
	}
	G.Read(gr.out, &gr.outV)
	diff := must(G.Sub(must(G.Sigmoid(gr.out)), y))
	if err != nil {
		return nil, err
	}
	gr.loss = must(G.Mean(must(G.Square(diff))))
	if err != nil {
		return nil, err
	}
	G.Read(gr.loss, &gr.lossVal)
	gr.learnables = G.Nodes{gr.w1, gr.b1, gr.w2, gr.b2, w3, b3, gr.psqt}
	if withGrad {
		if _, err := G.Grad(gr.loss, gr.learnables...); err != nil {
			return nil, err
		}
		gr.vm = G.NewTapeMachine(g, G.BindDualValues(gr.learnables...))
	} else {
		gr.vm = G.NewTapeMachine(g)
	}
	return gr, nil
}

// load fills the inputs with samples idx of d.
func (gr *graph) load(d *data, idx []int) {
	xu, xt, y := gr.xUs.Data().([]float32), gr.xThem.Data().([]float32), gr.y.Data().([]float32)
	clear(xu)
	clear(xt)
	F := gr.nFeats
	for r, i := range idx {
		for _, f := range d.feats[d.us[i]:d.them[i]] {
			xu[r*F+int(f)] = 1
		}
		for _, f := range d.feats[d.them[i]:d.end[i]] {
			xt[r*F+int(f)] = 1
		}
		y[r] = d.target[i]
	}
}

// run runs the graph once and returns the loss.
func (gr *graph) run() (float64, error) {
	defer gr.vm.Reset()
	if err := gr.vm.RunAll(); err != nil {
		return 0, err
	}
	return float64(gr.lossVal.Data().(float32)), nil
}

// validationLoss is the loss of net over samples idx, by the net's own Go
// forward pass.
func validationLoss(net *nnue.Net, d *data, idx []int) float64 {
	if len(idx) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, i := range idx {
		out := float64(net.Output(d.feats[d.us[i]:d.them[i]], d.feats[d.them[i]:d.end[i]]) + d.base[i])
		e := sigmoid(out) - float64(d.target[i])
		sum += e * e
	}
	return sum / float64(len(idx))
}
