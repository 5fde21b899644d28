package values

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// WriteText prints the report for a person: the settings and sample sizes,
// then one table per fit (value in units of the unit piece with its 95%
// interval, and the raw coefficient), then the fit's notes. Missing values
// print as "-", unbounded interval ends as "-inf" and "+inf".
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	variants := "unknown variant"
	if len(r.Variants) > 0 {
		variants = strings.Join(r.Variants, ", ")
	}
	if r.PositionsFile != "" {
		ew.printf("Piece values for %s: %d games, %d positions kept of %d from the positions file %s (sampled by the rules of the fit that wrote it",
			variants, r.Games, r.Sampled, r.Positions, r.PositionsFile)
	} else {
		ew.printf("Piece values for %s: %d games, %d positions, %d sampled (skip %d plies, %d plies after a capture",
			variants, r.Games, r.Positions, r.Sampled, r.Sample.SkipPlies, r.Sample.QuietPlies)
		if r.Sample.NoCaptures {
			ew.printf(", positions with a capture left out")
		}
		if r.Sample.Spacing > 0 {
			ew.printf(", at least %d plies apart", r.Sample.Spacing)
		}
		if r.Sample.MaxPerGame > 0 {
			ew.printf(", at most %d a game", r.Sample.MaxPerGame)
		}
	}
	if r.Sample.MaxOfficers > 0 {
		ew.printf(", %d-%d officers on the board", r.Sample.MinOfficers, r.Sample.MaxOfficers)
		if r.Sample.Phase != "" {
			ew.printf(": the %s", r.Sample.Phase)
		}
	}
	ew.printf(")\nUnit %s; 95%% intervals from %d bootstrap resamples of whole games, seed %d; ridge %g\n",
		r.Unit, r.Bootstrap, r.Seed, r.Ridge)
	if line := phaseMixText(r.PhaseMix); line != "" {
		ew.printf("%s\n", line)
	}
	if len(r.Players) > 0 {
		ew.printf("Players: %s\n", strings.Join(r.Players, ", "))
	}
	for _, c := range r.ChessCheck {
		ew.printf("%s\n", c)
	}
	for i := range r.Fits {
		f := &r.Fits[i]
		ew.printf("\n%s fit: %s\n", f.Method, methodBlurb(f.Method))
		ew.printf("%d games, %d positions, %d bootstrap replicates\n", f.Games, f.Positions, f.Replicates)
		tw := tabwriter.NewWriter(ew, 2, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "piece\tvalue (%s = 1)\t95%% interval\tcoefficient\t95%% interval\n", r.Unit)
		for _, pv := range f.Pieces {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", pv.Piece, point(pv.Value), interval(pv.Value), point(pv.Coef), interval(pv.Coef))
		}
		fmt.Fprintf(tw, "(to move)\t\t\t%s\t%s\n", point(&f.ToMove), interval(&f.ToMove))
		fmt.Fprintf(tw, "(White)\t\t\t%s\t%s\n", point(&f.White), interval(&f.White))
		tw.Flush()
		if len(f.Sums) > 0 {
			ew.printf("sums of values (in %s; the interval from the same replicates)\n", r.Unit)
			tw := tabwriter.NewWriter(ew, 2, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "sum\tvalue\t95%% interval\n")
			for _, sm := range f.Sums {
				if sm.Value == nil {
					fmt.Fprintf(tw, "%s\t-\t%s\n", sm.Expr, sm.Note)
					continue
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\n", sm.Expr, point(sm.Value), interval(sm.Value))
			}
			tw.Flush()
		}
		if len(f.Calibration) > 0 {
			ew.printf("calibration (side to move's material by this fit, in %s; score predicted and observed)\n", r.Unit)
			tw := tabwriter.NewWriter(ew, 2, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "material\tpositions\tpredicted\tobserved\n")
			for _, c := range f.Calibration {
				fmt.Fprintf(tw, "[%s, %s)\t%d\t%.3f\t%.3f\n", formatBound(c.Lo, 3), formatBound(c.Hi, 3), c.Positions, c.Predicted, c.Observed)
			}
			tw.Flush()
		}
		for _, n := range f.Notes {
			ew.printf("note: %s\n", n)
		}
		if f.Advice != "" {
			ew.printf("missing: %s\n", f.Advice)
		}
		if f.Tomasev != "" {
			ew.printf("%s\n", f.Tomasev)
		}
	}
	for _, w := range r.Warnings {
		ew.printf("\nwarning: %s\n", w)
	}
	if len(r.Differences) > 0 {
		ew.printf("\nThe fits side by side: A's value minus B's, 95%% interval over the shared bootstrap replicates\n")
		tw := tabwriter.NewWriter(ew, 2, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "piece\tA\tB\tA - B\t95%% interval\tagree\n")
		for i := range r.Differences {
			d := &r.Differences[i]
			agree := "yes"
			if !d.Agree {
				agree = "no"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Piece, d.A, d.B, point(&d.Diff), interval(&d.Diff), agree)
		}
		tw.Flush()
	}
	return ew.err
}

func methodBlurb(m Method) string {
	switch m {
	case Logistic:
		return "P(side to move wins | decisive) = σ(x·β), decisive games only, coefficients in logits"
	case Tanh:
		return "E[result] = tanh(x·β), draws scoring 0, coefficients in tanh units"
	case Value:
		return "E[network value] = tanh(x·β), coefficients in tanh units"
	case Search:
		return "E[recorded search value] = tanh(x·β), coefficients in tanh units"
	}
	return ""
}

func point(e *Estimate) string {
	if e == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", e.Point)
}

func interval(e *Estimate) string {
	if e == nil {
		return "-"
	}
	if math.IsInf(e.Lo, -1) && math.IsInf(e.Hi, 1) {
		return "unbounded"
	}
	return fmt.Sprintf("[%s, %s]", formatBound(e.Lo, 3), formatBound(e.Hi, 3))
}

// errWriter keeps the first write error so printing code stays linear.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, args ...any) { fmt.Fprintf(e, format, args...) }
