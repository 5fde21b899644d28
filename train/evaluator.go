package train

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/internal/runstore"
	"bomberzero/match"
	"bomberzero/metrics"
	"bomberzero/nn"
	"bomberzero/stats"
)

// EvaluateOptions configure the evaluator role of a run in a store.
type EvaluateOptions struct {
	// Store holds the run.
	Store *runstore.Store
	// Dir is the evaluator's scratch folder (the checkpoints it rates).
	Dir string
	// Out receives a line per rated model; Progress the waiting messages
	// (nil: none).
	Out, Progress io.Writer
}

// EvaluateReport is what an Evaluate call did.
type EvaluateReport struct {
	Rated []int // the generations rated, in order
}

// Evaluate is the evaluator role of a run in a store: every model the
// trainer publishes whose generation is a multiple of eval.every plays
// the matches a one-machine run plays (against the model rated before it
// and eval.baselines, seeded alike) and the held-out set; the result goes
// to eval/gen-NNNN.json in the store, a metrics record with the Elo ladder
// of every rated model so far. It runs until ctx is cancelled; a model
// rated by another evaluator meanwhile is not rated twice.
func Evaluate(ctx context.Context, opt EvaluateOptions) (*EvaluateReport, error) {
	if opt.Store == nil || opt.Dir == "" {
		return nil, errors.New("train: evaluate: a store and a scratch folder are needed")
	}
	if err := os.MkdirAll(filepath.Join(opt.Dir, ckptDir), 0o755); err != nil {
		return nil, fmt.Errorf("train: evaluate: %w", err)
	}
	rep := &EvaluateReport{}
	f := &follower{opt: FollowOptions{Store: opt.Store, Dir: opt.Dir, Progress: opt.Progress}}
	cfg, err := f.waitConfig(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return rep, nil
		}
		return rep, err
	}
	v, err := env.LoadVariant(cfg.Variant)
	if err != nil {
		return rep, fmt.Errorf("train: evaluate: %w", err)
	}
	r := &runner{dir: opt.Dir, cfg: cfg, variant: v, opt: Options{Out: opt.Out, Progress: opt.Progress}}
	r.spRules = agent.NewRules(v, cfg.SelfPlay.MaxPlies)
	r.evRules = agent.NewRules(v, cfg.Eval.MaxPlies)
	if err := r.evRules.SetLeafEngine(cfg.Eval.LeafEngine); err != nil {
		return rep, fmt.Errorf("train: evaluate: eval.leaf_engine: %w", err)
	}
	r.netCfg = netConfig(r.spRules, cfg.Net)
	for ctx.Err() == nil {
		gens, err := r.unrated(ctx, opt.Store)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return rep, err
		}
		for _, g := range gens {
			err := r.evaluateGen(ctx, opt.Store, g)
			if err == nil {
				// Stored: reported even if a stop came meanwhile.
				rep.Rated = append(rep.Rated, g)
			}
			if errors.Is(err, errStop) || ctx.Err() != nil {
				return rep, nil
			}
			if err != nil {
				return rep, err
			}
		}
		if len(gens) == 0 {
			sleep(ctx, pollEvery)
		}
	}
	return rep, nil
}

// evalKey is the key of generation gen's evaluation record.
func evalKey(gen int) string { return metrics.EvalDir + "/" + genName(gen) + ".json" }

// unrated returns the published generations due a rating that have none,
// oldest first.
func (r *runner) unrated(ctx context.Context, s *runstore.Store) ([]int, error) {
	objs, err := s.List(ctx, ckptDir+"/gen-")
	if err != nil {
		return nil, fmt.Errorf("train: evaluate: %w", err)
	}
	done, err := s.List(ctx, evalDir+"/")
	if err != nil {
		return nil, fmt.Errorf("train: evaluate: %w", err)
	}
	rated := map[string]bool{}
	for _, o := range done {
		rated[o.Key] = true
	}
	var gens []int
	for _, o := range objs {
		num, ok := strings.CutSuffix(strings.TrimPrefix(o.Key, ckptDir+"/gen-"), ".safetensors")
		g, err := strconv.Atoi(num)
		if !ok || err != nil || g < 1 || g%r.cfg.Eval.Every != 0 || rated[evalKey(g)] {
			continue
		}
		gens = append(gens, g)
	}
	slices.Sort(gens)
	return gens, nil
}

// evaluateGen rates generation gen's checkpoint and stores its record.
func (r *runner) evaluateGen(ctx context.Context, s *runstore.Store, gen int) error {
	// The checkpoints the matches load: this one and the one rated before.
	for _, g := range []int{gen, max(0, gen-r.cfg.Eval.Every)} {
		if r.cfg.NetworkFree(g) != "" {
			continue
		}
		key := ckptDir + "/" + genName(g) + ".safetensors"
		if _, err := os.Stat(GenCheckpoint(r.dir, g)); err == nil {
			continue
		}
		if err := s.Download(ctx, key, GenCheckpoint(r.dir, g), runstore.MaxFile); err != nil {
			return fmt.Errorf("train: evaluate: %w", err)
		}
	}
	net, err := nn.LoadNet(GenCheckpoint(r.dir, gen), r.netCfg, r.variant.Name)
	if err != nil {
		return fmt.Errorf("train: evaluate: %w", err)
	}
	name := genName(gen)
	model, err := agent.NewNetModel(name, net.Fold(), r.evRules)
	if err != nil {
		return fmt.Errorf("train: evaluate: %w", err)
	}
	t0 := time.Now()
	ms, held, err := r.rate(ctx, gen, model)
	if err != nil {
		return err
	}
	rec := metrics.Record{Version: metrics.Version, Time: time.Now().UTC(), Generation: gen - 1, Model: name, Matches: ms, Heldout: held}
	if rec.Ladder, err = r.storeLadder(ctx, s, ms); err != nil {
		return err
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("train: evaluate: %w", err)
	}
	if err := s.Create(context.WithoutCancel(ctx), evalKey(gen), append(data, '\n')); err != nil && !errors.Is(err, runstore.ErrExists) {
		return fmt.Errorf("train: evaluate: %w", err)
	}
	if r.opt.Out != nil {
		fmt.Fprintln(r.opt.Out, summaryLine(&rec, time.Since(t0).Seconds(), 0, 0))
	}
	return nil
}

// storeLadder rates every player from the evaluation records in the store
// plus ms, anchored at random = 0 (nil when no match involves random).
func (r *runner) storeLadder(ctx context.Context, s *runstore.Store, ms []metrics.Match) ([]metrics.Rating, error) {
	objs, err := s.List(ctx, evalDir+"/")
	if err != nil {
		return nil, fmt.Errorf("train: evaluate: %w", err)
	}
	var all []metrics.Match
	for _, o := range objs {
		data, err := s.Read(ctx, o.Key, 16<<20)
		if err != nil {
			return nil, fmt.Errorf("train: evaluate: %w", err)
		}
		var rec metrics.Record
		if err := json.Unmarshal(data, &rec); err != nil {
			r.logf("train: evaluate: %s: %v; left out of the ladder", o.Key, err)
			continue
		}
		all = append(all, rec.Matches...)
	}
	return ladderOf(append(all, ms...))
}

// ladderOf rates every player of the matches, anchored at random = 0 (nil
// when no match involves random).
func ladderOf(ms []metrics.Match) ([]metrics.Rating, error) {
	var pairs []stats.Pairing
	hasRandom := false
	for _, m := range ms {
		pairs = append(pairs, stats.Pairing{A: m.A, B: m.B, WDL: stats.WDL{Wins: m.Wins, Draws: m.Draws, Losses: m.Losses}})
		hasRandom = hasRandom || m.A == "random" || m.B == "random"
	}
	if !hasRandom {
		return nil, nil
	}
	rs, err := stats.Ladder(pairs, "random", stats.DefaultPrior)
	if err != nil {
		return nil, fmt.Errorf("train: ladder: %w", err)
	}
	return match.MetricsLadder(rs), nil
}
