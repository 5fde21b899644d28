package values

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"bomberzero/internal/atomicfile"
)

// Chart file names WriteReport puts beside report.md.
const (
	ReportFile        = "report.md"
	OutcomesChartFile = "outcomes.png"
	LengthsChartFile  = "lengths.png"
	ValuesChartFile   = "values.png"
)

// WriteReport writes the comparison to dir as report.md with its charts
// (PNG) beside it, readable without running anything. dir is created if
// needed; every file is written atomically.
func (c *Comparison) WriteReport(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("values: report folder: %w", err)
	}
	charts := map[string]*BarChart{
		OutcomesChartFile: c.outcomesChart(),
		LengthsChartFile:  c.lengthsChart(),
	}
	if vc := c.valuesChart(); vc != nil {
		charts[ValuesChartFile] = vc
	}
	for name, ch := range charts {
		if err := ch.Save(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	var b bytes.Buffer
	if err := c.WriteMarkdown(&b, charts[ValuesChartFile] != nil); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, ReportFile), func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
}

func (c *Comparison) names() []string {
	var names []string
	for _, v := range c.Variants {
		names = append(names, v.Variant)
	}
	return names
}

func (c *Comparison) outcomesChart() *BarChart {
	ch := &BarChart{Title: "Outcomes (95% intervals)", YLabel: "share of games",
		Categories: []string{"White's score", "draw rate", "decisive rate"}}
	for _, v := range c.Variants {
		ws, dr, de := v.WhiteScore, v.DrawRate, v.DecisiveRate
		ch.Series = append(ch.Series, BarSeries{Name: v.Variant, Bars: []*Estimate{&ws, &dr, &de}})
	}
	return ch
}

func (c *Comparison) lengthsChart() *BarChart {
	ch := &BarChart{Title: "Game length (95% bootstrap intervals)", YLabel: "plies",
		Categories: []string{"lower quartile", "median", "mean", "upper quartile"}}
	for _, v := range c.Variants {
		l := v.Length
		ch.Series = append(ch.Series, BarSeries{Name: v.Variant, Bars: []*Estimate{&l.Q1, &l.Median, &l.Mean, &l.Q3}})
	}
	return ch
}

// reportFits returns the normalised fits of a values report in the order
// the comparison shows them: Logistic (the preferred values: it leaves draws
// out instead of reading them as equal material), Tanh, Value, Search.
func reportFits(r *Report) []*FitResult {
	if r == nil {
		return nil
	}
	var out []*FitResult
	for _, m := range []Method{Logistic, Tanh, Value, Search} {
		for i := range r.Fits {
			if r.Fits[i].Method == m && r.Fits[i].Normalised {
				out = append(out, &r.Fits[i])
			}
		}
	}
	return out
}

// reportFit picks the fit of a values report the comparison's chart shows:
// the first of reportFits, or nil.
func reportFit(r *Report) *FitResult {
	if fs := reportFits(r); len(fs) > 0 {
		return fs[0]
	}
	return nil
}

// valuesChart draws every variant's values side by side, or nil when no
// variant has normalised values.
func (c *Comparison) valuesChart() *BarChart {
	var pieces []string
	var fits []*FitResult
	var names []string
	unit := ""
	for i, r := range c.Values {
		f := reportFit(r)
		if f == nil || i >= len(c.Variants) {
			continue
		}
		fits, names, unit = append(fits, f), append(names, c.Variants[i].Variant), r.Unit
		for _, pv := range f.Pieces {
			if pv.Value != nil && !slices.Contains(pieces, pv.Piece) {
				pieces = append(pieces, pv.Piece)
			}
		}
	}
	if len(fits) == 0 {
		return nil
	}
	ch := &BarChart{Title: "Piece values (95% bootstrap intervals)", YLabel: "value in units of " + unit, Categories: pieces}
	for i, f := range fits {
		se := BarSeries{Name: names[i] + " (" + string(f.Method) + ")"}
		for _, p := range pieces {
			var e *Estimate
			for _, pv := range f.Pieces {
				if pv.Piece == p {
					e = pv.Value
				}
			}
			se.Bars = append(se.Bars, e)
		}
		ch.Series = append(ch.Series, se)
	}
	return ch
}

func fmtRate(e Estimate) string {
	return e.Format(3)
}

func fmtNum(e Estimate) string {
	return fmt.Sprintf("%.1f [%.1f, %.1f]", e.Point, e.Lo, e.Hi)
}

// WriteMarkdown writes the comparison as Markdown tables; withValues adds
// the link to the piece-value chart WriteReport draws.
func (c *Comparison) WriteMarkdown(w io.Writer, withValues bool) error {
	ew := &errWriter{w: w}
	names := c.names()
	row := func(label string, cells ...string) {
		ew.printf("| %s | %s |\n", label, strings.Join(cells, " | "))
	}
	header := func(first string) {
		row(first, names...)
		ew.printf("|---|%s\n", strings.Repeat("---|", len(names)))
	}
	each := func(f func(v *VariantStats) string) []string {
		var cells []string
		for _, v := range c.Variants {
			cells = append(cells, f(v))
		}
		return cells
	}
	ew.printf("# Variant comparison: %s\n\n", strings.Join(names, " vs "))
	ew.printf("Every figure carries its 95%% interval in brackets: Wilson intervals for rates, bootstrap percentile\n")
	ew.printf("intervals (B = %d, seed %d) for lengths and entropies. docs/values.md gives the methods.\n\n",
		c.Variants[0].Bootstrap, c.Variants[0].Seed)

	ew.printf("## Outcomes\n\n")
	header("")
	row("games", each(func(v *VariantStats) string { return fmt.Sprint(v.Games) })...)
	row("White / draw / Black", each(func(v *VariantStats) string { return fmt.Sprintf("%d / %d / %d", v.WhiteWins, v.Draws, v.BlackWins) })...)
	row("White's score", each(func(v *VariantStats) string { return fmtRate(v.WhiteScore) })...)
	row("draw rate", each(func(v *VariantStats) string { return fmtRate(v.DrawRate) })...)
	row("decisive rate", each(func(v *VariantStats) string { return fmtRate(v.DecisiveRate) })...)
	ew.printf("\n![outcomes](%s)\n\n", OutcomesChartFile)

	ew.printf("## Game length (plies)\n\n")
	header("")
	row("mean", each(func(v *VariantStats) string { return fmtNum(v.Length.Mean) })...)
	row("median", each(func(v *VariantStats) string { return fmtNum(v.Length.Median) })...)
	row("quartiles", each(func(v *VariantStats) string {
		return fmt.Sprintf("%.1f – %.1f", v.Length.Q1.Point, v.Length.Q3.Point)
	})...)
	row("range", each(func(v *VariantStats) string { return fmt.Sprintf("%d – %d", v.Length.Min, v.Length.Max) })...)
	ew.printf("\n![lengths](%s)\n\n", LengthsChartFile)

	ew.printf("## How games end\n\n")
	var reasons []string
	for _, v := range c.Variants {
		for _, t := range v.Terminations {
			if !slices.Contains(reasons, t.Reason) {
				reasons = append(reasons, t.Reason)
			}
		}
	}
	header("ending")
	for _, r := range reasons {
		row(r, each(func(v *VariantStats) string {
			for _, t := range v.Terminations {
				if t.Reason == r {
					return fmt.Sprintf("%d: %s", t.Games, fmtRate(t.Share))
				}
			}
			return fmt.Sprintf("0: %s", fmtRate(Wilson(0, float64(v.Games))))
		})...)
	}

	ew.printf("\n## Opening diversity (first %d plies)\n\n", c.Variants[0].Openings.Plies)
	header("")
	row("games with a known opening", each(func(v *VariantStats) string { return fmt.Sprint(v.Openings.Known) })...)
	row("distinct openings", each(func(v *VariantStats) string {
		return fmt.Sprintf("%d (%d played once)", v.Openings.Distinct, v.Openings.Singletons)
	})...)
	known := func(n int, s string) string {
		if n == 0 {
			return "–"
		}
		return s
	}
	row("entropy (bits)", each(func(v *VariantStats) string { return known(v.Openings.Known, fmtNum2(v.Openings.Entropy)) })...)
	row("effective openings (2^entropy)", each(func(v *VariantStats) string {
		return known(v.Openings.Known, fmtNum(v.Openings.Effective))
	})...)
	row("first-move entropy (bits)", each(func(v *VariantStats) string {
		return known(v.Openings.FirstMoves, fmtNum2(v.Openings.FirstMoveEntropy))
	})...)
	ew.printf("\nEntropies are Miller-Madow estimates corrected for the bootstrap's bias, with basic bootstrap intervals. When most openings were played once,\n")
	ew.printf("the sample has not seen most of them and even the corrected entropy is a lower bound.\n")

	ew.printf("\n## Differences\n\n")
	ew.printf("The primary endpoints, named before any game is played, are White's score, the draw rate (the decisive share is its complement) and the mean length; the rest are secondary. ")
	ew.printf("Significance is decided by Holm's step-down correction over all %d figures tested, so the whole table keeps a 5%% chance of any false \"real difference\". ", len(c.Differences))
	ew.printf("\"Smallest detectable\" is the true difference these samples would find at 5%% (before the correction) with 80%% power.\n\n")
	ew.printf("| figure | endpoint | A | B | value in A | value in B | B − A [95%%] | smallest detectable | p | Holm p | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range c.Differences {
		kind, mde, ph := "secondary", "-", "-"
		if d.Primary {
			kind = "**primary**"
		}
		if d.MinDetectable != nil {
			mde = fmt.Sprintf("%.3f", *d.MinDetectable)
		}
		if d.PHolm != nil {
			ph = strings.TrimPrefix(formatP(*d.PHolm), "= ")
		}
		ew.printf("| %s | %s | %s | %s | %.3f | %.3f | %s | %s | %s | %s | %s |\n", d.Metric, kind, d.A, d.B, d.ValueA, d.ValueB,
			d.Delta.Format(3), mde, strings.TrimPrefix(formatP(d.P), "= "), ph, d.Verdict)
	}

	// The piece-value section is always there: values, or what is
	// missing and why.
	ew.printf("\n## Piece values\n\n")
	for _, n := range c.ValueNotes {
		ew.printf("- %s\n", n)
	}
	if len(c.ValueNotes) > 0 {
		ew.printf("\n")
	}
	var shown bool
	for i, r := range c.Values {
		if r == nil || i >= len(c.Variants) {
			continue
		}
		fits := reportFits(r)
		if len(fits) == 0 {
			ew.printf("%s: no fit gave values in units of %s (%d games).\n\n", c.Variants[i].Variant, r.Unit, r.Games)
			for _, f := range r.Fits {
				for _, n := range f.Notes {
					ew.printf("- %s fit: %s\n", f.Method, n)
				}
				if f.Advice != "" {
					ew.printf("- %s fit, what is missing: %s\n", f.Method, f.Advice)
				}
			}
			ew.printf("\n")
			continue
		}
		shown = true
		var on []string
		for _, f := range fits {
			on = append(on, fmt.Sprintf("%s fit on %d games and %d positions", f.Method, f.Games, f.Positions))
		}
		ew.printf("%s, %s (seed %d, B = %d), in units of %s:\n\n", c.Variants[i].Variant, strings.Join(on, "; "), r.Seed, r.Bootstrap, r.Unit)
		ew.printf("| piece |")
		for _, f := range fits {
			ew.printf(" %s [95%%] |", f.Method)
		}
		ew.printf("\n|---|%s\n", strings.Repeat("---|", len(fits)))
		for _, pv := range fits[0].Pieces {
			ew.printf("| %s |", pv.Piece)
			for _, f := range fits {
				ew.printf(" %s |", valueCell(pieceValueOf(f, pv.Piece)))
			}
			ew.printf("\n")
		}
		if line := phaseMixText(r.PhaseMix); line != "" {
			ew.printf("\n%s.\n", line)
		}
		for j := range r.Fits {
			f := &r.Fits[j]
			for _, n := range f.Notes {
				ew.printf("\nNote (%s fit): %s\n", f.Method, n)
			}
			if f.Advice != "" {
				ew.printf("\nWhat is missing (%s fit): %s\n", f.Method, f.Advice)
			}
		}
		for _, w := range r.Warnings {
			ew.printf("\n**Warning**: %s\n", w)
		}
		ew.printf("\n")
	}
	switch {
	case shown && withValues:
		ew.printf("![piece values](%s)\n", ValuesChartFile)
	case !shown:
		ew.printf("No variant has piece values in units of the unit piece, so there is no values chart.\n")
	}
	return ew.err
}

func fmtNum2(e Estimate) string {
	return fmt.Sprintf("%.2f [%.2f, %.2f]", e.Point, e.Lo, e.Hi)
}

func valueCell(e *Estimate) string {
	if e == nil {
		return "–"
	}
	return e.Format(2)
}
