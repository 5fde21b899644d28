package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"bomberzero/env"
	"bomberzero/match"
)

// runPlay lets a person play an agent in the terminal.
func runPlay(args []string, stdout, stderr io.Writer) error {
	return playWith(os.Stdin, args, stdout, stderr)
}

// playWith is runPlay reading the person's moves from in.
func playWith(in io.Reader, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", "usage: bomberzero play [--variant V] [--model AGENT] [--color white|black] [flags]\n\nPlays a game against an agent in the terminal: type moves in Game Courier or\ncanonical syntax; the agent shows its best moves as it plays.", stderr)
	variant := variantFlag(fs)
	model := fs.String("model", "alphabeta:2", "the agent: engine[:KEY=VALUE...] (the alpha-beta engine: nodes=N, depth=D, movetime=T, eval=FILE, ...), CHECKPOINT[:SIMS], material|uniform|rollout[:SIMS], random, greedy or alphabeta:D")
	color := fs.String("color", "white", "your side: white or black")
	fen := fs.String("fen", "", "start position text (default: the variant's start)")
	moves := fs.String("moves", "", "moves to play from the start position first")
	seed := fs.Uint64("seed", 1, "the agent's random seed")
	top := fs.Int("top", 5, "how many of its best moves the agent shows")
	values := fs.String("values", "", "piece values for greedy and alpha-beta, e.g. G=2.5,I=8")
	mf := addMatchFlags(fs, true)
	gamesDir := gamesDirFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	human := env.White
	switch *color {
	case "white":
	case "black":
		human = env.Black
	default:
		return fmt.Errorf("%w: --color %q: want white or black", errUsage, *color)
	}
	if *top < 0 {
		return fmt.Errorf("%w: play [--variant V] [--model CKPT[:SIMS]|random|greedy|alphabeta:D] [--color white|black] [--fen TEXT] [--moves TEXT] [--top N]", errUsage)
	}
	tc, start, opt, err := mf.setup(*variant, *fen, *moves, *values)
	if err != nil {
		return err
	}
	mk, err := match.Parse(*model, start.Variant(), opt)
	if err != nil {
		return fmt.Errorf("%w: --model: %v", errUsage, err)
	}
	agent, err := mk.New(*seed)
	if err != nil {
		return err
	}
	began := time.Now()
	_, g, err := match.Interactive{Start: start, Agent: agent, Human: human, Top: *top, MaxPlies: max(tc.Eval.MaxPlies, 0)}.RunGame(in, stdout)
	if err != nil {
		return err
	}
	if len(g.Moves) == 0 {
		return nil
	}
	if n, err := saveGames(*gamesDir, "bomberzero play", gamePrefix("play", began), start, []match.Game{g}); err != nil {
		return err
	} else if n > 0 {
		fmt.Fprintf(stdout, "The game is saved in %s.\n", *gamesDir)
	}
	return nil
}
