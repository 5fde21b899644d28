package match

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestEloOfASixtyPercentScoreIsSeventyPointFour(t *testing.T) {
	// Hand-computed: -400 log10(1/0.6 - 1) = 400 log10(1.5) = 70.4365.
	if e := EloFromScore(0.6); !near(e, 70.43650362, 1e-6) {
		t.Fatalf("EloFromScore(0.6) = %.8f, want 70.43650362", e)
	}
	for _, elo := range []float64{-800, -70.4365, 0, 1, 35, 400, 1500} {
		if back := EloFromScore(ScoreFromElo(elo)); !near(back, elo, 1e-7) {
			t.Errorf("Elo %g -> score -> %g", elo, back)
		}
	}
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Error("a perfect score must be an infinite Elo")
	}
	if s := ScoreFromElo(400); !near(s, 10.0/11, 1e-12) {
		t.Errorf("ScoreFromElo(400) = %g, want 10/11", s)
	}
}

func TestEstimateMatchesHandComputedIntervals(t *testing.T) {
	cases := []struct {
		w, d, l                        int
		score, elo, low, high, los, dr float64
	}{
		// W60 L40: var = (60*0.16 + 40*0.36)/100 = 0.24, se = 0.04899,
		// score 0.6 +- 0.09602 -> Elo [2.7669, 143.9092]; LOS = Phi(20/sqrt(100)) = Phi(2).
		{60, 0, 40, 0.6, 70.43650, 2.76687, 143.90923, 0.97724987, 0},
		// W30 D40 L30: var = 0.15, score 0.5 +- 0.07591 -> Elo +-53.1580, LOS 0.5.
		{30, 40, 30, 0.5, 0, -53.15798, 53.15798, 0.5, 0.4},
	}
	for _, c := range cases {
		e := NewEstimate(c.w, c.d, c.l)
		if e.Games != c.w+c.d+c.l || !near(e.Score, c.score, 1e-12) || !near(e.Elo, c.elo, 1e-4) ||
			!near(e.EloLow, c.low, 1e-4) || !near(e.EloHigh, c.high, 1e-4) || !near(e.LOS, c.los, 1e-7) || !near(e.DrawRate, c.dr, 1e-12) {
			t.Errorf("W%d D%d L%d: got %+v", c.w, c.d, c.l, e)
		}
	}
}

func TestEstimateOfAPerfectScoreIsCappedAndMirrored(t *testing.T) {
	e := NewEstimate(10, 0, 0)
	if e.Elo != EloCap || e.EloHigh != EloCap || e.LOS < 0.999 {
		t.Fatalf("10-0: %+v", e)
	}
	// 10-0 takes the variance of 10.5-0.5-0.5: mean 10.75/11.5, var =
	// 10.625/11.5 - mean^2 = 0.050095, se = sqrt(var/10) = 0.070778, so the
	// score's lower end is 1 - 1.96*0.070777 = 0.861279 (+317.2 Elo).
	if !near(e.ScoreLow, 0.8612787, 1e-6) || !near(e.EloLow, EloFromScore(0.8612787), 0.01) {
		t.Fatalf("10-0: score low %.7f, Elo low %.2f, want 0.8612787", e.ScoreLow, e.EloLow)
	}
	f := NewEstimate(0, 0, 10)
	if f.Elo != -EloCap || f.EloLow != -EloCap || f.LOS > 0.001 {
		t.Fatalf("0-10: %+v", f)
	}
	// Swapping the players negates the Elo and mirrors the interval.
	a, b := NewEstimate(37, 21, 42), NewEstimate(42, 21, 37)
	if !near(a.Elo, -b.Elo, 1e-9) || !near(a.EloLow, -b.EloHigh, 1e-9) || !near(a.LOS, 1-b.LOS, 1e-12) {
		t.Fatalf("mirror: %+v vs %+v", a, b)
	}
}

func TestLOSIgnoresDrawsAndIsAHalfWithoutDecisiveGames(t *testing.T) {
	if LOS(0, 0) != 0.5 || LOS(5, 5) != 0.5 {
		t.Fatal("equal wins and losses must give 0.5")
	}
	if a, b := NewEstimate(12, 0, 8).LOS, NewEstimate(12, 50, 8).LOS; a != b {
		t.Fatalf("draws changed the LOS: %g vs %g", a, b)
	}
}
