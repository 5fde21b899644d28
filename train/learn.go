package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"time"

	"bomberzero/datasets"
	"bomberzero/internal/progress"
	"bomberzero/nn"
	"bomberzero/setup"
)

// trainSteps is how many steps the generation may still take: no more than
// MaxSteps in the generation, and never so many that the samples drawn over
// the run exceed SampleRatio per position that ever arrived.
func trainSteps(cfg setup.TrainConfig, arrived, samples int64, doneThisGen int) int {
	allowed := int64(cfg.SampleRatio*float64(arrived)) - samples
	if allowed < int64(cfg.Batch) {
		return 0
	}
	return int(min(allowed/int64(cfg.Batch), int64(cfg.MaxSteps-doneThisGen)))
}

// valueMix is the value_mix a generation trains with: the engine
// teacher's blend in the teacher's generations, selfplay.label_mix in the
// other generations of a run whose self-play the engine labels, else
// train.value_mix.
func valueMix(cfg setup.Config, teaching bool) float64 {
	switch {
	case teaching:
		return cfg.Teacher.TrainValueMix(cfg.Train.ValueMix)
	case cfg.SelfPlay.LabelNodes > 0:
		return cfg.SelfPlay.LabelMix
	}
	return cfg.Train.ValueMix
}

// trainPhase trains the network on the window of recent data, saving the
// trainer and the state every CheckpointSteps steps.
func (r *runner) trainPhase(ctx context.Context) error {
	if err := r.refreshWindow(); err != nil {
		return err
	}
	tc := r.cfg.Train
	if s := r.cfg.Teacher.StepsIn(r.st.Generation); s > 0 {
		tc.MaxSteps = s // the teacher's round
	}
	tc.ValueMix = valueMix(r.cfg, r.teaching())
	arrived := r.window.Arrived()
	r.st.Gen.Arrived = arrived
	steps := 0
	if r.window.Len() >= max(tc.MinPositions, 1) {
		steps = trainSteps(tc, arrived, r.st.Samples, r.st.Gen.Steps)
	}
	cur := r.showPlan(r.rates.steps.seconds(steps))
	what := fmt.Sprintf("gen %d training", r.st.Generation)
	var bar *progress.Bar
	if steps > 0 {
		bar = progress.New(r.opt.Progress, steps, r.label(cur, r.rates.steps.seconds(steps))+": "+what, "steps")
	}
	tCall := time.Now() // the rate of this call's steps
	stepsDone := 0
	samples := make([]datasets.Sample, tc.Batch)
	batch := nn.NewTrainBatch(r.netCfg, tc.Batch)
	g := r.st.Gen // this generation's sums, committed at each checkpoint
	t0 := time.Now()
	stopped := false
	for i := range steps {
		if ctx.Err() != nil {
			stopped = true
			break
		}
		if err := r.canon.Sample(r.rng, samples); err != nil {
			return fmt.Errorf("train: sample: %w", err)
		}
		if err := r.decayRate(); err != nil {
			return err
		}
		if err := fillBatch(r.spRules, samples, float32(tc.ValueMix), batch); err != nil {
			return err
		}
		l, err := r.trainer.TrainStep(batch)
		if err != nil {
			return fmt.Errorf("train: step %d: %w", r.trainer.Steps(), err)
		}
		if !finiteLosses(l) {
			return r.diverged(fmt.Sprintf("the loss of step %d is not finite (total %v: policy %v, value %v, moves-left %v, short-term value %v, L2 %v)",
				r.trainer.Steps()-1, l.Total, l.Policy, l.Value, l.MovesLeft, l.ShortValue, l.L2))
		}
		g.Steps++
		g.Samples += tc.Batch
		g.PolicyLoss += l.Policy
		g.ValueLoss += l.Value
		g.MovesLeft += l.MovesLeft
		g.ShortValue += l.ShortValue
		g.Loss += l.Total
		bar.Set(i + 1)
		if stepsDone++; stepsDone%10 == 0 {
			live := measured(stepsDone, time.Since(tCall).Seconds(), r.rates.steps)
			bar.Describe(r.label(cur, live.seconds(steps-i-1)) + ": " + what)
		}
		if (i+1)%tc.CheckpointSteps == 0 && i+1 < steps {
			g.Seconds += time.Since(t0).Seconds()
			t0 = time.Now()
			r.st.Samples += int64(g.Samples - r.st.Gen.Samples)
			r.st.Gen = g
			if err := r.checkpointFinite(); err != nil {
				return err
			}
		}
	}
	if stopped {
		bar.Stop()
	} else {
		bar.Finish()
	}
	g.Seconds += time.Since(t0).Seconds()
	if stepsDone >= 10 { // fewer say little about the rate
		r.rates.steps = measured(stepsDone, time.Since(tCall).Seconds(), r.rates.steps)
	}
	r.st.Samples += int64(g.Samples - r.st.Gen.Samples) // the samples since the last commit
	r.st.Gen = g
	if !stopped {
		r.st.Phase = phaseEval
	}
	if err := r.checkpointFinite(); err != nil {
		return err
	}
	if stopped {
		return errStop
	}
	return nil
}

// qualitySample draws the positions a generation's policy accuracy and
// value error are measured on, with its own generator so that the training
// batches do not depend on it.
func (r *runner) qualitySample(n int) ([]datasets.Sample, error) {
	if !r.canonOK {
		// Resumed in the evaluation: the window as the training phase saw
		// it (self-play wrote nothing since), so that the record is the
		// one an uninterrupted run writes.
		if err := r.refreshWindow(); err != nil {
			return nil, err
		}
	}
	if r.canon.Len() == 0 {
		return nil, nil
	}
	rng := rand.New(rand.NewPCG(r.cfg.Seed, mix(r.cfg.Seed, uint64(r.st.Generation)+0x7175)))
	s := make([]datasets.Sample, n)
	if err := r.canon.Sample(rng, s); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return s, nil
}

// refreshWindow brings the data window up to date and orders its
// positions for sampling (canonicalWindow).
func (r *runner) refreshWindow() error {
	rep, err := r.window.Refresh()
	if err != nil {
		return fmt.Errorf("train: data window: %w", err)
	}
	// Chunks the window found unusable on reading their rows (damaged, or
	// of another variant): quarantined and named, as self-play's listing
	// does with those it finds; a duplicate is left to the listing
	// (datasets.List), which keeps the first in chunk order.
	r.quarantine(slices.DeleteFunc(rep.Problems, func(p *datasets.ChunkError) bool { return errors.Is(p, datasets.ErrDuplicate) }))
	r.canon.w = r.window
	if err := r.canon.refresh(); err != nil {
		return err
	}
	r.canonOK = true
	return nil
}

// finiteLosses reports whether every loss of a step is a finite number.
func finiteLosses(l nn.Losses) bool {
	for _, x := range []float64{l.Total, l.Policy, l.Value, l.MovesLeft, l.ShortValue, l.L2} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// finiteParams returns the name of the first parameter of net holding a
// NaN or infinity ("" when all are finite).
func finiteParams(net *nn.Net) string {
	for _, p := range net.Params() {
		for _, x := range p.Data {
			if x-x != 0 { // NaN or an infinity
				return p.Name
			}
		}
	}
	return ""
}

// checkpointFinite is checkpoint for the training phase: it refuses to save
// weights that are not all finite (a step can turn them to NaN while its
// own loss, computed before the update, was finite).
func (r *runner) checkpointFinite() error {
	if name := finiteParams(r.trainer.Net()); name != "" {
		return r.diverged(fmt.Sprintf("after step %d the weights of %s are not finite", r.trainer.Steps()-1, name))
	}
	return r.checkpoint()
}

// diverged is the error that stops a run whose training diverged: nothing
// of the diverged steps is saved, the last good checkpoint (the state's)
// stays, and a resume with a lower train.learning_rate continues from it.
func (r *runner) diverged(what string) error {
	return fmt.Errorf("train: training diverged: %s; stopped without saving: the last good checkpoint %s (step %d) is kept. "+
		"Lower train.learning_rate (now %g) and resume from it: train --run %s --set train.learning_rate=%g",
		what, filepath.Join(r.dir, r.st.Checkpoint), r.st.Steps, r.cfg.Train.LearningRate, r.dir, r.cfg.Train.LearningRate/10)
}

// rateFactor is the factor of train.learning_rate at fraction used (0 to
// 1) of a call's budget: 1 until the last share of the budget, then falling
// linearly to final at its end.
func rateFactor(used, share, final float64) float64 {
	if share <= 0 || used <= 1-share {
		return 1
	}
	return 1 - (1-final)*min(1, (used-(1-share))/share)
}

// decayRate sets the trainer's learning rate for the next step from the
// share of this call's budget used so far (train.lr_decay_share); without
// a budget the rate stays train.learning_rate.
func (r *runner) decayRate() error {
	tc := r.cfg.Train
	f := 1.0
	if r.opt.Budget > 0 {
		f = rateFactor(time.Since(r.start).Seconds()/r.opt.Budget.Seconds(), tc.LRDecayShare, tc.LRDecayFinal)
	}
	cfg := r.trainer.Config()
	if rate := tc.LearningRate * f; cfg.Schedule.Base != rate {
		cfg.Schedule.Base = rate
		if err := r.trainer.SetConfig(cfg); err != nil {
			return fmt.Errorf("train: learning rate: %w", err)
		}
	}
	return nil
}
