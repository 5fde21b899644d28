package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"bomberzero/env"
	"bomberzero/internal/cputime"
)

// perftBenchResult is one line of "bomberzero bench perft".
type perftBenchResult struct {
	Variant string  `json:"variant"`
	Depth   int     `json:"depth"`
	Nodes   uint64  `json:"nodes"`
	Seconds float64 `json:"seconds"`
	NPS     float64 `json:"nps"`
	CPUNPS  float64 `json:"cpu_nps"` // nodes per CPU-second of this process: steadier on a shared machine
}

// runBenchPerft measures single-thread perft speed on start positions.
func runBenchPerft(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench perft", "usage: bomberzero bench perft [flags]\n\nMeasures single-thread perft nodes/s on the start positions of fbgc, chess,\nclaustrophobia and birds-ninjas.", stderr)
	fbgcDepth := fs.Int("fbgc-depth", 5, "perft depth for fbgc")
	chessDepth := fs.Int("chess-depth", 6, "perft depth for chess")
	others := fs.Int("others-depth", 4, "perft depth for claustrophobia and birds-ninjas (0 skips them)")
	asJSON := fs.Bool("json", false, "print JSON lines")
	if err := parseFlags(fs, args); err != nil {
		return err
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
		start, cpu := time.Now(), cputime.Seconds()
		n := p.Perft(r.depth)
		sec, cpuSec := time.Since(start).Seconds(), cputime.Seconds()-cpu
		res := perftBenchResult{r.name, r.depth, n, sec, float64(n) / max(sec, 1e-9), float64(n) / max(cpuSec, 1e-9)}
		if *asJSON {
			b, _ := json.Marshal(res)
			fmt.Fprintln(stdout, string(b))
		} else {
			fmt.Fprintf(stdout, "%-15s depth=%d nodes=%d time=%.2fs nps=%.2fM cpu_nps=%.2fM\n", r.name, r.depth, n, sec, res.NPS/1e6, res.CPUNPS/1e6)
		}
	}
	return nil
}
