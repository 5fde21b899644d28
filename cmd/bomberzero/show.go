package main

import (
	"fmt"
	"io"
)

// runShow prints a position as a diagram.
func runShow(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", "", stderr)
	variant := variantFlag(fs)
	fen := fs.String("fen", "", "position text (default: the start position)")
	moves := fs.String("moves", "", "moves to play first, in Game Courier or canonical syntax")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: show takes no arguments", errUsage)
	}
	p, err := setupPosition(*variant, *fen, *moves)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, p.Diagram())
	return nil
}
