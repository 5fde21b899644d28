package main

import (
	"encoding/json"
	"fmt"
	"io"

	"bomberzero/selfplay"
)

// runBenchSelfplay measures the self-play worker against the network alone
// ("bomberzero bench selfplay --json").
func runBenchSelfplay(args []string, stdout, stderr io.Writer) error {
	d, err := selfplay.DefaultBenchConfig("fbgc")
	if err != nil {
		return err
	}
	fs := newFlagSet("bench selfplay", "usage: bomberzero bench selfplay [flags]\n\nMeasures one self-play worker's playouts/s against its network alone (the ratio)\nand its games/hour.", stderr)
	c := d
	fs.StringVar(&c.Variant, "variant", d.Variant, "variant name (with +options)")
	fs.IntVar(&c.Slots, "slots", d.Slots, "games the worker plays at once (the network batch size)")
	fs.IntVar(&c.Search.Sims, "sims", d.Search.Sims, "playouts of a full search")
	fs.IntVar(&c.Search.CheapSims, "cheap-sims", d.Search.CheapSims, "playouts of a cheap search")
	fs.Float64Var(&c.Search.CheapShare, "cheap-share", d.Search.CheapShare, "share of cheap searches")
	fs.StringVar(&c.Net, "net", d.Net, "network size: default (training size) or test (tiny)")
	warm := fs.Duration("warmup", d.Warmup, "self-play before measuring")
	measure := fs.Duration("measure", d.Measure, "measuring time")
	asJSON := fs.Bool("json", false, "print one JSON object")
	quietFlag(fs) // it draws no progress; accepted like every long command's
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c.Warmup, c.Measure = *warm, *measure
	if err := c.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	res, err := selfplay.Bench(c)
	if err != nil {
		return err
	}
	if *asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintln(stdout, string(b))
		return nil
	}
	fmt.Fprintf(stdout, "%s, network %s (%s), batch %d: network alone %.0f positions/s, self-play %.0f playouts/s, ratio %.3f; %.0f sims/move, %.0f plies/game (measured %v), %.1f games/hour per worker\n",
		res.Variant, res.Network, res.BLAS, res.Batch, res.NetPositionsPerS, res.SimsPerS, res.Ratio,
		res.SimsPerMove, res.GameLength, res.GameLengthMeasured, res.GamesPerHour)
	return nil
}
