package stats

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
		// W60 L40, no draws: Wilson(60, 100). With z² = 3.84146, the centre
		// is (0.6 + z²/200)/(1 + z²/100) = 0.596300 and the half-width
		// z/(1 + z²/100)·sqrt(0.0024 + z²/40000) = 0.094298, so the score is
		// in [0.502003, 0.690599] -> Elo [1.3915, 139.4815];
		// LOS = Phi(20/sqrt(100)) = Phi(2).
		{60, 0, 40, 0.6, 70.43650, 1.39155, 139.48146, 0.97724987, 0},
		// W30 D40 L30: var = (30 + 40/4)/100 - 0.25 = 0.15, effective size
		// 100·0.25/0.15 = 166.67, Wilson(83.33, 166.67) = 0.5 +- 0.075049
		// -> Elo +-52.5465, LOS 0.5.
		{30, 40, 30, 0.5, 0, -52.54648, 52.54648, 0.5, 0.4},
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
	// 10-0 has no variance, so the effective size is 10 and the interval
	// Wilson(10, 10), whose lower end is 10/(10 + z²) = 0.7224672 (+166.2
	// Elo).
	if !near(e.ScoreLow, 0.7224672, 1e-6) || !near(e.EloLow, 166.2015, 0.01) || e.ScoreHigh != 1 {
		t.Fatalf("10-0: score [%.7f, %g], Elo low %.2f, want [0.7224672, 1] and +166.2", e.ScoreLow, e.ScoreHigh, e.EloLow)
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
