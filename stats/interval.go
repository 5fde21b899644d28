package stats

import "math"

// Z95 is the two-sided 95% quantile of the standard normal distribution.
const Z95 = 1.959963984540054

// Wilson returns the 95% Wilson score interval of a proportion of x
// successes in n trials (Wilson 1927). It stays inside [0, 1] and is honest
// at 0 and n successes; n <= 0 gives the uninformative [0, 1].
func Wilson(x, n float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := x / n
	z2 := Z95 * Z95
	den := 1 + z2/n
	centre := (p + z2/(2*n)) / den
	half := Z95 / den * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return max(0, centre-half), min(1, centre+half)
}

// Score returns the points per game of wins, draws and losses, a draw
// counting half: (W + D/2)/N, and 0.5 for no game.
func Score(wins, draws, losses int) float64 {
	n := float64(wins + draws + losses)
	if n == 0 {
		return 0.5
	}
	return (float64(wins) + float64(draws)/2) / n
}

// ScoreVariance returns the per-game variance of a score of 1, ½ or 0 with
// the frequencies of wins, draws and losses (the trinomial sample variance
// (W + D/4)/N - s²); 0 for no game.
func ScoreVariance(wins, draws, losses int) float64 {
	n := float64(wins + draws + losses)
	if n == 0 {
		return 0
	}
	s := (float64(wins) + float64(draws)/2) / n
	return max(0, (float64(wins)+float64(draws)/4)/n-s*s)
}

// ScoreInterval returns the project's one 95% interval of a W/D/L score
// (docs/match.md, "The score interval"): Wilson's interval on the effective
// sample size N·s(1-s)/σ², σ² the trinomial per-game variance
// (ScoreVariance). Draws make a score less variable than a coin of the same
// mean, and the effective size accounts for it; with no draws it is Wilson's
// interval exactly, and when σ² is 0 (every game alike) it takes N, which is
// conservative. It stays inside [0, 1] without clamping and never collapses
// to a point, unlike the normal interval s ± 1.96·σ/√N, with which it agrees
// for large N away from 0 and 1. No game gives [0, 1].
func ScoreInterval(wins, draws, losses int) (lo, hi float64) {
	n := float64(wins + draws + losses)
	if n == 0 {
		return 0, 1
	}
	s := Score(wins, draws, losses)
	neff := n
	if v := ScoreVariance(wins, draws, losses); v > 0 && s > 0 && s < 1 {
		neff = n * s * (1 - s) / v
	}
	return Wilson(s*neff, neff)
}
