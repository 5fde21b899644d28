package stats

import (
	"errors"
	"fmt"
	"math"
)

// TrendPoint is one model's match against a fixed anchor: where the model
// stands on the trend's axis (hours of training, say) and its W/D/L.
type TrendPoint struct {
	X                   float64
	Wins, Draws, Losses int
}

// Trend is the straight line through a series of models' strength against
// one anchor: Elo(x) = Intercept + Slope × x, in Elo against the anchor.
type Trend struct {
	Intercept float64 `json:"intercept_elo"`
	Slope     float64 `json:"slope_elo"`
	// SlopeLow and SlopeHigh bound the slope's 95% interval.
	SlopeLow  float64 `json:"slope_low"`
	SlopeHigh float64 `json:"slope_high"`
	Games     int     `json:"games"`
}

// Resolved says whether the slope's 95% interval excludes 0, and which
// way: +1 rising, -1 falling, 0 not resolved.
func (t Trend) Resolved() int {
	switch {
	case t.SlopeLow > 0:
		return 1
	case t.SlopeHigh < 0:
		return -1
	}
	return 0
}

// ErrNoTrend is wrapped by FitTrend's errors for data that fix no slope.
var ErrNoTrend = errors.New("no trend can be fitted")

// trendEloCap bounds the fitted line over the data: a line that leaves
// ±trendEloCap at a point's X says the scores are separated (every game
// lost below some X and won above it), where the fit runs off to infinity.
const trendEloCap = 1200

// eloPerLogit converts a logit of the score into Elo: score =
// 1/(1+10^(-Elo/400)) is σ(Elo × ln 10 / 400).
var eloPerLogit = 400 / math.Ln10

// FitTrend fits the line through points by the Bernoulli quasi-likelihood
// of each game's score (1, ½, 0) under score = ScoreFromElo(a + b × X),
// the fractional logit that values' tanh fit uses, which takes draws as
// half points without a model of them. The slope's 95% interval is Wald's
// with the sandwich (robust) variance: games are independent, but a draw
// is less variable than the Bernoulli variance says. It needs two distinct
// X and a score strictly between 0 and 1 overall; a line the data run off
// to ±1200 Elo over their X (separated scores) is refused too, naming
// what to change.
func FitTrend(points []TrendPoint) (Trend, error) {
	var n, sx, w, d float64
	xs := map[float64]bool{}
	minX, maxX := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		if p.Wins < 0 || p.Draws < 0 || p.Losses < 0 || math.IsNaN(p.X) || math.IsInf(p.X, 0) {
			return Trend{}, fmt.Errorf("stats: trend point %+v: want counts >= 0 and a finite X", p)
		}
		g := float64(p.Wins + p.Draws + p.Losses)
		if g == 0 {
			continue
		}
		n, sx, w, d = n+g, sx+g*p.X, w+float64(p.Wins), d+float64(p.Draws)
		xs[p.X] = true
		minX, maxX = min(minX, p.X), max(maxX, p.X)
	}
	switch {
	case len(xs) < 2:
		return Trend{}, fmt.Errorf("stats: %w: games at %d point(s) of the axis, want two or more", ErrNoTrend, len(xs))
	case w == n:
		return Trend{}, fmt.Errorf("stats: %w: every one of %.0f games won; a stronger anchor measures a trend", ErrNoTrend, n)
	case w+d == 0:
		return Trend{}, fmt.Errorf("stats: %w: every one of %.0f games lost; a weaker anchor measures a trend", ErrNoTrend, n)
	}
	// Centre X so that the two coefficients are nearly uncorrelated and
	// Newton's steps well scaled.
	mx := sx / n
	mean := (w + d/2) / n
	a, b := math.Log(mean/(1-mean)), 0.0
	lo, hi := minX-mx, maxX-mx
	capLogit := trendEloCap / eloPerLogit
	for iter := 0; ; iter++ {
		var g0, g1, h00, h01, h11 float64
		eachPoint(points, mx, a, b, func(p TrendPoint, cnt, x, q float64) {
			y := (float64(p.Wins) + float64(p.Draws)/2) / cnt
			r, v := cnt*(y-q), cnt*q*(1-q)
			g0, g1 = g0+r, g1+r*x
			h00, h01, h11 = h00+v, h01+v*x, h11+v*x*x
		})
		det := h00*h11 - h01*h01
		if det <= 0 || math.IsNaN(det) {
			return Trend{}, fmt.Errorf("stats: %w: the scores are separated along the axis (all lost below some point, all won above it); more games a point or a closer anchor", ErrNoTrend)
		}
		da, db := (h11*g0-h01*g1)/det, (h00*g1-h01*g0)/det
		a, b = a+da, b+db
		if math.Max(math.Abs(a+b*lo), math.Abs(a+b*hi)) > capLogit {
			return Trend{}, fmt.Errorf("stats: %w: the scores are separated along the axis (the line leaves ±%d Elo); more games a point or a closer anchor", ErrNoTrend, trendEloCap)
		}
		if math.Abs(da)+math.Abs(db)*math.Max(math.Abs(lo), math.Abs(hi)) < 1e-10 || iter == 100 {
			break
		}
	}
	// Sandwich variance of b: A⁻¹ B A⁻¹, A the expected information and B
	// the sum of each game's squared score residual times x xᵀ.
	var a00, a01, a11, b00, b01, b11 float64
	eachPoint(points, mx, a, b, func(p TrendPoint, cnt, x, q float64) {
		v := cnt * q * (1 - q)
		a00, a01, a11 = a00+v, a01+v*x, a11+v*x*x
		ss := float64(p.Wins)*(1-q)*(1-q) + float64(p.Draws)*(0.5-q)*(0.5-q) + float64(p.Losses)*q*q
		b00, b01, b11 = b00+ss, b01+ss*x, b11+ss*x*x
	})
	det := a00*a11 - a01*a01
	// Row 1 of A⁻¹ is (−a01, a00)/det; Var(b) = r B rᵀ.
	r0, r1 := -a01/det, a00/det
	varB := r0*r0*b00 + 2*r0*r1*b01 + r1*r1*b11
	se := math.Sqrt(max(varB, 0))
	t := Trend{
		Intercept: (a - b*mx) * eloPerLogit,
		Slope:     b * eloPerLogit,
		SlopeLow:  (b - 1.959964*se) * eloPerLogit,
		SlopeHigh: (b + 1.959964*se) * eloPerLogit,
		Games:     int(n),
	}
	return t, nil
}

// eachPoint calls f for each point with games: its games, its X less mx
// and the expected score σ(a + b × (X − mx)) there.
func eachPoint(points []TrendPoint, mx, a, b float64, f func(p TrendPoint, cnt, x, q float64)) {
	for _, p := range points {
		cnt := float64(p.Wins + p.Draws + p.Losses)
		if cnt == 0 {
			continue
		}
		x := p.X - mx
		f(p, cnt, x, 1/(1+math.Exp(-(a+b*x))))
	}
}
