package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"bomberzero/study/values"
)

// runBenchValues measures the piece-value bootstrap's refit speed against
// one sweep over the rows (package values).
func runBenchValues(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench values", "usage: bomberzero bench values [flags]\n\nMeasures the piece-value bootstrap's refit time against one sweep over the rows.", stderr)
	games := fs.String("games", "1000,4000", "comma-separated synthetic game counts")
	dur := fs.Duration("time", time.Second, "measuring time per figure")
	asJSON := fs.Bool("json", false, "print JSON lines")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var sizes []int
	for _, s := range strings.Split(*games, ",") {
		var n int
		if _, err := fmt.Sscan(strings.TrimSpace(s), &n); err != nil || n < 10 {
			return fmt.Errorf("%w: --games: %q is not a game count of at least 10", errUsage, s)
		}
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		res, err := values.BenchRefit(n, *dur)
		if err != nil {
			return err
		}
		if *asJSON {
			if err := json.NewEncoder(stdout).Encode(res); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(stdout, "%6d games %7d rows: pass %8.0f us, refit %8.0f us = %4.1f passes (%.1f sweeps counted); B=200 bootstrap of 2 fits ~ %.1f s\n",
			res.Games, res.Rows, res.PassNs/1e3, res.RefitNs/1e3, res.PassesPerRefit, res.SweepsPerRefit, res.BootstrapS)
	}
	return nil
}
