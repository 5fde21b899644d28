package learn

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"bomberzero/engine"
	"bomberzero/engine/nnue"
	"bomberzero/engine/nnue/fit"
	"bomberzero/env"
)

// NNUE is the Trainer of package engine/nnue: nets trained by fit.Train
// (its sparse trainer unless Fit.Trainer names Gorgonia's).
type NNUE struct {
	// Fit is the training's settings; its Seed is replaced by each
	// generation's, and its Checkpoint by CheckpointPath of the net's.
	Fit fit.Config
}

// CheckpointPath returns the training checkpoint of the net file out:
// written after each epoch by the sparse trainer, resumed from by a
// training of the same generation run again (after a kill), and removed
// once the net is written.
func CheckpointPath(out string) string {
	return strings.TrimSuffix(out, filepath.Ext(out)) + ".train-checkpoint"
}

// LoadNet reads the net file at path and checks that it is variant v's.
func LoadNet(v *env.Variant, path string) (*nnue.Net, error) {
	n, err := nnue.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if n.Variant != v.Name {
		return nil, fmt.Errorf("net file %s: a net for variant %s, not %s", path, n.Variant, v.Name)
	}
	return n, nil
}

// LoadInitNet reads the net file at path for a training of variant v to
// start from: v's own net, or the net of another variant whose input
// layout is v's (the same board, cells and piece letters, as fbgc's net
// for fbgc-superpower), a related variant's knowledge to begin with.
func LoadInitNet(v *env.Variant, path string) (*nnue.Net, error) {
	n, err := nnue.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if n.Variant == v.Name {
		return n, nil
	}
	fs, err := nnue.NewFeatureSetWith(v, n.Options())
	if err != nil {
		return nil, fmt.Errorf("net file %s: a net for variant %s, whose inputs %s cannot have: %w", path, n.Variant, v.Name, err)
	}
	if fs.Layout() != n.Layout || fs.Len() != n.Features {
		return nil, fmt.Errorf("net file %s: a net for variant %s, not %s, with another input layout (%s, %d features; %s has %s, %d)",
			path, n.Variant, v.Name, n.Layout, n.Features, v.Name, fs.Layout(), fs.Len())
	}
	return n, nil
}

// Evaluator returns the engine evaluation of the net file at path.
func (t NNUE) Evaluator(v *env.Variant, _ []int32, path string) (engine.Evaluator, error) {
	n, err := LoadNet(v, path)
	if err != nil {
		return nil, err
	}
	ev, err := engine.NewLearned(v, n, "eval="+path)
	if err != nil {
		return nil, fmt.Errorf("net file %s: %w", path, err)
	}
	return ev, nil
}

// samples turns rows into fit's samples; for a residual net (start's
// base, or Fit.Residual for a new net) each carries the classical
// evaluation's score over the net's base piece values, the one the engine
// will add the net's correction to.
func (t NNUE) samples(v *env.Variant, rows []Row, start *nnue.Net) ([]fit.Sample, error) {
	samples := make([]fit.Sample, len(rows))
	for i, r := range rows {
		samples[i] = fit.Sample{FEN: r.FEN, Score: r.Score, Result: r.Result}
	}
	table := t.Fit.Table
	switch {
	case start != nil && start.Base == nnue.BaseClassical:
		table = start.BaseTable
	case start != nil || !t.Fit.Residual:
		return samples, nil
	}
	base, err := engine.NewClassical(v, table, engine.DefaultWeights())
	if err != nil {
		return nil, fmt.Errorf("the residual net's base: %w", err)
	}
	for i := range samples {
		pos, err := v.ParsePosition(samples[i].FEN)
		if err != nil {
			return nil, fmt.Errorf("position %d: %w", i, err)
		}
		samples[i].Base = base.Evaluate(pos)
	}
	return samples, nil
}

// Train trains a net with fit.Train and writes it to out.
func (t NNUE) Train(ctx context.Context, v *env.Variant, rows []Row, init, out string, seed uint64, progress func(step, total int)) (TrainStats, error) {
	var start *nnue.Net
	if init != "" {
		n, err := LoadInitNet(v, init)
		if err != nil {
			return TrainStats{}, err
		}
		start = n
	}
	cfg := t.Fit
	samples, err := t.samples(v, rows, start)
	if err != nil {
		return TrainStats{}, err
	}
	cfg.Seed = seed
	cfg.Checkpoint = ""
	if cfg.Trainer != fit.TrainerGorgonia {
		cfg.Checkpoint = CheckpointPath(out)
	}
	n, rep, err := fit.Train(ctx, v, samples, cfg, start, progress)
	if err != nil {
		return TrainStats{}, err
	}
	ts := TrainStats{Samples: rep.Train, Validation: rep.Validation}
	if k := len(rep.TrainLoss); k > 0 {
		ts.TrainLoss = rep.TrainLoss[k-1]
	}
	if k := len(rep.ValidationLoss); k > 0 {
		ts.ValidationLoss = rep.ValidationLoss[k-1]
	}
	if n.Meta == nil {
		n.Meta = map[string]string{}
	}
	n.Meta["trained_by"] = "bomberzero nnue (engine/learn)"
	n.Meta["trainer"] = cmp.Or(cfg.Trainer, fit.TrainerSparse)
	n.Meta["positions"] = strconv.Itoa(len(rows))
	n.Meta["train_loss"] = strconv.FormatFloat(ts.TrainLoss, 'g', 6, 64)
	n.Meta["val_loss"] = strconv.FormatFloat(ts.ValidationLoss, 'g', 6, 64)
	n.Meta["seed"] = strconv.FormatUint(seed, 10)
	if n.Base != "" {
		n.Meta["base"] = n.Base + " evaluation, engine.DefaultWeights"
	}
	if init != "" {
		n.Meta["init"] = filepath.Base(init)
	}
	if err := nnue.WriteFile(out, n); err != nil {
		return TrainStats{}, err
	}
	if cfg.Checkpoint != "" {
		if err := os.Remove(cfg.Checkpoint); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return TrainStats{}, fmt.Errorf("removing the training checkpoint: %w", err)
		}
	}
	return ts, nil
}
