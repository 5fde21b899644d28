package fit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	G "gorgonia.org/gorgonia"

	"bomberzero/engine/nnue"
	"bomberzero/env"
)

// stepper is one trainer's step: train on a batch, return its loss.
type stepper interface {
	step(batch []int) (float64, error)
	validation(idx []int) float64
	close()
}

// gorgoniaStepper runs the reference graph.
type gorgoniaStepper struct {
	gr     *graph
	solver *G.AdamSolver
	d      *data
}

func (s *gorgoniaStepper) step(batch []int) (float64, error) {
	s.gr.load(s.d, batch)
	loss, err := s.gr.run()
	if err != nil {
		return 0, err
	}
	if err := s.solver.Step(G.NodesToValueGrads(s.gr.learnables)); err != nil {
		return 0, err
	}
	s.gr.net.B3 = s.gr.b3[0]
	return loss, nil
}

func (s *gorgoniaStepper) validation(idx []int) float64 { return validationLoss(s.gr.net, s.d, idx) }
func (s *gorgoniaStepper) close()                       { s.gr.vm.Close() }

// sparseStepper adapts the sparse trainer.
type sparseStepper struct{ *sparse }

func (s sparseStepper) step(batch []int) (float64, error) { return s.sparse.step(batch), nil }
func (s sparseStepper) validation(idx []int) float64      { return s.sparse.loss(idx) }

// Train fits a net for variant v to samples and returns it with a report;
// init, when not nil, is the net to continue from (its sizes win over
// cfg's Hidden and L2; it is not changed). progress, when not nil, is
// called after each step. Samples are split once, at random by cfg.Seed,
// into training and validation (ValidationShare); each epoch visits the
// training samples in a new order in whole batches (a last partial batch
// waits for the next epoch's order). Each sample's features are computed
// once. With cfg.Checkpoint set, a training stopped (killed) after some
// epochs resumes after the last one finished and ends with the net an
// unbroken training would have given.
func Train(ctx context.Context, v *env.Variant, samples []Sample, cfg Config, init *nnue.Net, progress func(step, total int)) (*nnue.Net, Report, error) {
	start := time.Now()
	if err := cfg.Validate(); err != nil {
		return nil, Report{}, fmt.Errorf("fit: %w", err)
	}
	opts := nnue.Options{Kings: cfg.KingBuckets, Mirror: cfg.Mirror}
	if init != nil {
		if opts.Kings.Count() > 1 && init.Kings != opts.Kings {
			return nil, Report{}, fmt.Errorf("fit: king buckets %s asked, but the initial net has %q", opts.Kings, init.Kings)
		}
		if opts.Mirror && !init.Mirror {
			return nil, Report{}, errors.New("fit: the file mirror asked, but the initial net is not mirrored")
		}
		opts = init.Options()
	}
	fs, err := nnue.NewFeatureSetWith(v, opts)
	if err != nil {
		return nil, Report{}, fmt.Errorf("fit: %w", err)
	}
	// net is the net trained: with king buckets, their factored layout
	// (nnue.NewFactoredNet), folded into the engine's net at the end.
	var net *nnue.Net
	if init != nil {
		// A net of another variant with the same input layout (the same
		// board, cells and piece letters, as fbgc's for its options) is a
		// start like the variant's own: the features mean the same.
		if init.Layout != fs.Layout() || init.Features != fs.Len() {
			return nil, Report{}, fmt.Errorf("fit: the initial net is for variant %s (input layout %s, %d features), not for the layout of %s (%s, %d features)",
				init.Variant, init.Layout, init.Features, v.Name, fs.Layout(), fs.Len())
		}
		if err := init.Check(); err != nil {
			return nil, Report{}, fmt.Errorf("fit: the initial net: %w", err)
		}
		if net, err = nnue.Unfold(fs, init); err != nil {
			return nil, Report{}, fmt.Errorf("fit: the initial net: %w", err)
		}
		net.Variant = v.Name
	} else {
		if cfg.Residual && len(cfg.Table) < 2 {
			return nil, Report{}, errors.New("fit: residual: want the piece values table of the classical base (Config.Table)")
		}
		if fs.Buckets() > 1 {
			net = nnue.NewFactoredNet(fs, cfg.Hidden, cfg.L2, cfg.Seed)
		} else {
			net = nnue.NewNet(fs, cfg.Hidden, cfg.L2, cfg.Seed)
		}
		switch {
		case cfg.Residual:
			net.MakeResidual(cfg.Table)
		case cfg.Table != nil:
			net.Scale = float32(cfg.Scale)
			net.SetMaterial(fs, cfg.Table)
		}
	}
	if net.Base != "" && cfg.Trainer == TrainerGorgonia {
		return nil, Report{}, fmt.Errorf("fit: a residual net (base %s): only the %s trainer adds a base score", net.Base, TrainerSparse)
	}
	if net.Base == "" {
		for i, s := range samples {
			if s.Base != 0 {
				return nil, Report{}, fmt.Errorf("fit: sample %d has a base score %d but the net has no base evaluation", i, s.Base)
			}
		}
	}
	net.Scale = float32(cfg.Scale)
	d, err := prepare(v, fs, samples, cfg)
	if err != nil {
		return nil, Report{}, fmt.Errorf("fit: %w", err)
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0x666974))
	order := r.Perm(len(samples))
	nVal := int(math.Round(cfg.ValidationShare * float64(len(samples))))
	val, tr := order[:nVal], order[nVal:]
	rep := Report{Samples: len(samples), Train: len(tr), Validation: len(val)}
	if len(tr) == 0 {
		return nil, rep, errors.New("fit: no training samples")
	}
	batch := min(cfg.Batch, len(tr))
	var st stepper
	steps := len(tr) / batch
	total := steps * cfg.Epochs
	var sp *sparse
	if cfg.Trainer == TrainerGorgonia {
		gr, err := newGraph(net, batch, true)
		if err != nil {
			return nil, rep, fmt.Errorf("fit: building the graph: %w", err)
		}
		st = &gorgoniaStepper{gr: gr, solver: G.NewAdamSolver(G.WithLearnRate(cfg.LearningRate)), d: d}
	} else {
		threads := cfg.Threads
		if threads == 0 {
			threads = runtime.GOMAXPROCS(0)
		}
		sp = newSparse(net, d, cfg.LearningRate, min(threads, batch))
		sp.etaFinal, sp.steps = cfg.LearningRateFinal, total
		st = sparseStepper{sp}
	}
	defer st.close()
	first := 0
	var ck *checkpoint
	if cfg.Checkpoint != "" {
		ck = newCheckpoint(cfg, net, d)
		done, err := ck.load(cfg.Checkpoint, sp, &rep)
		if err != nil {
			return nil, rep, fmt.Errorf("fit: %w", err)
		}
		first = min(done, cfg.Epochs)
		// The epochs done shuffled the order; replay their shuffles.
		for range first {
			r.Shuffle(len(tr), func(i, j int) { tr[i], tr[j] = tr[j], tr[i] })
		}
	}
	if first == 0 {
		rep.ValidationLoss = append(rep.ValidationLoss[:0], st.validation(val))
	}
	step := first * steps
	for epoch := first; epoch < cfg.Epochs; epoch++ {
		r.Shuffle(len(tr), func(i, j int) { tr[i], tr[j] = tr[j], tr[i] })
		sum := 0.0
		for s := range steps {
			if err := ctx.Err(); err != nil {
				return nil, rep, err
			}
			loss, err := st.step(tr[s*batch : (s+1)*batch])
			if err != nil {
				return nil, rep, fmt.Errorf("fit: step %d: %w", step, err)
			}
			sum += loss
			step++
			if progress != nil {
				progress(step, total)
			}
		}
		rep.TrainLoss = append(rep.TrainLoss, sum/float64(steps))
		rep.ValidationLoss = append(rep.ValidationLoss, st.validation(val))
		if ck != nil && epoch+1 < cfg.Epochs {
			if err := ck.save(cfg.Checkpoint, epoch+1, sp, rep); err != nil {
				return nil, rep, fmt.Errorf("fit: %w", err)
			}
		}
	}
	if err := net.Check(); err != nil {
		return nil, rep, fmt.Errorf("fit: the trained net: %w (lower the learning rate)", err)
	}
	if net, err = nnue.Fold(fs, net); err != nil {
		return nil, rep, fmt.Errorf("fit: %w", err)
	}
	rep.Seconds = time.Since(start).Seconds()
	return net, rep, nil
}
