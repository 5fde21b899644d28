// Package plot draws a training run's metrics.jsonl as PNG or SVG charts:
// losses, policy accuracy, value error, Elo against time, self-play speed,
// game length and self-play results per generation. It reads the records of
// package metrics and nothing else, so it works on a run that is still going.
package plot

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"bomberzero/internal/atomicfile"
	"bomberzero/metrics"
)

// Names lists the plots Write draws, each written to DIR/NAME.FORMAT.
var Names = []string{"losses", "policy_accuracy", "value_error", "elo", "match_scores", "games_per_hour", "game_length", "wdl"}

// Formats are the file formats Write accepts.
var Formats = []string{"png", "svg"}

// Size is the size of every plot.
const (
	Width  = 8 * vg.Inch
	Height = 5 * vg.Inch
)

// Write draws every plot of Names from recs into dir (created if needed) in
// format ("png" or "svg") and returns the paths written. Each file is written
// to a temporary name, synced and renamed, so a reader never sees half a
// plot. A plot whose data no record has yet is drawn empty, titled so.
func Write(dir string, recs []metrics.Record, format string) ([]string, error) {
	if format != "png" && format != "svg" {
		return nil, fmt.Errorf("plot: format %q, want png or svg", format)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("plot: %w", err)
	}
	var paths []string
	for _, name := range Names {
		p := build(name, recs)
		path := filepath.Join(dir, name+"."+format)
		if err := save(p, path, format); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// builders draw each plot of Names.
var builders = map[string]func([]metrics.Record) *gplot.Plot{
	"losses":          lossesPlot,
	"policy_accuracy": accuracyPlot,
	"value_error":     valueErrorPlot,
	"elo":             eloPlot,
	"match_scores":    scoresPlot,
	"games_per_hour":  speedPlot,
	"game_length":     lengthPlot,
	"wdl":             wdlPlot,
}

// build returns the plot name of Names drawn from recs, its axes drawable.
func build(name string, recs []metrics.Record) *gplot.Plot {
	p := builders[name](recs)
	widen(&p.X.Min, &p.X.Max)
	widen(&p.Y.Min, &p.Y.Max)
	return p
}

// widen makes an axis range one the plotting library can draw: finite, and
// wide enough that its ends differ in floating point (a single point at a
// huge value, such as an elapsed time of 1e20 s, has no width otherwise).
func widen(lo, hi *float64) {
	if math.IsNaN(*lo) || math.IsInf(*lo, 0) || math.IsNaN(*hi) || math.IsInf(*hi, 0) {
		*lo, *hi = 0, 1
	}
	if *hi-*lo > math.Max(math.Abs(*lo), math.Abs(*hi))*1e-9 {
		return
	}
	mid := *lo/2 + *hi/2
	d := math.Max(1, math.Abs(mid)*1e-3)
	*lo, *hi = mid-d, mid+d
}

// save writes p to path atomically.
func save(p *gplot.Plot, path, format string) (err error) {
	defer func() { // the plotting library panics on data it cannot lay out
		if v := recover(); v != nil {
			err = fmt.Errorf("plot: %s: cannot draw these values: %v", path, v)
		}
	}()
	wt, err := draw.NewFormattedCanvas(Width, Height, format)
	if err != nil {
		return fmt.Errorf("plot: %s: %w", path, err)
	}
	render(p, draw.New(wt))
	if err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	}); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// series is one named line of a plot.
type series struct {
	name string
	xy   plotter.XYs
}

// palette colours the lines of one plot: Okabe and Ito's palette, told apart
// by readers with any common colour-vision deficiency, darkest first (its
// yellow, faint on white, last). Each line also has its own point shape.
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{0, 0, 0, 255},       // black
	color.RGBA{240, 228, 66, 255},  // yellow
}

// Colour returns the k-th colour of the project's charts (Okabe and Ito's
// palette, cycling), so that charts drawn outside this package share their
// look.
func Colour(k int) color.Color { return palette[k%len(palette)] }

// glyphs are the point shapes of a plot's lines, in palette order.
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

// render draws p on c with its legend in a column right of the plot, never
// over the data: the plot is drawn in what is left of c.
func render(p *gplot.Plot, c draw.Canvas) {
	area, legendArea := layout(p, c)
	legend := p.Legend
	p.Legend = gplot.NewLegend() // drawn below, outside the plot
	p.Draw(area)
	p.Legend = legend
	if legendArea.Max.X > legendArea.Min.X {
		legend.Top, legend.Left = true, true
		legend.Draw(legendArea)
	}
}

// layout splits c into the plot's area and, right of it, the legend's
// column (empty when the legend has no entry), the column starting below
// the title so that the legend's first entry sits level with the data.
func layout(p *gplot.Plot, c draw.Canvas) (area, legend draw.Canvas) {
	r := p.Legend.Rectangle(c)
	w := r.Max.X - r.Min.X
	if w <= 0 {
		return c, draw.Crop(c, c.Max.X-c.Min.X, 0, 0, 0)
	}
	gap := vg.Points(12)
	area = draw.Crop(c, 0, -(w + 2*gap), 0, 0)
	top := vg.Length(0)
	if p.Title.Text != "" {
		top = p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	}
	legend = draw.Crop(c, area.Max.X-c.Min.X+gap, -gap, 0, -top-gap)
	return area, legend
}

// linePlot draws the series as lines with points; a plot without any point
// says so in its title.
func linePlot(title, x, y string, ss ...series) *gplot.Plot {
	p := gplot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	points := 0
	for i, s := range ss {
		if len(s.xy) == 0 {
			continue
		}
		points += len(s.xy)
		l, sc, err := plotter.NewLinePoints(s.xy)
		if err != nil { // only for NaN or infinite values, which callers drop
			continue
		}
		c := palette[i%len(palette)]
		l.Color, sc.Color = c, c
		sc.Shape = glyphs[i%len(glyphs)]
		sc.Radius = vg.Points(2)
		p.Add(l, sc)
		p.Legend.Add(s.name, l, sc)
	}
	if points == 0 {
		p.Title.Text += " (no data yet)"
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	}
	return p
}
