package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"bomberzero/env"
	"bomberzero/internal/cputime"
	"bomberzero/internal/progress"
	"bomberzero/match"
	"bomberzero/stats"
)

// runMatch plays a match between two players and reports the Elo difference.
func runMatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("match", "usage: bomberzero match --a PLAYER --b PLAYER [flags]\n\nPlays a match between two players, colours alternating, and reports the score,\nthe Elo difference with its 95% interval and the likelihood of superiority;\n--sprt stops as soon as a sequential test decides.", stderr)
	variant := variantFlag(fs)
	a := fs.String("a", "", playerHelp("player A"))
	b := fs.String("b", "", "player B, the same choices")
	games := fs.Int("games", 100, "games to play (the most, with --sprt)")
	seed := fs.Uint64("seed", 1, "random seed of the players")
	sprt := fs.String("sprt", "", "stop early by an SPRT: elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05)")
	fen := fs.String("fen", "", "start position text (default: the variant's start)")
	moves := fs.String("moves", "", "moves to play from the start position first")
	workers := fs.Int("workers", 0, "games played at once (0: one per core)")
	values := fs.String("values", "", "piece values for greedy and alpha-beta, e.g. G=2.5,I=8")
	asJSON := fs.Bool("json", false, "write the result as JSON")
	mf := addMatchFlags(fs, true)
	quiet := quietFlag(fs)
	gamesDir := gamesDirFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *a == "" || *b == "" || *games < 1 {
		return fmt.Errorf("%w: match --a PLAYER --b PLAYER [--variant V] [--games N] [--seed S] [--sprt elo0,elo1,alpha,beta] [--fen TEXT] [--max-plies N] [--sims N] [--config FILE] [--set KEY=VALUE] [--json]", errUsage)
	}
	tc, start, opt, err := mf.setup(*variant, *fen, *moves, *values)
	if err != nil {
		return err
	}
	cfg := match.Config{Games: *games, Start: start, Variant: start.Variant(), MaxPlies: tc.Eval.MaxPlies, Seed: *seed, Workers: *workers, KeepGames: *gamesDir != ""}
	began := time.Now()
	if cfg.A, err = match.Parse(*a, start.Variant(), opt); err != nil {
		return fmt.Errorf("%w: --a: %v", errUsage, err)
	}
	if cfg.B, err = match.Parse(*b, start.Variant(), opt); err != nil {
		return fmt.Errorf("%w: --b: %v", errUsage, err)
	}
	if *sprt != "" {
		s, err := stats.ParseSPRT(*sprt)
		if err != nil {
			return fmt.Errorf("%w: --sprt: %v", errUsage, err)
		}
		cfg.SPRT = &s
	}
	bar := progress.New(progressTo(stderr, *quiet), *games, "games", "games")
	cfg.Progress = func(r *match.Result) {
		bar.Describe(fmt.Sprintf("A %d-%d-%d", r.Total.Wins, r.Total.Draws, r.Total.Losses))
		bar.Set(r.Total.Games())
	}
	ctx, stop := stopContext()
	defer stop()
	res, err := match.Run(ctx, cfg)
	bar.Clear()
	interrupted := err != nil && ctx.Err() != nil && res != nil && res.Total.Games() > 0
	if err != nil && !interrupted {
		return err
	}
	if interrupted {
		fmt.Fprintf(stderr, "interrupted: reporting the %d finished games\n", res.Total.Games())
	}
	if n, err := saveGames(*gamesDir, "bomberzero match", gamePrefix("match", began), start, res.Records); err != nil {
		return err
	} else if n > 0 {
		fmt.Fprintf(stderr, "saved %d games in %s\n", n, *gamesDir)
	}
	if *asJSON {
		return writeJSON(stdout, res)
	}
	writeMatch(stdout, res, start.Variant().Name, *seed)
	return nil
}

// playerHelp is the help of a player flag: every player spec and every key
// the spec parsers read (match.Parse, engine.ParseSpec, external.ParseSpec;
// a test holds it to their keys).
func playerHelp(what string) string {
	return what + ": random, greedy[:VALUES], alphabeta:D[:VALUES], engine[:KEY=VALUE:...] (keys nodes=N, depth=D, movetime=T, hash=MB, threads=N, weights=FILE, eval=classical|FILE), " +
		"material|uniform|rollout[:SIMS], CHECKPOINT[:SIMS] or uci:PATH[:KEY=VALUE,...], an outside engine (keys movetime=T, nodes=N, depth=D, grace=T, variant=NAME and the engine's UCI options, as Threads=1); VALUES are piece values, as G=2.5,I=8"
}

// endings writes how games ended, as "checkmate 3, repetition 1", in the
// order of the terminations' text.
func endings(m map[env.Termination]int) string {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b env.Termination) int { return strings.Compare(a.String(), b.String()) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// writeTimes prints what each side's moves cost and the machine's load: the
// figures every strength figure states beside it.
func writeTimes(w io.Writer, r *match.Result) {
	for _, s := range []struct {
		side, spec string
		t          match.Times
	}{{"A", r.A, r.ATimes}, {"B", r.B, r.BTimes}} {
		fmt.Fprintf(w, "  %s %s: %s\n", s.side, s.spec, s.t)
		if strings.Contains(s.t.Meter, string(match.MeterProcess)) && r.Workers > 1 {
			fmt.Fprintf(w, "    (the process's CPU while %d games ran at once counts them all: --workers 1 measures this side alone)\n", r.Workers)
		}
	}
	if r.LoadStart != (cputime.Load{}) || r.LoadEnd != (cputime.Load{}) {
		fmt.Fprintf(w, "  load average %s at the start, %s at the end; games at once: %d\n", r.LoadStart, r.LoadEnd, r.Workers)
	} else {
		fmt.Fprintf(w, "  games at once: %d (no load average on this system)\n", r.Workers)
	}
}

// writeMatch prints a match result for a person.
func writeMatch(w io.Writer, r *match.Result, variant string, seed uint64) {
	e := r.Est
	fmt.Fprintf(w, "%s (A) vs %s (B) on %s, %d games, seed %d\n", r.A, r.B, variant, r.Total.Games(), seed)
	fmt.Fprintf(w, "  A with White: +%d =%d -%d\n", r.AWhite.Wins, r.AWhite.Draws, r.AWhite.Losses)
	fmt.Fprintf(w, "  A with Black: +%d =%d -%d\n", r.ABlack.Wins, r.ABlack.Draws, r.ABlack.Losses)
	fmt.Fprintf(w, "  A total:      +%d =%d -%d, score %.3f [%.3f, %.3f], draws %.1f%%\n",
		r.Total.Wins, r.Total.Draws, r.Total.Losses, e.Score, e.ScoreLow, e.ScoreHigh, 100*e.DrawRate)
	fmt.Fprintf(w, "  Elo A-B: %+.1f [%+.1f, %+.1f] (95%%), LOS %.1f%%\n", e.Elo, e.EloLow, e.EloHigh, 100*e.LOS)
	fmt.Fprintf(w, "  mean length %.1f plies; endings: %s\n", r.MeanPlies, endings(r.Reasons))
	writeTimes(w, r)
	for _, f := range r.Forfeits {
		fmt.Fprintf(w, "  forfeit: %s\n", f)
	}
	if r.SPRT != nil {
		lo, hi := r.SPRT.Bounds()
		fmt.Fprintf(w, "  SPRT elo0 %g elo1 %g alpha %g beta %g: LLR %.3f in [%.3f, %.3f]: %s\n",
			r.SPRT.Elo0, r.SPRT.Elo1, r.SPRT.Alpha, r.SPRT.Beta, r.LLR, lo, hi, r.Decision)
	}
}
