package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestScoreIntervalIsWilsonWithoutDrawsAndNarrowerWithThem(t *testing.T) {
	for _, c := range []struct{ w, l int }{{30, 70}, {1, 9}, {50, 50}} {
		lo, hi := ScoreInterval(c.w, 0, c.l)
		wlo, whi := Wilson(float64(c.w), float64(c.w+c.l))
		if !near(lo, wlo, 1e-12) || !near(hi, whi, 1e-12) {
			t.Errorf("W%d L%d: [%g, %g], Wilson [%g, %g]; want equal", c.w, c.l, lo, hi, wlo, whi)
		}
	}
	_, whi := Wilson(30, 100)
	wlo, _ := Wilson(30, 100)
	lo, hi := ScoreInterval(10, 40, 50) // score 0.3 too, less variable
	if Score(10, 40, 50) != 0.3 || hi-lo >= whi-wlo || !(lo < 0.3 && 0.3 < hi) {
		t.Errorf("with draws: [%g, %g]; want around 0.3 and narrower than [%g, %g]", lo, hi, wlo, whi)
	}
}

func TestScoreIntervalNeverCollapsesAndStaysInTheUnitInterval(t *testing.T) {
	for _, c := range []struct{ w, d, l int }{{0, 0, 0}, {10, 0, 0}, {0, 20, 0}, {0, 0, 7}, {1, 0, 0}, {999, 1, 0}} {
		lo, hi := ScoreInterval(c.w, c.d, c.l)
		s := Score(c.w, c.d, c.l)
		if !(0 <= lo && lo <= s && s <= hi && hi <= 1 && hi > lo) {
			t.Errorf("W%d D%d L%d: score %g in [%g, %g]; want a proper interval inside [0, 1] around it", c.w, c.d, c.l, s, lo, hi)
		}
	}
}

// TestScoreIntervalCoversTheTrueScore draws matches from known W/D/L
// probabilities: the interval must hold the true expected score about 95%
// of the time.
func TestScoreIntervalCoversTheTrueScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for _, c := range []struct {
		pw, pd float64
		n      int
	}{{0.45, 0.1, 100}, {0.3, 0.4, 60}, {0.8, 0.15, 40}} {
		truth := c.pw + c.pd/2
		covered := 0
		const trials = 2000
		for range trials {
			var w, d, l int
			for range c.n {
				switch u := rng.Float64(); {
				case u < c.pw:
					w++
				case u < c.pw+c.pd:
					d++
				default:
					l++
				}
			}
			if lo, hi := ScoreInterval(w, d, l); lo <= truth && truth <= hi {
				covered++
			}
		}
		if rate := float64(covered) / trials; rate < 0.925 || rate > 0.98 {
			t.Errorf("pw %g pd %g n %d: coverage %.3f, want about 0.95", c.pw, c.pd, c.n, rate)
		}
	}
}

func TestScoreVarianceIsTheTrinomialVariance(t *testing.T) {
	// W3 D2 L5: s = 0.4; squared deviations 3·0.36 + 2·0.01 + 5·0.16 = 1.9,
	// over 10 games 0.19.
	if v := ScoreVariance(3, 2, 5); !near(v, 0.19, 1e-12) {
		t.Errorf("ScoreVariance(3, 2, 5) = %g, want 0.19", v)
	}
	if v := ScoreVariance(0, 0, 0); v != 0 || math.IsNaN(v) {
		t.Errorf("no games: %g, want 0", v)
	}
}
