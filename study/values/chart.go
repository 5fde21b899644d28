package values

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"bomberzero/internal/atomicfile"
	charts "bomberzero/metrics/plot"
)

// BarChart is a grouped bar chart with 95% error bars: one group of bars
// per category, one bar per series. It draws piece values (categories are
// pieces, series are fits or variants) and compared rates alike.
type BarChart struct {
	Title      string
	YLabel     string
	Categories []string
	Series     []BarSeries
}

// BarSeries is one colour of bars: an estimate per category, nil where the
// series has none (no bar is drawn there).
type BarSeries struct {
	Name string
	Bars []*Estimate
}

// Save draws the chart to path as PNG or SVG, chosen by the extension, and
// writes it atomically. An unbounded interval's error bar is clipped at the
// edge of the other bars' range, and the title says so.
func (c *BarChart) Save(path string) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "png" && format != "svg" {
		return fmt.Errorf("values: chart %s: want a .png or .svg file name", path)
	}
	p, width, err := c.plot()
	if err != nil {
		return fmt.Errorf("values: chart %s: %w", path, err)
	}
	wt, err := p.WriterTo(width, 4*vg.Inch, format)
	if err != nil {
		return fmt.Errorf("values: chart %s: %w", path, err)
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}

// plot builds the gonum plot and returns it with the canvas width to draw
// it at.
func (c *BarChart) plot() (*plot.Plot, vg.Length, error) {
	n, s := len(c.Categories), len(c.Series)
	if n == 0 || s == 0 {
		return nil, 0, fmt.Errorf("nothing to draw (%d categories, %d series)", n, s)
	}
	// The finite range of all bars and bounds, to clip unbounded ones.
	lo, hi := 0.0, 0.0
	for _, se := range c.Series {
		if len(se.Bars) != n {
			return nil, 0, fmt.Errorf("series %q has %d bars for %d categories", se.Name, len(se.Bars), n)
		}
		for _, e := range se.Bars {
			if e == nil {
				continue
			}
			for _, x := range []float64{e.Point, e.Lo, e.Hi} {
				if !math.IsInf(x, 0) && !math.IsNaN(x) {
					lo, hi = min(lo, x), max(hi, x)
				}
			}
		}
	}
	pad := 0.1 * (hi - lo)
	if pad == 0 {
		pad = 1
	}
	lo, hi = lo-pad, hi+pad
	clipped := false

	p := plot.New()
	p.Title.Text = c.Title
	p.Y.Label.Text = c.YLabel
	p.NominalX(c.Categories...)
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.Legend.Top = true
	width := max(5*vg.Inch, vg.Length(n*s)*0.45*vg.Inch+1.5*vg.Inch)
	dataUnit := (width - 1.2*vg.Inch) / vg.Length(n) // canvas length of one category
	group := 0.8                                     // share of a category the bars fill
	barWidth := dataUnit * vg.Length(group/float64(s))
	for si, se := range c.Series {
		col := charts.Colour(si)
		legend := false
		for ci, e := range se.Bars {
			if e == nil {
				continue
			}
			x := float64(ci) + (float64(si)-float64(s-1)/2)*group/float64(s)
			bar, err := plotter.NewBarChart(plotter.Values{e.Point}, barWidth)
			if err != nil {
				return nil, 0, err
			}
			bar.XMin, bar.Color = x, col
			bar.LineStyle.Width = 0
			p.Add(bar)
			if !legend && se.Name != "" {
				p.Legend.Add(se.Name, bar)
				legend = true
			}
			elo, ehi := e.Lo, e.Hi
			if math.IsInf(elo, 0) || math.IsInf(ehi, 0) {
				clipped = true
			}
			elo, ehi = max(elo, lo), min(ehi, hi)
			errBar, err := plotter.NewYErrorBars(errPoint{x: x, y: e.Point, low: e.Point - elo, high: ehi - e.Point})
			if err != nil {
				return nil, 0, err
			}
			p.Add(errBar)
		}
	}
	if clipped {
		p.Title.Text += " (unbounded intervals clipped)"
	}
	return p, width, nil
}

// errPoint is one error bar for plotter.NewYErrorBars.
type errPoint struct{ x, y, low, high float64 }

func (e errPoint) Len() int                      { return 1 }
func (e errPoint) XY(int) (float64, float64)     { return e.x, e.y }
func (e errPoint) YError(int) (float64, float64) { return math.Abs(e.low), math.Abs(e.high) }

// ValuesChart returns the bar chart of a report's normalised piece values,
// one series per fit that has them.
func (r *Report) ValuesChart() *BarChart {
	c := &BarChart{Title: "Piece values (95% bootstrap intervals)", YLabel: "value in units of " + r.Unit}
	if len(r.Variants) > 0 {
		c.Title = strings.Join(r.Variants, ", ") + ": " + c.Title
	}
	c.Categories = r.Pieces
	for _, f := range r.Fits {
		if !f.Normalised {
			continue
		}
		se := BarSeries{Name: string(f.Method)}
		for _, pv := range f.Pieces {
			se.Bars = append(se.Bars, pv.Value)
		}
		c.Series = append(c.Series, se)
	}
	return c
}
