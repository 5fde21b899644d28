package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"bomberzero/frontend/session"
	"bomberzero/frontend/uci"
	"bomberzero/frontend/xboard"
	"bomberzero/selfplay"
)

// engineOptions lists the engine options for a protocol's usage, from the
// session's one table: each by the name the protocol sets it with (set),
// its type, default, range and help. An option UCI names otherwise or
// XBoard sets by a command of its own is listed so.
func engineOptions(set string, uci bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n\nEngine options (%s):\n", set)
	for _, o := range session.Options() {
		name := o.Name
		switch {
		case uci && o.UCI != "":
			name = o.UCI
		case !uci && o.XBoardCommand != "":
			name = o.XBoardCommand + " (a command of its own)"
		}
		kind := map[session.Kind]string{session.Spin: "spin", session.String: "string", session.Combo: "combo"}[o.Kind]
		fmt.Fprintf(&b, "  %s  %s, default %s", name, kind, o.Default)
		if r := o.Range(); r != "" {
			fmt.Fprintf(&b, ", %s", r)
		}
		fmt.Fprintf(&b, ":\n      %s\n", o.Help)
	}
	return b.String()
}

// runUCI speaks UCI on standard input and output (docs/uci.md).
func runUCI(args []string, stdout, stderr io.Writer) error {
	return uciWith(os.Stdin, args, stdout, stderr)
}

// uciWith is runUCI reading the GUI's commands from in.
func uciWith(in io.Reader, args []string, stdout, stderr io.Writer) error {
	return runEngine("uci", in, "usage: bomberzero uci [--config FILE] [--set KEY=VALUE]\n\nSpeaks UCI on standard input and output, for chess GUIs and tournament managers (docs/uci.md).\nWith the option Model at engine it searches with the alpha-beta engine (Hash, Threads, MultiPV);\nwith a model its searches derive from the [selfplay] search of the training config."+engineOptions("setoption name NAME value V", true),
		uci.RunWith, args, stdout, stderr)
}

// runXBoard speaks the XBoard/WinBoard protocol on standard input and
// output (docs/xboard.md).
func runXBoard(args []string, stdout, stderr io.Writer) error {
	return xboardWith(os.Stdin, args, stdout, stderr)
}

// xboardWith is runXBoard reading the GUI's commands from in.
func xboardWith(in io.Reader, args []string, stdout, stderr io.Writer) error {
	return runEngine("xboard", in, "usage: bomberzero xboard [--config FILE] [--set KEY=VALUE]\n\nSpeaks the XBoard/WinBoard protocol (CECP version 2) on standard input and output; every variant but chess\nis sent to XBoard 4.9 as an engine-defined variant, so it can draw the 10x10 family (docs/xboard.md).\nWith the option Model at engine it searches with the alpha-beta engine (memory, cores, MultiPV);\nwith a model its searches derive from the [selfplay] search of the training config."+engineOptions("option NAME=V", false),
		xboard.RunWith, args, stdout, stderr)
}

// runEngine runs an engine protocol on in and stdout, its searches
// derived from the training config's [selfplay] search (--config, --set).
func runEngine(name string, in io.Reader, usage string, run func(context.Context, io.Reader, io.Writer, selfplay.Search) error, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(name, usage, stderr)
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
	return run(ctx, in, stdout, tc.PlayerSearch())
}
