package main

import (
	"fmt"
	"io"
	"strings"
)

// benchmarks returns the targets "bomberzero bench" knows, in help order.
func benchmarks() []command {
	return []command{
		{"perft", "rules-engine perft nodes/s on start positions", runBenchPerft},
		{"nn", "network inference and training speed against the SGEMM ceiling", runBenchNN},
		{"selfplay", "self-play playouts/s against the network alone (ratio), games/hour", runBenchSelfplay},
		{"match", "baseline players' moves/s against move generation, games/hour against random", runBenchMatch},
		{"engine", "alpha-beta engine nodes/s against move generation and Fairy-Stockfish's bench", runBenchEngine},
		{"values", "piece-value bootstrap refits against one sweep over the rows", runBenchValues},
		{"scaleout", "self-play workers over object storage: games/hour by process count and store", runBenchScaleout},
	}
}

// runBench dispatches "bomberzero bench <target>" to one benchmark.
func runBench(args []string, stdout, stderr io.Writer) error {
	return runGroup("bench", "Measures speed against this machine's ceilings (docs/BENCHMARKS.md).", benchmarks(), args, stdout, stderr)
}

// runGroup dispatches a command made of subcommands ("bench", "data") to
// the one args names; "--help", "-h" or "help" list the subcommands.
func runGroup(group, about string, subs []command, args []string, stdout, stderr io.Writer) error {
	names := make([]string, len(subs))
	for i, c := range subs {
		names[i] = c.name
	}
	help := &helpRequest{func(w io.Writer) {
		fmt.Fprintf(w, "usage: bomberzero %s <subcommand> [flags] [arguments]\n\n%s\n\nSubcommands:\n", group, about)
		for _, c := range subs {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
		fmt.Fprintf(w, "\nRun \"bomberzero %s <subcommand> --help\" for a subcommand's flags.\n", group)
	}}
	if len(args) == 0 {
		return fmt.Errorf("%w: %s needs a subcommand: %s", errUsage, group, strings.Join(names, ", "))
	}
	if isHelpArg(args[0]) || args[0] == "help" {
		return help
	}
	for _, c := range subs {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	return fmt.Errorf("%w: unknown %s subcommand %q; subcommands: %s", errUsage, group, args[0], strings.Join(names, ", "))
}
