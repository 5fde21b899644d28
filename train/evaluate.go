package train

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/match/heldout"
	"bomberzero/metrics"
	"bomberzero/nn"
)

// qualityPositions is the number of window positions a generation's policy
// accuracy and value error are measured on.
const qualityPositions = 256

// previousMaker returns the player of the model generation gen started
// from: the network-free first model, or that generation's checkpoint.
func (r *runner) previousMaker(gen int) (match.Maker, error) {
	name := genName(gen)
	var model *agent.Model
	var err error
	if spec := r.cfg.NetworkFree(gen); spec != "" {
		model, err = agent.LoadModel(spec, r.evRules)
	} else {
		var net *nn.Net
		net, err = nn.LoadNet(GenCheckpoint(r.dir, gen), r.netCfg, r.variant.Name)
		if err == nil {
			model, err = agent.NewNetModel(name, net.Fold(), r.evRules)
		}
	}
	if err != nil {
		return match.Maker{}, fmt.Errorf("train: previous model %s: %w", name, err)
	}
	return match.NewSearchMaker(name, r.evRules, model, r.cfg.MatchSearch(r.cfg.Eval.Sims))
}

// evalPhase rates the newly trained model against the previous one and the
// baselines, saves it as the generation's checkpoint, writes the
// generation's metrics record and plots and starts the next generation. A
// kill here replays the matches on resume (they are seeded, so the same
// games are played where the players are deterministic).
func (r *runner) evalPhase(ctx context.Context) error {
	gen := r.st.Generation
	r.showPlan(0) // a run resumed in its evaluation has not shown it yet
	name := genName(gen + 1)
	folded := r.trainer.Net().Fold()
	model, err := agent.NewNetModel(name, folded, r.evRules)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	t0 := time.Now()
	// This generation's model plays its matches; a trainer leaves them to
	// the evaluator role.
	var ms []metrics.Match
	var held *metrics.Heldout
	if (gen+1)%r.cfg.Eval.Every == 0 && r.opt.Role != RoleTrainer {
		if ms, held, err = r.rate(ctx, gen+1, model); err != nil {
			return err
		}
	}
	evalSeconds := time.Since(t0).Seconds()

	arrived := r.st.Gen.Arrived // read before nextGeneration clears it
	rec := metrics.Record{Generation: gen, Model: name}
	if rec.SelfPlay, err = r.selfPlaySummary(); err != nil {
		return err
	}
	rec.Train = r.trainMetrics()
	if qs, err := r.qualitySample(qualityPositions); err != nil {
		return err
	} else if len(qs) > 0 {
		if rec.Train.PolicyAccuracy, rec.Train.ValueError, err = quality(r.spRules, folded, qs); err != nil {
			return err
		}
	}
	rec.Matches = ms
	rec.Heldout = held
	if rec.Ladder, err = r.ladder(ms); err != nil {
		return err
	}
	if err := r.trainer.Save(GenCheckpoint(r.dir, gen+1), r.variant.Name); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	rec.Elapsed = r.elapsed()
	if err := r.metrics.Append(rec); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := r.nextGeneration(); err != nil {
		return err
	}
	if err := r.redraw(); err != nil {
		return err
	}
	if r.opt.Out != nil {
		fmt.Fprintln(r.opt.Out, summaryLine(&rec, evalSeconds, r.st.Samples, arrived))
	}
	if gen == 0 && r.opt.Progress != nil {
		path := GenCheckpoint(r.dir, 1)
		fmt.Fprintf(r.opt.Progress, "first model: %s, after %s of the run (try it: bomberzero match --a %s:64 --b alphabeta:1 --games 20)\n",
			path, time.Duration(rec.Elapsed*float64(time.Second)).Round(time.Second), path)
	}
	return nil
}

// rate plays the matches of model, generation gen's checkpoint, against
// the model rated before it (eval.every generations earlier) and the
// baselines, and scores it on the held-out set. The matches are seeded by
// the run's seed and gen, so a replay plays the same games.
func (r *runner) rate(ctx context.Context, gen int, model *agent.Model) ([]metrics.Match, *metrics.Heldout, error) {
	ec := r.cfg.Eval
	if ec.Games == 0 {
		return nil, nil, nil
	}
	me, err := match.NewSearchMaker(model.Name, r.evRules, model, r.cfg.MatchSearch(ec.Sims))
	if err != nil {
		return nil, nil, fmt.Errorf("train: %w", err)
	}
	var opps []match.Maker
	if ec.Previous {
		m, err := r.previousMaker(max(0, gen-ec.Every)) // the model rated last
		if err != nil {
			return nil, nil, err
		}
		opps = append(opps, m)
	}
	for _, spec := range ec.Baselines {
		m, err := match.Parse(spec, r.variant, match.Options{})
		if err != nil {
			return nil, nil, fmt.Errorf("train: config eval.baselines: %w", err)
		}
		opps = append(opps, m)
	}
	var ms []metrics.Match
	for i, opp := range opps {
		res, err := match.Run(ctx, match.Config{A: me, B: opp, Games: ec.Games, Variant: r.variant,
			MaxPlies: ec.MaxPlies, Seed: mix(r.cfg.Seed, uint64(gen-1)<<8|uint64(i)+0x6d61), Workers: ec.Workers})
		if ctx.Err() != nil {
			return nil, nil, errStop
		}
		if err != nil {
			return nil, nil, fmt.Errorf("train: match %s vs %s: %w", model.Name, opp.Spec, err)
		}
		ms = append(ms, res.Metrics())
	}
	held, err := r.heldoutScore(ctx, model)
	if err != nil {
		return nil, nil, err
	}
	return ms, held, nil
}

// heldoutSims is the playouts of the search scored on the held-out set.
const heldoutSims = 16

// heldoutScore scores model on the variant's built-in mate-in-one set by
// its policy alone and by its match search at heldoutSims playouts (nil
// when the variant has no set).
func (r *runner) heldoutScore(ctx context.Context, model *agent.Model) (*metrics.Heldout, error) {
	puzzles, err := heldout.Builtin(r.variant)
	if err != nil || len(puzzles) == 0 {
		return nil, err
	}
	policy, err := model.PolicyFunc()
	if err != nil {
		return nil, fmt.Errorf("train: held-out set: %w", err)
	}
	ps, err := heldout.Evaluate(r.variant, puzzles, heldout.FuncPlayer{Spec: model.Name, Fn: policy})
	if err != nil {
		return nil, fmt.Errorf("train: held-out set: %w", err)
	}
	mk, err := match.NewSearchMaker(model.Name, r.evRules, model, r.cfg.MatchSearch(heldoutSims))
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	p, err := mk.New(mix(r.cfg.Seed, 0x68656c64))
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if ctx.Err() != nil {
		return nil, errStop
	}
	ss, err := heldout.Evaluate(r.variant, puzzles, p)
	if err != nil {
		return nil, fmt.Errorf("train: held-out set: %w", err)
	}
	return &metrics.Heldout{Puzzles: len(puzzles), PolicySolved: ps.Solved, SearchSims: heldoutSims, SearchSolved: ss.Solved}, nil
}

// trainMetrics turns the generation's training sums into its record.
func (r *runner) trainMetrics() *metrics.Train {
	g := r.st.Gen
	t := &metrics.Train{Steps: g.Steps, TotalSteps: int(r.trainer.Steps()), Samples: g.Samples, Seconds: g.Seconds,
		LearningRate: r.trainer.Config().Schedule.Rate(r.trainer.Steps())}
	if g.Steps > 0 {
		n := float64(g.Steps)
		t.PolicyLoss, t.ValueLoss, t.MovesLeftLoss, t.Loss = g.PolicyLoss/n, g.ValueLoss/n, g.MovesLeft/n, g.Loss/n
		t.ShortValueLoss = g.ShortValue / n
	}
	return t
}

// ladder rates every player from all the run's matches so far plus ms,
// anchored at random = 0 (nil when no match involves random).
func (r *runner) ladder(ms []metrics.Match) ([]metrics.Rating, error) {
	recs, _, err := metrics.Read(filepath.Join(r.dir, metricsName))
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	var all []metrics.Match
	for _, rec := range recs {
		all = append(all, rec.Matches...)
	}
	return ladderOf(append(all, ms...))
}

// summaryLine is the one line a generation prints.
// samples and arrived are the run's samples drawn and eligible positions
// arrived so far: their ratio is held under the configured sample ratio.
func summaryLine(rec *metrics.Record, evalSeconds float64, samples, arrived int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "gen %d -> %s:", rec.Generation, rec.Model)
	if sp := rec.SelfPlay; sp != nil {
		fmt.Fprintf(&b, " games %d (+%d =%d -%d, %.0f plies", sp.Games, sp.WhiteWins, sp.Draws, sp.BlackWins, sp.MeanPlies)
		for _, t := range []env.Termination{env.Checkmate, env.LengthCap, env.Adjudication} {
			if n := sp.Terminations[t.String()]; n > 0 {
				fmt.Fprintf(&b, ", %s %d", t, n)
			}
		}
		fmt.Fprintf(&b, "), positions %d, %.0f games/h;", sp.Positions, sp.GamesPerHour)
	}
	if t := rec.Train; t != nil {
		fmt.Fprintf(&b, " steps %d (total %d), loss %.3f (policy %.3f, value %.3f), acc %.2f;",
			t.Steps, t.TotalSteps, t.Loss, t.PolicyLoss, t.ValueLoss, t.PolicyAccuracy)
		fmt.Fprintf(&b, " samples/position %.2f (%d/%d);", float64(samples)/float64(max(arrived, 1)), samples, arrived)
	}
	for _, m := range rec.Matches {
		fmt.Fprintf(&b, " vs %s %d-%d-%d;", m.B, m.Wins, m.Draws, m.Losses)
	}
	if h := rec.Heldout; h != nil {
		fmt.Fprintf(&b, " mate-in-one %d/%d by policy, %d/%d at %d playouts;", h.PolicySolved, h.Puzzles, h.SearchSolved, h.Puzzles, h.SearchSims)
	}
	if rt, ok := rec.Rating(rec.Model); ok {
		fmt.Fprintf(&b, " Elo vs random %+.0f [%+.0f, %+.0f];", rt.Elo, rt.Low, rt.High)
	}
	fmt.Fprintf(&b, " elapsed %s (eval %.0fs)", time.Duration(rec.Elapsed*float64(time.Second)).Round(time.Second), evalSeconds)
	return b.String()
}
