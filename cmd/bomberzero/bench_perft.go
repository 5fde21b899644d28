package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"bomberzero/env"
)

// perftBenchResult is one line of "bomberzero bench perft".
type perftBenchResult struct {
	Variant string  `json:"variant"`
	Depth   int     `json:"depth"`
	Nodes   uint64  `json:"nodes"`
	Seconds float64 `json:"seconds"`
	NPS     float64 `json:"nps"`
}

// runBenchPerft measures single-thread perft speed on start positions.
func runBenchPerft(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench perft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fbgcDepth := fs.Int("fbgc-depth", 5, "perft depth for fbgc")
	chessDepth := fs.Int("chess-depth", 6, "perft depth for chess")
	others := fs.Int("others-depth", 4, "perft depth for claustrophobia and birds-ninjas (0 skips them)")
	asJSON := fs.Bool("json", false, "print JSON lines")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	runs := []struct {
		name  string
		depth int
	}{{"fbgc", *fbgcDepth}, {"chess", *chessDepth}, {"claustrophobia", *others}, {"birds-ninjas", *others}}
	for _, r := range runs {
		if r.depth <= 0 {
			continue
		}
		v, err := env.LoadVariant(r.name)
		if err != nil {
			return err
		}
		p := v.NewPosition()
		start := time.Now()
		n := p.Perft(r.depth)
		sec := time.Since(start).Seconds()
		res := perftBenchResult{r.name, r.depth, n, sec, float64(n) / max(sec, 1e-9)}
		if *asJSON {
			b, _ := json.Marshal(res)
			fmt.Fprintln(stdout, string(b))
		} else {
			fmt.Fprintf(stdout, "%-15s depth=%d nodes=%d time=%.2fs nps=%.2fM\n", r.name, r.depth, n, sec, res.NPS/1e6)
		}
	}
	return nil
}
