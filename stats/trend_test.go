package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// A line the data lie on exactly (100,000 games a point, no draws) is
// found to a tenth of an Elo.
func TestFitTrendRecoversAnExactLine(t *testing.T) {
	for _, c := range []struct{ a, b float64 }{{-100, 50}, {200, -80}, {0, 0}, {-300, 150}} {
		var pts []TrendPoint
		for x := 0.0; x <= 4; x++ {
			const n = 100000
			w := int(math.Round(n * ScoreFromElo(c.a+c.b*x)))
			pts = append(pts, TrendPoint{X: x, Wins: w, Losses: n - w})
		}
		tr, err := FitTrend(pts)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(tr.Slope-c.b) > 0.1 || math.Abs(tr.Intercept-c.a) > 0.1 {
			t.Errorf("line %+v: fitted intercept %.3f, slope %.3f", c, tr.Intercept, tr.Slope)
		}
		if !(tr.SlopeLow < tr.Slope && tr.Slope < tr.SlopeHigh) || tr.SlopeHigh-tr.SlopeLow > 5 {
			t.Errorf("line %+v: interval [%.2f, %.2f] around %.2f, want a narrow one", c, tr.SlopeLow, tr.SlopeHigh, tr.Slope)
		}
		if tr.Games != 500000 {
			t.Errorf("games %d, want 500000", tr.Games)
		}
	}
}

// simulate plays games games at each x from a line of Elo with draws: a
// game is drawn with probability draw, and otherwise won with the
// probability that keeps the expected score on the line.
func simulate(rng *rand.Rand, a, b, draw float64, xs []float64, games int) []TrendPoint {
	var pts []TrendPoint
	for _, x := range xs {
		s := ScoreFromElo(a + b*x)
		// E[score] = pw + draw/2 = s, so pw = s - draw/2 (kept in [0, 1-draw]).
		pw := min(max(s-draw/2, 0), 1-draw)
		p := TrendPoint{X: x}
		for range games {
			switch u := rng.Float64(); {
			case u < pw:
				p.Wins++
			case u < pw+draw:
				p.Draws++
			default:
				p.Losses++
			}
		}
		pts = append(pts, p)
	}
	return pts
}

// The 95% interval covers the true slope about 95% of the time, with draws
// (which make each game less variable than a coin: the sandwich variance
// must see it) and without.
func TestFitTrendIntervalCoversTheTrueSlope(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 35))
	xs := []float64{0.5, 0.75, 1, 1.25, 1.5, 1.75}
	for _, draw := range []float64{0, 0.4} {
		const trials, a, b = 600, -150.0, 60.0
		covered := 0
		for range trials {
			tr, err := FitTrend(simulate(rng, a, b, draw, xs, 60))
			if err != nil {
				t.Fatal(err)
			}
			if tr.SlopeLow <= b && b <= tr.SlopeHigh {
				covered++
			}
		}
		// 600 trials at 0.95: a standard error of 0.009; allow four.
		if share := float64(covered) / trials; share < 0.91 || share > 0.99 {
			t.Errorf("draw rate %.1f: the interval covered the slope in %.3f of %d trials, want about 0.95", draw, share, trials)
		}
	}
}

func TestFitTrendSaysWhetherTheSlopeIsResolved(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, 1, 2, 3}
	for _, c := range []struct {
		b    float64
		want int
	}{{150, 1}, {-150, -1}, {0, 0}} {
		tr, err := FitTrend(simulate(rng, 0, c.b, 0.3, xs, 400))
		if err != nil {
			t.Fatal(err)
		}
		if got := tr.Resolved(); got != c.want {
			t.Errorf("true slope %v: fitted %.1f [%.1f, %.1f], Resolved %d, want %d", c.b, tr.Slope, tr.SlopeLow, tr.SlopeHigh, got, c.want)
		}
	}
}

func TestFitTrendRefusesDataThatFixNoSlope(t *testing.T) {
	for _, c := range []struct {
		name string
		pts  []TrendPoint
		want string
	}{
		{"no points", nil, "want two or more"},
		{"one point", []TrendPoint{{X: 1, Wins: 5, Losses: 5}, {X: 1, Wins: 2, Draws: 3}}, "want two or more"},
		{"a point without games", []TrendPoint{{X: 1, Wins: 5, Losses: 5}, {X: 2}}, "want two or more"},
		{"all won", []TrendPoint{{X: 0, Wins: 10}, {X: 1, Wins: 10}}, "stronger anchor"},
		{"all lost", []TrendPoint{{X: 0, Losses: 10}, {X: 1, Losses: 10}}, "weaker anchor"},
		{"separated", []TrendPoint{{X: 0, Losses: 10}, {X: 1, Losses: 10}, {X: 2, Wins: 10}}, "separated"},
		{"negative count", []TrendPoint{{X: 0, Wins: -1, Losses: 3}, {X: 1, Wins: 3}}, "counts >= 0"},
		{"NaN axis", []TrendPoint{{X: math.NaN(), Wins: 1, Losses: 3}, {X: 1, Wins: 3}}, "finite X"},
	} {
		tr, err := FitTrend(c.pts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %+v, %v: want an error saying %q", c.name, tr, err, c.want)
			continue
		}
		if !strings.Contains(c.want, "counts") && !strings.Contains(c.want, "finite") && !errors.Is(err, ErrNoTrend) {
			t.Errorf("%s: %v does not wrap ErrNoTrend", c.name, err)
		}
	}
}

// All draws: a score of one half everywhere, a flat line at 0 Elo whose
// interval is a point (no game differs from its expectation).
func TestFitTrendOfDrawsIsFlat(t *testing.T) {
	tr, err := FitTrend([]TrendPoint{{X: 0, Draws: 20}, {X: 1, Draws: 20}, {X: 2, Draws: 20}})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(tr.Slope) > 1e-9 || math.Abs(tr.Intercept) > 1e-9 || tr.Resolved() != 0 {
		t.Fatalf("all draws: %+v, want a flat line at 0, unresolved", tr)
	}
}

func FuzzFitTrendNeverReturnsNaN(f *testing.F) {
	f.Add(0.0, 3, 2, 1, 1.0, 1, 2, 3)
	f.Add(-5.0, 0, 0, 9, 5.0, 9, 0, 0)
	f.Fuzz(func(t *testing.T, x1 float64, w1, d1, l1 int, x2 float64, w2, d2, l2 int) {
		clamp := func(v int) int { return min(max(v, -1), 1000) }
		pts := []TrendPoint{{x1, clamp(w1), clamp(d1), clamp(l1)}, {x2, clamp(w2), clamp(d2), clamp(l2)}}
		tr, err := FitTrend(pts)
		if err != nil {
			return
		}
		for _, v := range []float64{tr.Intercept, tr.Slope, tr.SlopeLow, tr.SlopeHigh} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%+v: fitted %+v", pts, tr)
			}
		}
	})
}
