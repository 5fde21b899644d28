package main

import (
	"fmt"
	"io"
)

// runShow prints a position as a diagram.
func runShow(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", "usage: bomberzero show [--variant V] [--fen TEXT] [--moves TEXT]\n\nPrints a position as a diagram, with its holes and hands.", stderr)
	variant := variantFlag(fs)
	fen := fs.String("fen", "", "position text (default: the start position)")
	moves := fs.String("moves", "", "moves to play first, in Game Courier or canonical syntax")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	p, err := setupPosition(*variant, *fen, *moves)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, p.Diagram())
	return nil
}
