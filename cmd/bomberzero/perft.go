package main

import (
	"fmt"
	"io"
	"time"

	"bomberzero/env"
)

// runPerft counts the legal move tree at each depth.
func runPerft(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("perft", "usage: bomberzero perft [--variant V] [--fen TEXT] [--moves TEXT] [--depth D] [--divide]\n\nCounts the legal move tree of a position at each depth up to D (1-20).", stderr)
	variant := variantFlag(fs)
	fen := fs.String("fen", "", "position text (default: the start position)")
	moves := fs.String("moves", "", "moves to play first, in Game Courier or canonical syntax")
	depth := fs.Int("depth", 3, "deepest depth to count")
	divide := fs.Bool("divide", false, "print the count under each root move first")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *depth < 1 || *depth > 20 {
		return fmt.Errorf("%w: perft --variant V [--fen TEXT] [--moves TEXT] --depth D (1-20) [--divide]", errUsage)
	}
	p, err := setupPosition(*variant, *fen, *moves)
	if err != nil {
		return err
	}
	if *divide {
		var total uint64
		for _, e := range p.Divide(*depth) {
			fmt.Fprintf(stdout, "%s %d\n", p.FormatGC(e.Move), e.Nodes)
			total += e.Nodes
		}
		fmt.Fprintf(stdout, "total %d\n", total)
	}
	for d := 1; d <= *depth; d++ {
		start := time.Now()
		n := p.Perft(d)
		sec := time.Since(start).Seconds()
		fmt.Fprintf(stdout, "depth=%d nodes=%d nps=%.0f\n", d, n, float64(n)/max(sec, 1e-9))
	}
	return nil
}

// setupPosition loads a variant, reads the position text (or takes the
// start) and plays moves from it. Every error is a usage error naming the
// flag (--variant, --fen or --moves), so every command given a bad position
// exits 2, as main.go's convention has it for a command-line mistake.
func setupPosition(variant, fen, moves string) (*env.Position, error) {
	v, err := env.LoadVariant(variant)
	if err != nil {
		return nil, fmt.Errorf("%w: --variant: %v", errUsage, err)
	}
	p := v.NewPosition()
	if fen != "" {
		if p, err = v.ParsePosition(fen); err != nil {
			return nil, fmt.Errorf("%w: --fen: %v", errUsage, err)
		}
	}
	if moves != "" {
		if p, err = env.PlayMoves(p, moves); err != nil {
			return nil, fmt.Errorf("%w: --moves: %v", errUsage, err)
		}
	}
	return p, nil
}
