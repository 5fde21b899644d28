package plot

import (
	"fmt"
	"math"
	"sort"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"bomberzero/metrics"
)

// collect returns the points (generation, f(r)) of the records where f
// reports a finite value.
func collect(recs []metrics.Record, f func(r *metrics.Record) (float64, bool)) plotter.XYs {
	var xy plotter.XYs
	for i := range recs {
		y, ok := f(&recs[i])
		if ok && !math.IsNaN(y) && !math.IsInf(y, 0) {
			xy = append(xy, plotter.XY{X: float64(recs[i].Generation), Y: y})
		}
	}
	return xy
}

func trainField(get func(t *metrics.Train) float64) func(r *metrics.Record) (float64, bool) {
	return func(r *metrics.Record) (float64, bool) {
		if r.Train == nil {
			return 0, false
		}
		return get(r.Train), true
	}
}

func selfPlayField(get func(s *metrics.SelfPlay) (float64, bool)) func(r *metrics.Record) (float64, bool) {
	return func(r *metrics.Record) (float64, bool) {
		if r.SelfPlay == nil {
			return 0, false
		}
		return get(r.SelfPlay)
	}
}

func lossesPlot(recs []metrics.Record) *gplot.Plot {
	return linePlot("Training losses", "generation", "loss (mean over the generation's steps)",
		series{"policy", collect(recs, trainField(func(t *metrics.Train) float64 { return t.PolicyLoss }))},
		series{"value", collect(recs, trainField(func(t *metrics.Train) float64 { return t.ValueLoss }))},
		series{"total", collect(recs, trainField(func(t *metrics.Train) float64 { return t.Loss }))})
}

func accuracyPlot(recs []metrics.Record) *gplot.Plot {
	return linePlot("Policy accuracy (network's top move = search's top move)", "generation", "share of positions",
		series{"policy accuracy", collect(recs, trainField(func(t *metrics.Train) float64 { return t.PolicyAccuracy }))})
}

func valueErrorPlot(recs []metrics.Record) *gplot.Plot {
	return linePlot("Value error (mean squared, against the game result)", "generation", "MSE",
		series{"value error", collect(recs, trainField(func(t *metrics.Train) float64 { return t.ValueError }))})
}

// speedPlot draws games per hour. Generation 0's games are the teacher's,
// far faster than self-play: once a later generation has played, they are
// left out (the title says so) so that they do not flatten the line.
func speedPlot(recs []metrics.Record) *gplot.Plot {
	xy := collect(recs, selfPlayField(func(s *metrics.SelfPlay) (float64, bool) { return s.GamesPerHour, s.Games > 0 }))
	title := "Self-play speed"
	if len(xy) > 1 && xy[0].X == 0 {
		title += fmt.Sprintf(" (generation 0, the teacher's %.0f games/hour, left out)", xy[0].Y)
		xy = xy[1:]
	}
	return linePlot(title, "generation", "games per hour", series{"games/hour", xy})
}

func lengthPlot(recs []metrics.Record) *gplot.Plot {
	return linePlot("Self-play game length", "generation", "mean plies",
		series{"mean length", collect(recs, selfPlayField(func(s *metrics.SelfPlay) (float64, bool) { return s.MeanPlies, s.Games > 0 }))})
}

func wdlPlot(recs []metrics.Record) *gplot.Plot {
	share := func(pick func(s *metrics.SelfPlay) int) func(r *metrics.Record) (float64, bool) {
		return selfPlayField(func(s *metrics.SelfPlay) (float64, bool) {
			n := s.WhiteWins + s.Draws + s.BlackWins
			return float64(pick(s)) / float64(n), n > 0
		})
	}
	return linePlot("Self-play results per generation", "generation", "share of games",
		series{"White wins", collect(recs, share(func(s *metrics.SelfPlay) int { return s.WhiteWins }))},
		series{"draws", collect(recs, share(func(s *metrics.SelfPlay) int { return s.Draws }))},
		series{"Black wins", collect(recs, share(func(s *metrics.SelfPlay) int { return s.BlackWins }))})
}

// eloPoints are ratings with their intervals, for error bars.
type eloPoints struct {
	plotter.XYs
	plotter.YErrors
}

// eloPlot draws each generation's model rating (with its 95% interval)
// against working hours, and the latest rating of every other ladder player
// (the fixed baselines) as a dashed level.
func eloPlot(recs []metrics.Record) *gplot.Plot {
	var pts eloPoints
	models := map[string]bool{}
	for i := range recs {
		r := &recs[i]
		models[r.Model] = true
		x, ok := r.Rating(r.Model)
		if r.Model == "" || !ok || math.IsNaN(x.Elo) {
			continue
		}
		pts.XYs = append(pts.XYs, plotter.XY{X: r.Elapsed / 3600, Y: x.Elo})
		pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{x.Elo - x.Low, x.High - x.Elo})
	}
	p := linePlot("Elo against time (ladder anchored at random = 0, 95% intervals)", "working hours", "Elo",
		series{"model", pts.XYs})
	if len(pts.XYs) > 0 {
		if eb, err := plotter.NewYErrorBars(pts); err == nil {
			eb.Color = palette[0]
			p.Add(eb)
		}
	}
	// Baselines: the non-model players of the latest record with a ladder.
	for i := len(recs) - 1; i >= 0; i-- {
		if len(recs[i].Ladder) == 0 {
			continue
		}
		base := append([]metrics.Rating(nil), recs[i].Ladder...)
		sort.Slice(base, func(a, b int) bool { return base[a].Elo < base[b].Elo })
		k := 1
		for _, b := range base {
			if models[b.Player] || math.IsNaN(b.Elo) {
				continue
			}
			lo, hi := 0.0, recs[len(recs)-1].Elapsed/3600
			if len(pts.XYs) > 0 {
				lo, hi = pts.XYs[0].X, pts.XYs[len(pts.XYs)-1].X
			}
			if hi <= lo {
				hi = lo + 1
			}
			l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: b.Elo}, {X: hi, Y: b.Elo}})
			if err != nil {
				continue
			}
			l.Color = palette[k%len(palette)]
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			k++
			p.Add(l)
			p.Legend.Add(b.Player, l)
		}
		break
	}
	return p
}

// scoresPlot draws, per generation, the new model's score in each of its
// matches: one line per fixed opponent, and one for the previous model
// (any opponent that was itself a generation's model).
func scoresPlot(recs []metrics.Record) *gplot.Plot {
	models := map[string]bool{}
	for i := range recs {
		models[recs[i].Model] = true
	}
	lines := map[string]plotter.XYs{}
	var order []string
	for i := range recs {
		r := &recs[i]
		for _, m := range r.Matches {
			if m.A != r.Model || r.Model == "" {
				continue
			}
			name := m.B
			if models[name] {
				name = "previous model"
			}
			if _, ok := lines[name]; !ok {
				order = append(order, name)
			}
			if n := m.Wins + m.Draws + m.Losses; n > 0 {
				lines[name] = append(lines[name], plotter.XY{X: float64(r.Generation), Y: (float64(m.Wins) + float64(m.Draws)/2) / float64(n)})
			}
		}
	}
	ss := make([]series, len(order))
	for i, name := range order {
		ss[i] = series{"vs " + name, lines[name]}
	}
	return linePlot("The new model's match scores", "generation", "score (draws half)", ss...)
}
