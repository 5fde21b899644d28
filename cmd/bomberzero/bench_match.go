package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"bomberzero/env"
	"bomberzero/match"
)

// matchBenchResult is one line of "bomberzero bench match".
type matchBenchResult struct {
	Variant string `json:"variant"`
	Player  string `json:"player"`
	// MovesPerS is the player's moves per second on the sample positions,
	// one goroutine; MovegensPerMove is the time of one move in units of one
	// legal-move generation of the same positions (the ceiling: a player
	// must at least generate the moves once).
	MovesPerS       float64 `json:"moves_per_s"`
	MovegensPerMove float64 `json:"movegens_per_move"`
	// GamesPerHour is a match of the player against random on every core.
	GamesPerHour float64 `json:"games_per_hour,omitempty"`
	MeanPlies    float64 `json:"mean_plies,omitempty"`
}

// runBenchMatch measures the baseline players' speed against move generation.
func runBenchMatch(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench match", "usage: bomberzero bench match [flags]\n\nMeasures the baseline players' moves/s against move generation, and games/hour\nagainst random on every core.", stderr)
	variant := fs.String("variant", "fbgc", "variant name")
	players := fs.String("players", "random,greedy,alphabeta:1,alphabeta:2,alphabeta:3", "comma-separated players")
	dur := fs.Duration("time", 2*time.Second, "measuring time per player")
	games := fs.Int("games", 4, "games against random per player for games/hour (0: skip)")
	asJSON := fs.Bool("json", false, "print JSON lines")
	mf := addMatchFlags(fs, true)
	quietFlag(fs) // it draws no progress; accepted like every long command's
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	tc, err := mf.load(*variant)
	if err != nil {
		return usageErr(err)
	}
	opt, err := playerOptions(tc, "")
	if err != nil {
		return err
	}
	v, err := env.LoadVariant(*variant)
	if err != nil {
		return err
	}
	// Sample positions: every 4th ply of two seeded random games.
	var sample []*env.Position
	for g := uint64(0); g < 2; g++ {
		r := match.NewRandom(g)
		p := v.NewPosition()
		for ply := 0; ply < 120; ply++ {
			if res, _ := p.Status(); res != env.Ongoing {
				break
			}
			if ply%4 == 0 {
				sample = append(sample, p.Clone())
			}
			m, err := r.Choose(p)
			if err != nil {
				return err
			}
			p.DoMove(m)
		}
	}
	buf := make([]env.Move, 0, env.MaxMoves)
	genRate := rate(*dur, sample, func(p *env.Position) error { buf = p.LegalMoves(buf[:0]); return nil })
	rnd, _ := match.Parse("random", v, match.Options{})
	for _, spec := range strings.Split(*players, ",") {
		mk, err := match.Parse(spec, v, opt)
		if err != nil {
			return fmt.Errorf("%w: --players: %v", errUsage, err)
		}
		pl, err := mk.New(1)
		if err != nil {
			return err
		}
		res := matchBenchResult{Variant: v.Name, Player: spec}
		res.MovesPerS = rate(*dur, sample, func(p *env.Position) error { _, err := pl.Choose(p); return err })
		res.MovegensPerMove = genRate / res.MovesPerS
		if *games > 0 {
			start := time.Now()
			r, err := match.Run(context.Background(), match.Config{A: mk, B: rnd, Games: *games, Variant: v, MaxPlies: tc.Eval.MaxPlies, Seed: 1})
			if err != nil {
				return err
			}
			res.GamesPerHour = float64(r.Total.Games()) / time.Since(start).Hours()
			res.MeanPlies = r.MeanPlies
		}
		if *asJSON {
			if err := json.NewEncoder(stdout).Encode(res); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(stdout, "%-12s %s: %9.0f moves/s = %7.1f move generations per move; vs random on all cores: %6.0f games/hour, %.0f plies\n",
			spec, v.Name, res.MovesPerS, res.MovegensPerMove, res.GamesPerHour, res.MeanPlies)
	}
	return nil
}

// rate returns how many calls of f per second run over the sample positions
// in about d.
func rate(d time.Duration, sample []*env.Position, f func(*env.Position) error) float64 {
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		for _, p := range sample {
			if f(p) != nil {
				continue
			}
			n++
		}
	}
	return float64(n) / time.Since(start).Seconds()
}
