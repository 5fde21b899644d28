package main

import (
	"fmt"
	"io"
	"strings"
)

// benchmark is one target of "bomberzero bench".
type benchmark struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// benchmarks returns the targets "bomberzero bench" knows, in help order.
func benchmarks() []benchmark {
	return []benchmark{
		{"perft", "rules-engine perft nodes/s on start positions", runBenchPerft},
		{"nn", "network inference and training speed against the SGEMM ceiling", runBenchNN},
		{"selfplay", "self-play playouts/s against the network alone (ratio), games/hour", runBenchSelfplay},
		{"match", "baseline players' moves/s against move generation, games/hour against random", runBenchMatch},
		{"values", "piece-value bootstrap refits against one sweep over the rows", runBenchValues},
	}
}

// runBench dispatches "bomberzero bench <target>" to one benchmark.
func runBench(args []string, stdout, stderr io.Writer) error {
	var names []string
	for _, b := range benchmarks() {
		names = append(names, b.name)
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return fmt.Errorf("%w: bench <target> [flags]; targets: %s", errUsage, strings.Join(names, ", "))
	}
	for _, b := range benchmarks() {
		if b.name == args[0] {
			return b.run(args[1:], stdout, stderr)
		}
	}
	return fmt.Errorf("%w: unknown bench target %q; targets: %s", errUsage, args[0], strings.Join(names, ", "))
}
