package nn

import (
	"fmt"

	"bomberzero/eval"
)

// TrainBatch is a batch of training examples: an eval.Batch, laid out as the
// evaluators' batches are, whose outputs are the targets. Size counts the
// examples; Planes (Size*InputSize, NCHW) and Legal (Size*PolicySize, 1 for a
// legal move) are the inputs; Policy (Size*PolicySize) is the target
// distribution over the legal moves (it sums to 1), WDL (Size*3) the target
// win/draw/loss distribution, and MovesLeft (Size values, required here) the
// moves-left head's targets: the plies from the position to the end of its
// game (game length - ply). The caller owns the slices.
type TrainBatch struct {
	eval.Batch
	// ShortValue (Size values, for a network with Config.ShortValue) is the
	// short-term value head's target in [-1, 1], side to move's view.
	ShortValue []float32
}

// NewTrainBatch allocates a TrainBatch of size examples for networks of cfg.
func NewTrainBatch(cfg Config, size int) *TrainBatch {
	s := cfg.Shape()
	return &TrainBatch{Batch: eval.Batch{Size: size, Planes: make([]float32, size*s.InputSize()),
		Legal: make([]float32, size*s.PolicySize), Policy: make([]float32, size*s.PolicySize),
		WDL: make([]float32, size*3), MovesLeft: make([]float32, size)}, ShortValue: make([]float32, size)}
}

// Check reports whether b's slices hold Size examples of cfg's shape.
func (b *TrainBatch) Check(cfg Config) error {
	s := cfg.Shape()
	switch {
	case b.Size <= 0:
		return fmt.Errorf("nn: train batch Size = %d, want > 0", b.Size)
	case len(b.Planes) < b.Size*s.InputSize():
		return fmt.Errorf("nn: train batch Planes holds %d values, want >= %d", len(b.Planes), b.Size*s.InputSize())
	case len(b.Legal) < b.Size*s.PolicySize:
		return fmt.Errorf("nn: train batch Legal holds %d values, want >= %d", len(b.Legal), b.Size*s.PolicySize)
	case len(b.Policy) < b.Size*s.PolicySize:
		return fmt.Errorf("nn: train batch Policy holds %d values, want >= %d", len(b.Policy), b.Size*s.PolicySize)
	case len(b.WDL) < b.Size*3:
		return fmt.Errorf("nn: train batch WDL holds %d values, want >= %d", len(b.WDL), b.Size*3)
	case len(b.MovesLeft) < b.Size:
		return fmt.Errorf("nn: train batch MovesLeft holds %d values, want >= %d", len(b.MovesLeft), b.Size)
	case cfg.ShortValue && len(b.ShortValue) < b.Size:
		return fmt.Errorf("nn: train batch ShortValue holds %d values, want >= %d", len(b.ShortValue), b.Size)
	}
	return nil
}

// Trainer trains a Net: it owns the training graphs (one per batch size,
// built on first use; the two most recently built are kept), the optimizer
// state and the step counter. A Trainer
// is not safe for concurrent use, and it updates the Net's parameters in
// place: evaluators work on folded snapshots (Net.Fold), so they may run
// while it trains.
type Trainer struct {
	net    *Net
	cfg    TrainConfig
	opt    *optimizer
	step   int64
	graphs map[int]*netGraph // modeTrain, by batch size
	evals  map[int]*netGraph // modeEval, by batch size
}

// NewTrainer returns a Trainer at step 0 with zero optimizer state.
func NewTrainer(net *Net, cfg TrainConfig) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Trainer{net: net, cfg: cfg, opt: newOptimizer(cfg, net.params),
		graphs: map[int]*netGraph{}, evals: map[int]*netGraph{}}, nil
}

// Net returns the network being trained.
func (t *Trainer) Net() *Net { return t.net }

// Config returns the optimizer settings.
func (t *Trainer) Config() TrainConfig { return t.cfg }

// SetConfig changes the optimizer's hyperparameters and schedule from the
// next step on (for instance after LoadTrainer, which restores the saved
// ones). The optimizer kind must stay the same: its state carries over.
func (t *Trainer) SetConfig(cfg TrainConfig) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if cfg.Optimizer != t.cfg.Optimizer {
		return fmt.Errorf("nn: cannot switch the optimizer from %s to %s: its state would not carry over", t.cfg.Optimizer, cfg.Optimizer)
	}
	t.cfg, t.opt.cfg = cfg, cfg
	return nil
}

// Steps returns the number of training steps taken so far.
func (t *Trainer) Steps() int64 { return t.step }

// TrainStep runs one step on b: forward with batch statistics (updating
// the BatchNorm running statistics), the loss, backward, and the optimizer
// update with the schedule's rate for the current step. It returns the
// losses before the update.
func (t *Trainer) TrainStep(b *TrainBatch) (Losses, error) {
	l, err := t.gradients(b)
	if err != nil {
		return Losses{}, err
	}
	t.opt.update(t.net.params, t.step)
	t.step++
	return l, nil
}

// gradients runs the training graph on b: the losses with batch
// statistics, and every learnable Param's Grad of the data loss (the L2
// term's gradient is added by the optimizer).
func (t *Trainer) gradients(b *TrainBatch) (Losses, error) {
	g, err := t.graph(t.graphs, modeTrain, b)
	if err != nil {
		return Losses{}, err
	}
	return t.run(g), nil
}

// EvalLoss returns the losses on b in eval mode (BatchNorm with the running
// statistics), changing nothing.
func (t *Trainer) EvalLoss(b *TrainBatch) (Losses, error) {
	g, err := t.graph(t.evals, modeEval, b)
	if err != nil {
		return Losses{}, err
	}
	return t.run(g), nil
}

// run runs the loaded graph g and returns its losses, with the L2 term of
// the current weights.
func (t *Trainer) run(g *netGraph) Losses {
	g.run()
	l := Losses{Policy: g.loss.policy, Value: g.loss.value, MovesLeft: g.loss.movesLeft, ShortValue: g.loss.shortValue,
		L2: t.opt.l2(t.net.params)}
	l.Total = l.Policy + l.Value + t.cfg.MovesLeftWeight*l.MovesLeft + t.cfg.ShortValueWeight*l.ShortValue + l.L2
	return l
}

// graph returns the graph of mode for b's size, loaded with b.
func (t *Trainer) graph(cache map[int]*netGraph, mode graphMode, b *TrainBatch) (*netGraph, error) {
	if err := b.Check(t.net.cfg); err != nil {
		return nil, err
	}
	g := cache[b.Size]
	if g == nil {
		// Keep at most two graphs per mode (a training run's batch size and
		// perhaps one other): each holds every activation of a batch.
		for size := range cache {
			if len(cache) < 2 {
				break
			}
			delete(cache, size)
		}
		var err error
		if g, err = newNetGraph(t.net.cfg, &t.net.t, mode, b.Size); err != nil {
			return nil, err
		}
		cache[b.Size] = g
	}
	g.setPlanes(b.Planes, b.Size, t.net.cfg.Channels)
	g.loss.batch = b
	g.loss.mlWeight, g.loss.svWeight = t.cfg.MovesLeftWeight, t.cfg.ShortValueWeight
	return g, nil
}
