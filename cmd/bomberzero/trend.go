package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"bomberzero/internal/progress"
	"bomberzero/match"
	"bomberzero/metrics"
	"bomberzero/setup"
	"bomberzero/stats"
	"bomberzero/train"
)

// trendPoint is one checkpoint's match in "bomberzero trend".
type trendPoint struct {
	Model  string        `json:"model"`
	Hours  float64       `json:"hours"` // the run's working time when the checkpoint was written
	Result *match.Result `json:"result"`
}

// trendReport is "bomberzero trend --json".
type trendReport struct {
	Run    string       `json:"run"`
	Anchor string       `json:"anchor"`
	Points []trendPoint `json:"points"`
	// Trend is the line through the points' Elo against the anchor, its
	// slope in Elo per hour of the run's working time; nil when no line
	// could be fitted (Error says why).
	Trend *stats.Trend `json:"trend,omitempty"`
	Error string       `json:"error,omitempty"`
}

// runTrend rates checkpoints of a run spread over the last part of its
// working time against one fixed anchor and fits a line through their Elo:
// whether the run was still learning, and how fast, with an interval.
func runTrend(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("trend", "usage: bomberzero trend --run DIR [flags]\n\nIs the run still learning? Plays --points checkpoints of the run DIR, spread evenly\nover its working time from --from (a share of it) to the newest, each --games games\nagainst one fixed --anchor (colours alternating, the same seed for each, so the same\nopenings), and fits a straight line through their Elo against the anchor: the slope\nin Elo per hour of the run's working time with its 95% interval, and whether it rises,\nfalls or is not resolved (stats.FitTrend, docs/training.md \"Is it still learning\").", stderr)
	dir := fs.String("run", "", "the run directory")
	anchor := fs.String("anchor", "alphabeta:2", "the fixed player every checkpoint meets")
	games := fs.Int("games", 40, "games of each checkpoint against the anchor")
	points := fs.Int("points", 6, "checkpoints rated, the newest included")
	from := fs.Float64("from", 0.5, "where the rated span starts, as a share of the run's working time (0: its start)")
	fromModel := fs.String("from-model", "", "where the rated span starts, as a checkpoint of the run (gen-0010, or its file in the run's checkpoints), instead of --from")
	seed := fs.Uint64("seed", 1, "random seed of the players")
	workers := fs.Int("workers", 0, "games played at once (0: one per core)")
	asJSON := fs.Bool("json", false, "write the points and the line as JSON")
	mf := addMatchFlags(fs, true)
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *dir == "":
		return fmt.Errorf("%w: trend --run DIR [--anchor PLAYER] [--games N] [--points K] [--from SHARE | --from-model CHECKPOINT]", errUsage)
	case *games < 1:
		return fmt.Errorf("%w: --games %d: want 1 or more", errUsage, *games)
	case *points < 2:
		return fmt.Errorf("%w: --points %d: want 2 or more (a line needs two)", errUsage, *points)
	case !(*from >= 0 && *from < 1):
		return fmt.Errorf("%w: --from %g: want a share from 0 to below 1", errUsage, *from)
	case *fromModel != "" && set(fs, "from"):
		return fmt.Errorf("%w: --from and --from-model both say where the span starts: give one", errUsage)
	}
	cfgPath := filepath.Join(*dir, "config.toml")
	runCfg, err := setup.ReadConfig(cfgPath, setup.Config{})
	if err != nil {
		return fmt.Errorf("trend: %s is no run directory: %w", *dir, err)
	}
	cks, err := runCheckpoints(*dir)
	if err != nil {
		return err
	}
	lo, span, err := spanStart(cks, *from, *fromModel)
	if err != nil {
		return fmt.Errorf("trend: %s: %w", *dir, err)
	}
	chosen, err := spreadCheckpoints(cks, lo, *points)
	if err != nil {
		lower := "lower --from"
		if *fromModel != "" {
			lower = "name an earlier --from-model"
		}
		return fmt.Errorf("trend: %s: %w; %s", *dir, err, lower)
	}
	tc, start, opt, err := mf.setup(runCfg.Variant, "", "", "")
	if err != nil {
		return err
	}
	v := start.Variant()
	anchorMaker, err := match.Parse(*anchor, v, opt)
	if err != nil {
		return fmt.Errorf("%w: --anchor: %v", errUsage, err)
	}
	ctx, stop := stopContext()
	defer stop()
	rep := trendReport{Run: *dir, Anchor: *anchor}
	var tps []stats.TrendPoint
	for i, ck := range chosen {
		me, err := match.Parse(ck.path, v, opt)
		if err != nil {
			return fmt.Errorf("trend: %s: %w", ck.path, err)
		}
		bar := progress.New(progressTo(stderr, *quiet), *games, fmt.Sprintf("%d/%d %s vs %s", i+1, len(chosen), ck.name, *anchor), "games")
		cfg := match.Config{A: me, B: anchorMaker, Games: *games, Start: start, Variant: v, MaxPlies: tc.Eval.MaxPlies, Seed: *seed, Workers: *workers}
		cfg.Progress = func(r *match.Result) { bar.Set(r.Total.Games()) }
		res, err := match.Run(ctx, cfg)
		bar.Clear()
		if err != nil {
			return fmt.Errorf("trend: %s against %s: %w", ck.name, *anchor, err)
		}
		rep.Points = append(rep.Points, trendPoint{Model: ck.name, Hours: ck.hours, Result: res})
		tps = append(tps, stats.TrendPoint{X: ck.hours, Wins: res.Total.Wins, Draws: res.Total.Draws, Losses: res.Total.Losses})
	}
	if tr, err := stats.FitTrend(tps); err != nil {
		if !errors.Is(err, stats.ErrNoTrend) {
			return fmt.Errorf("trend: %w", err)
		}
		rep.Error = err.Error()
	} else {
		rep.Trend = &tr
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	fmt.Fprintf(stdout, "%s (%s) against %s: %d checkpoints from %s, %d games each, colours alternating, %d-ply cap, seed %d\n\n",
		*dir, v.Name, *anchor, len(rep.Points), span, *games, tc.Eval.MaxPlies, *seed)
	fmt.Fprintf(stdout, "| checkpoint | hours | W-D-L | score [95%%] | Elo [95%%] | CPU ms a move (checkpoint, anchor) |\n|---|---|---|---|---|---|\n")
	for _, p := range rep.Points {
		r, e := p.Result, p.Result.Est
		fmt.Fprintf(stdout, "| %s | %.2f | +%d =%d -%d | %.3f [%.3f, %.3f] | %+.0f [%+.0f, %+.0f] | %s, %s |\n", p.Model, p.Hours,
			r.Total.Wins, r.Total.Draws, r.Total.Losses, e.Score, e.ScoreLow, e.ScoreHigh, e.Elo, e.EloLow, e.EloHigh,
			match.FormatMS(r.ATimes.CPUMeanMS), match.FormatMS(r.BTimes.CPUMeanMS))
	}
	if rep.Trend == nil {
		fmt.Fprintf(stdout, "\nNo line: %s\n", rep.Error)
		return nil
	}
	t := rep.Trend
	verdict := map[int]string{1: "rising (the interval is above 0)", -1: "falling (the interval is below 0)", 0: "not resolved (the interval holds 0)"}[t.Resolved()]
	fmt.Fprintf(stdout, "\nSlope: %+.0f Elo an hour [%+.0f, %+.0f] over %d games: %s.\n", t.Slope, t.SlopeLow, t.SlopeHigh, t.Games, verdict)
	return nil
}

// runCheckpoint is one generation checkpoint of a run and the run's
// working time, in hours, when it was written.
type runCheckpoint struct {
	name, path string
	hours      float64
}

// runCheckpoints lists dir's generation checkpoints in order, each with
// the working time of the metrics record that names it (gen-0000, the
// starting weights, at 0): generation g's record names the checkpoint
// g + 1 (train.GenCheckpoint). A record whose checkpoint is not on disk is
// left out, and so is a checkpoint no record names.
func runCheckpoints(dir string) ([]runCheckpoint, error) {
	recs, _, err := metrics.ReadRun(dir)
	if err != nil {
		return nil, fmt.Errorf("trend: %w", err)
	}
	var out []runCheckpoint
	add := func(gen int, seconds float64) {
		path := train.GenCheckpoint(dir, gen)
		if _, err := os.Stat(path); err == nil {
			out = append(out, runCheckpoint{strings.TrimSuffix(filepath.Base(path), ".safetensors"), path, seconds / 3600})
		}
	}
	add(0, 0)
	for _, r := range recs {
		if r.Model != "" {
			add(r.Generation+1, r.Elapsed)
		}
	}
	return out, nil
}

// errNoCheckpoints is spanStart's and spreadCheckpoints' error for a run
// with no checkpoint to rate.
var errNoCheckpoints = errors.New("no generation checkpoint with a metrics record (checkpoints/gen-NNNN.safetensors named in metrics.jsonl)")

// spanStart returns where the rated span starts, in hours of the run's
// working time, and the words the report says it with: the time of the
// checkpoint named by fromModel (its name, as gen-0010, or its file in the
// run's checkpoints folder), or,
// without one, the share from of the newest checkpoint's time.
func spanStart(cks []runCheckpoint, from float64, fromModel string) (float64, string, error) {
	if len(cks) == 0 {
		return 0, "", errNoCheckpoints
	}
	if fromModel == "" {
		return from * cks[len(cks)-1].hours, fmt.Sprintf("%.0f%% of its working time", 100*from), nil
	}
	file, ferr := os.Stat(fromModel) // a path names the file it is, whatever its folder's name
	var names []string
	for _, c := range cks {
		if c.name == fromModel || c.name+".safetensors" == fromModel || ferr == nil && isFile(c.path, file) {
			return c.hours, fmt.Sprintf("%s (%.2f hours of its working time)", c.name, c.hours), nil
		}
		names = append(names, c.name)
	}
	if len(names) > 6 {
		names = append(names[:3], "...", names[len(names)-2], names[len(names)-1])
	}
	return 0, "", fmt.Errorf("--from-model %s: no generation checkpoint of that name with a metrics record; the run has %s", fromModel, strings.Join(names, ", "))
}

// isFile says whether path names the existing file f.
func isFile(path string, f os.FileInfo) bool {
	fp, err := os.Stat(path)
	return err == nil && os.SameFile(fp, f)
}

// spreadCheckpoints picks up to k of cks (in order of time) spread evenly
// over the span from lo hours of working time to the newest: for each of k
// evenly spaced times, the nearest checkpoint not yet picked. It needs two
// checkpoints in the span.
func spreadCheckpoints(cks []runCheckpoint, lo float64, k int) ([]runCheckpoint, error) {
	if len(cks) == 0 {
		return nil, errNoCheckpoints
	}
	last := cks[len(cks)-1].hours
	var span []runCheckpoint
	for _, c := range cks {
		if c.hours >= lo {
			span = append(span, c)
		}
	}
	if len(span) < 2 {
		return nil, fmt.Errorf("%d checkpoint(s) from %.2f hours on, want two or more", len(span), lo)
	}
	picked := map[int]bool{}
	var out []runCheckpoint
	for i := 0; i < k; i++ {
		t := lo + (last-lo)*float64(i)/float64(k-1)
		best := -1
		for j, c := range span {
			if !picked[j] && (best < 0 || math.Abs(c.hours-t) < math.Abs(span[best].hours-t)) {
				best = j
			}
		}
		if best < 0 {
			break
		}
		picked[best] = true
	}
	for j, c := range span {
		if picked[j] {
			out = append(out, c)
		}
	}
	return out, nil
}
