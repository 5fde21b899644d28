package main

import (
	"io"
	"os"

	"bomberzero/xboard"
)

// runXBoard speaks the XBoard/WinBoard protocol on standard input and
// output (docs/xboard.md).
func runXBoard(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("xboard", "usage: bomberzero xboard [--config FILE] [--set KEY=VALUE]\n\nSpeaks the XBoard/WinBoard protocol (CECP version 2) on standard input and output; every variant but chess\nis sent to XBoard 4.9 as an engine-defined variant, so it can draw the 10x10 family (docs/xboard.md).\nIts searches derive from the [selfplay] search of the training config.", stderr)
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
	return xboard.RunWith(ctx, os.Stdin, stdout, tc.SelfPlay.Search)
}
