package main

import (
	"fmt"
	"io"
	"strings"

	"bomberzero/internal/cputime"
	"bomberzero/internal/progress"
	"bomberzero/match"
)

// defaultLadder is the anchors "bomberzero ladder" plays by default: the
// fixed players a model card reports.
const defaultLadder = "random,greedy,alphabeta:1,alphabeta:2,alphabeta:3"

// ladderRow is one anchor's match in "bomberzero ladder --json".
type ladderRow struct {
	Anchor string        `json:"anchor"`
	Result *match.Result `json:"result"`
}

// runLadder plays one player against each fixed anchor in turn, with the
// same protocol for every anchor, and prints one table: the model card's
// ladder (models/*.md) in one command.
func runLadder(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ladder", "usage: bomberzero ladder --model PLAYER [flags]\n\nPlays PLAYER (a checkpoint, a shipped model such as models/fbgc.safetensors,\nor any match player) against each anchor in turn, colours alternating, and prints\none Markdown table of the W-D-L, score and Elo with their 95% intervals, each\nside's CPU ms a move and how the games ended, then how CPU was measured and the\nmachine's load. The protocol of docs/RESULTS.md is the default: 64 playouts a\nmove (--sims, or PLAYER:SIMS), 400-ply cap, 200 games an anchor, seed 1.", stderr)
	variant := variantFlag(fs)
	model := fs.String("model", "", "the player rated: CHECKPOINT[:SIMS] or any match player")
	anchors := fs.String("anchors", defaultLadder, "comma-separated anchors, weakest first (a player's own KEY=VALUE list stays with it, as uci:stockfish:movetime=100,UCI_Elo=1800)")
	games := fs.Int("games", 200, "games against each anchor")
	seed := fs.Uint64("seed", 1, "random seed of the players")
	workers := fs.Int("workers", 0, "games played at once (0: one per core)")
	asJSON := fs.Bool("json", false, "write the results as JSON")
	mf := addMatchFlags(fs, true)
	quiet := quietFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	list := splitPlayers(*anchors)
	if *model == "" || *games < 1 || len(list) == 0 {
		return fmt.Errorf("%w: ladder --model PLAYER [--anchors A,B,...] [--games N] [--sims N] [--max-plies N] [--json]", errUsage)
	}
	tc, start, opt, err := mf.setup(*variant, "", "", "")
	if err != nil {
		return err
	}
	v := start.Variant()
	me, err := match.Parse(*model, v, opt)
	if err != nil {
		return fmt.Errorf("%w: --model: %v", errUsage, err)
	}
	opps := make([]match.Maker, len(list))
	for i, spec := range list {
		if opps[i], err = match.Parse(spec, v, opt); err != nil {
			return fmt.Errorf("%w: --anchors %s: %v", errUsage, spec, err)
		}
	}
	ctx, stop := stopContext()
	defer stop()
	var rows []ladderRow
	for i, opp := range opps {
		bar := progress.New(progressTo(stderr, *quiet), *games, "vs "+list[i], "games")
		cfg := match.Config{A: me, B: opp, Games: *games, Start: start, Variant: v, MaxPlies: tc.Eval.MaxPlies, Seed: *seed, Workers: *workers}
		cfg.Progress = func(r *match.Result) {
			bar.Describe(fmt.Sprintf("vs %s %d-%d-%d", list[i], r.Total.Wins, r.Total.Draws, r.Total.Losses))
			bar.Set(r.Total.Games())
		}
		res, err := match.Run(ctx, cfg)
		bar.Clear()
		if err != nil {
			return fmt.Errorf("ladder: %s against %s: %w", me.Spec, list[i], err)
		}
		rows = append(rows, ladderRow{Anchor: list[i], Result: res})
	}
	if *asJSON {
		return writeJSON(stdout, rows)
	}
	fmt.Fprintf(stdout, "%s on %s: %d games an anchor, colours alternating, %d-ply cap, seed %d\n\n", me.Spec, v.Name, *games, tc.Eval.MaxPlies, *seed)
	fmt.Fprintf(stdout, "| anchor | W-D-L (as White; as Black) | score [95%%] | Elo [95%%] | player: CPU ms a move (p90), wall ms, plies | anchor: the same | mean plies | ended by |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		res, e := r.Result, r.Result.Est
		fmt.Fprintf(stdout, "| %s | +%d =%d -%d (+%d =%d -%d; +%d =%d -%d) | %.3f [%.3f, %.3f] | %+.0f [%+.0f, %+.0f] | %s | %s | %.0f | %s |\n", r.Anchor,
			res.Total.Wins, res.Total.Draws, res.Total.Losses, res.AWhite.Wins, res.AWhite.Draws, res.AWhite.Losses,
			res.ABlack.Wins, res.ABlack.Draws, res.ABlack.Losses, e.Score, e.ScoreLow, e.ScoreHigh, e.Elo, e.EloLow, e.EloHigh,
			cpuCell(res.ATimes), cpuCell(res.BTimes), res.MeanPlies, strings.ReplaceAll(endings(res.Reasons), "|", "/"))
	}
	first, last := rows[0].Result, rows[len(rows)-1].Result
	fmt.Fprintf(stdout, "\nCPU measured by: %s %s", me.Spec, first.ATimes.Meter)
	for _, r := range rows {
		fmt.Fprintf(stdout, ", %s %s", r.Anchor, r.Result.BTimes.Meter)
	}
	fmt.Fprintf(stdout, " (docs/match.md); games at once: %d", first.Workers)
	if first.LoadStart != (cputime.Load{}) {
		fmt.Fprintf(stdout, "; load average %s at the start, %s at the end", first.LoadStart, last.LoadEnd)
	}
	fmt.Fprintln(stdout, ".")
	return nil
}

// cpuCell writes what a side's moves cost for a table cell: its mean CPU
// ms a move with the 90th percentile, its mean wall ms a move and its
// plies, as "12.3 (20.1), wall 40.2, 812 plies" ("-" for a CPU time that
// was not measured).
func cpuCell(t match.Times) string {
	cpu := "-"
	if t.CPUPlies > 0 {
		cpu = match.FormatMS(t.CPUMeanMS) + " (" + match.FormatMS(t.CPUP90MS) + ")"
	}
	return fmt.Sprintf("%s, wall %s, %d plies", cpu, match.FormatMS(t.WallMeanMS), t.Plies)
}

// splitPlayers splits a comma-separated list of player specs, keeping a
// spec's own comma-separated KEY=VALUE list with it: a piece with "=" and
// no ":" continues the spec before it, so "random,greedy:G=2.5,I=8" is two
// players and "uci:sf:movetime=100,UCI_Elo=1800,alphabeta:2" two more.
func splitPlayers(s string) []string {
	var out []string
	for _, p := range splitList(s) {
		if n := len(out); n > 0 && strings.Contains(p, "=") && !strings.Contains(p, ":") {
			out[n-1] += "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}
