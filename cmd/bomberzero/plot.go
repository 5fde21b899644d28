package main

import (
	"fmt"
	"io"
	"path/filepath"

	"bomberzero/engine/learn"
	"bomberzero/metrics"
	"bomberzero/metrics/plot"
)

// runPlot draws a run's metrics.jsonl as charts.
func runPlot(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("plot", "usage: bomberzero plot [--format png|svg] [--out FOLDER] RUN_DIR\n\nDraws a run's metrics.jsonl as charts (losses, accuracy, Elo, game lengths...): a training run's\n(bomberzero train) or an nnue run's (bomberzero nnue: its games, its nets' losses and gate matches).", stderr)
	format := fs.String("format", "png", "image format: png or svg")
	out := fs.String("out", "", "folder for the plots (default: DIR/plots)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || (*format != "png" && *format != "svg") {
		return fmt.Errorf("%w: plot [--format png|svg] [--out FOLDER] RUN_DIR", errUsage)
	}
	dir := pos[0]
	var recs []metrics.Record
	var torn bool
	if learn.IsRun(dir) { // an nnue run (bomberzero nnue): its records read as the trainer's
		recs, err = learn.ReadRunMetrics(dir)
	} else {
		recs, torn, err = metrics.ReadRun(dir)
	}
	if err != nil {
		return err
	}
	if torn {
		fmt.Fprintln(stderr, "note: the last line of metrics.jsonl is torn (a killed writer) and was skipped")
	}
	if *out == "" {
		*out = filepath.Join(dir, "plots")
	}
	paths, err := plot.Write(*out, recs, *format)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d generations plotted:\n", len(recs))
	for _, p := range paths {
		fmt.Fprintln(stdout, " ", p)
	}
	return nil
}
