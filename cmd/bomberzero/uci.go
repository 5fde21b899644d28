package main

import (
	"io"
	"os"

	"bomberzero/uci"
)

// runUCI speaks UCI on standard input and output (docs/uci.md).
func runUCI(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("uci", "usage: bomberzero uci [--config FILE] [--set KEY=VALUE]\n\nSpeaks UCI on standard input and output, for chess GUIs and tournament managers (docs/uci.md).\nIts searches derive from the [selfplay] search of the training config.", stderr)
	cf := addConfigFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	tc, err := cf.load("chess")
	if err != nil {
		return usageErr(err)
	}
	ctx, stop := stopContext()
	defer stop()
	return uci.RunWith(ctx, os.Stdin, stdout, tc.SelfPlay.Search)
}
