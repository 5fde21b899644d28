package main

import (
	"io"
	"os"

	"bomberzero/uci"
)

// runUCI speaks UCI on standard input and output (docs/uci.md).
func runUCI(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("uci", "usage: bomberzero uci\n\nSpeaks UCI on standard input and output, for chess GUIs and tournament managers (docs/uci.md).", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ctx, stop := stopContext()
	defer stop()
	return uci.Run(ctx, os.Stdin, stdout)
}
