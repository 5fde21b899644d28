package compare

import (
	"fmt"
	"io"
	"math"

	"bomberzero/study/values"
)

// Decomposition is one primary figure over the model × rules grid of the
// rule-effect games: each cell's value, each pair of rule sets' difference
// averaged over the models (the rules' effect with the network held
// fixed) and each pair of models' difference averaged over the rule sets
// (the networks' effect with the rules held fixed). Intervals are normal.
// Every cell's games are played with the same seeds from the same
// openings, game i of each alike, so an averaged effect is taken pair by
// pair: its variance is that of the per-pair contrast, which leaves out
// what a pair's games share. Cells whose games do not pair (one missing)
// are taken as independent samples, from each cell's own variance.
type Decomposition struct {
	Figure string   `json:"figure"`
	Models []string `json:"models"` // "<variant> model"
	Rules  []string `json:"rules"`
	// Cells[m][r] is model m's figure on rules r.
	Cells          [][]values.Estimate `json:"cells"`
	RuleEffects    []PooledEffect      `json:"rule_effects"`    // B rules − A rules, mean over models
	NetworkEffects []PooledEffect      `json:"network_effects"` // B model − A model, mean over rule sets
}

// PooledEffect is a difference B − A averaged over the other factor.
type PooledEffect struct {
	A    string          `json:"a"`
	B    string          `json:"b"`
	Diff values.Estimate `json:"diff"`
	// WithinNoise is true when the 95% interval holds 0 (no correction
	// for the several figures and pairs).
	WithinNoise bool `json:"within_noise"`
}

// decompositionFigures are the primary endpoints, each as a per-game value.
var decompositionFigures = []struct {
	name  string
	value func(g *values.Game) float64
}{
	{"White's score", func(g *values.Game) float64 { return (float64(g.Result) + 1) / 2 }},
	{"draw rate", func(g *values.Game) float64 {
		if g.Result == 0 {
			return 1
		}
		return 0
	}},
	{"mean length (plies)", func(g *values.Game) float64 { return float64(g.Length) }},
}

// moments is a cell's mean and the variance of that mean.
type moments struct{ mean, varMean float64 }

// cell is one cell of the grid: its moments and, where its games are one
// of each pair 0 to n-1, each pair's value in pair order.
type cell struct {
	moments
	byPair []float64
}

// cellOf measures a figure over ds's games.
func cellOf(ds *values.Dataset, value func(*values.Game) float64) cell {
	c := cell{moments: momentsOf(ds, value)}
	n := len(ds.Games)
	places, err := values.PairPlaces(n, n, func(k int) int { return ds.Games[k].Index }, func(int) string { return "" })
	if err != nil {
		return c // not one game of each pair: an independent sample
	}
	c.byPair = make([]float64, n)
	for i, k := range places { // n games in n pairs, none twice: every pair has its game
		c.byPair[i] = value(&ds.Games[k])
	}
	return c
}

func momentsOf(ds *values.Dataset, value func(*values.Game) float64) moments {
	xs := make([]float64, len(ds.Games))
	for i := range ds.Games {
		xs[i] = value(&ds.Games[i])
	}
	return sampleMoments(xs)
}

// sampleMoments is the mean of xs and the variance of that mean (from the
// sample variance).
func sampleMoments(xs []float64) moments {
	n := float64(len(xs))
	if n == 0 {
		return moments{math.NaN(), math.NaN()}
	}
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	mean := sum / n
	v := sq/n - mean*mean
	if n > 1 {
		v *= n / (n - 1)
	}
	return moments{mean, math.Max(v, 0) / n}
}

// estimate is the mean of ds with its 95% normal interval.
func (m moments) estimate() values.Estimate {
	h := 1.96 * math.Sqrt(m.varMean)
	return values.Estimate{Point: m.mean, Lo: m.mean - h, Hi: m.mean + h}
}

// pooled is the mean over k of the differences b[k] − a[k] with its 95%
// interval: from the per-pair contrasts (1/K)·Σ_k (b_k − a_k) when every
// cell pairs with the others, otherwise from the cells' own variances as
// independent samples.
func pooled(a, b []cell) values.Estimate {
	if contrast := pairContrast(a, b); contrast != nil {
		return sampleMoments(contrast).estimate()
	}
	var d, v float64
	for k := range a {
		d += b[k].mean - a[k].mean
		v += a[k].varMean + b[k].varMean
	}
	n := float64(len(a))
	return moments{d / n, v / (n * n)}.estimate()
}

// pairContrast returns, pair by pair, the mean over k of b[k] − a[k], or
// nil when some cell does not hold one game of every pair of the same
// number of pairs.
func pairContrast(a, b []cell) []float64 {
	if len(a) == 0 || a[0].byPair == nil {
		return nil
	}
	n := len(a[0].byPair)
	for _, cs := range [][]cell{a, b} {
		for _, c := range cs {
			if c.byPair == nil || len(c.byPair) != n {
				return nil
			}
		}
	}
	out := make([]float64, n)
	for j := range out {
		for k := range a {
			out[j] += b[k].byPair[j] - a[k].byPair[j]
		}
		out[j] /= float64(len(a))
	}
	return out
}

// decompose builds the decomposition of every primary figure from the rule
// effects' games (effects[m].games[r]: model m on rules r).
func decompose(rules []string, effects []RuleEffect) []Decomposition {
	if len(effects) < 2 || len(effects) != len(rules) {
		return nil
	}
	models := modelLabels(effects)
	var out []Decomposition
	for _, f := range decompositionFigures {
		grid := make([][]cell, len(models))
		d := Decomposition{Figure: f.name, Models: models, Rules: rules, Cells: make([][]values.Estimate, len(models))}
		for m, e := range effects {
			for r := range rules {
				grid[m] = append(grid[m], cellOf(e.games[r], f.value))
				d.Cells[m] = append(d.Cells[m], grid[m][r].estimate())
			}
		}
		column := func(r int) []cell {
			var c []cell
			for m := range grid {
				c = append(c, grid[m][r])
			}
			return c
		}
		for a := range rules {
			for b := a + 1; b < len(rules); b++ {
				e := pooled(column(a), column(b))
				d.RuleEffects = append(d.RuleEffects, PooledEffect{A: rules[a], B: rules[b], Diff: e, WithinNoise: e.Contains(0)})
			}
		}
		for a := range models {
			for b := a + 1; b < len(models); b++ {
				e := pooled(grid[a], grid[b])
				d.NetworkEffects = append(d.NetworkEffects, PooledEffect{A: models[a], B: models[b], Diff: e, WithinNoise: e.Contains(0)})
			}
		}
		out = append(out, d)
	}
	return out
}

// writeDecomposition adds the model × rules grids and the averaged effects
// to the report.
func writeDecomposition(w io.Writer, res *Result) {
	if len(res.Decomposition) == 0 {
		return
	}
	fmt.Fprintf(w, "\nThe grid of model × rules, and each effect averaged over the other factor (normal 95%% intervals, taken pair by pair where the cells' games pair, no correction for the several figures):\n\n")
	for _, d := range res.Decomposition {
		digits := 3
		if d.Figure == "mean length (plies)" {
			digits = 1
		}
		fmt.Fprintf(w, "| %s | ", d.Figure)
		for _, r := range d.Rules {
			fmt.Fprintf(w, "on %s | ", r)
		}
		fmt.Fprintf(w, "\n|---|")
		for range d.Rules {
			fmt.Fprintf(w, "---|")
		}
		fmt.Fprintln(w)
		for m, row := range d.Cells {
			fmt.Fprintf(w, "| %s |", d.Models[m])
			for _, c := range row {
				fmt.Fprintf(w, " %s |", fmtEst(c, digits))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
		for _, e := range d.RuleEffects {
			fmt.Fprintf(w, "- the rules' effect, %s − %s, mean over the models: %s%s\n", e.B, e.A, fmtEst(e.Diff, digits), noiseText(e.WithinNoise))
		}
		for _, e := range d.NetworkEffects {
			fmt.Fprintf(w, "- the networks' effect, %s − %s, mean over the rule sets: %s%s\n", e.B, e.A, fmtEst(e.Diff, digits), noiseText(e.WithinNoise))
		}
		fmt.Fprintln(w)
	}
}

func noiseText(within bool) string {
	if within {
		return " (within noise)"
	}
	return ""
}
