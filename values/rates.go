package values

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// z95 is the two-sided 95% normal quantile.
var z95 = distuv.UnitNormal.Quantile(0.975)

// Wilson returns the 95% Wilson score interval of a proportion of x
// successes in n trials (Wilson 1927), with the plain proportion as the
// point. It stays inside [0,1] and is honest at 0 and n successes. n = 0
// gives the uninformative [0, 1] around 0.5.
func Wilson(x, n float64) Estimate {
	if n <= 0 {
		return Estimate{Point: 0.5, Lo: 0, Hi: 1}
	}
	p := x / n
	z2 := z95 * z95
	den := 1 + z2/n
	centre := (p + z2/(2*n)) / den
	half := z95 / den * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return Estimate{Point: p, Lo: max(0, centre-half), Hi: min(1, centre+half)}
}

// scoreInterval returns the 95% interval of a score (wins + draws/2)/n:
// Wilson's interval with the effective sample size n·p(1-p)/σ², σ² the
// per-game variance of the score. Draws make a score less variable than a
// coin of the same mean, and the effective size accounts for it; with no
// draws it is Wilson's interval exactly. When σ² is 0 (every game the same
// result) it falls back to n, which is conservative.
func scoreInterval(wins, draws, losses int) Estimate {
	n := float64(wins + draws + losses)
	if n == 0 {
		return Wilson(0, 0)
	}
	p := (float64(wins) + float64(draws)/2) / n
	v := scoreVariance(wins, draws, losses)
	neff := n
	if v > 0 && p > 0 && p < 1 {
		neff = n * p * (1 - p) / v
	}
	e := Wilson(p*neff, neff)
	e.Point = p
	return e
}

// scoreVariance returns the per-game variance of a score of 1, ½ or 0.
func scoreVariance(wins, draws, losses int) float64 {
	n := float64(wins + draws + losses)
	if n == 0 {
		return 0
	}
	p := (float64(wins) + float64(draws)/2) / n
	return (float64(wins)+float64(draws)/4)/n - p*p
}

// twoSidedP returns the two-sided p-value of a standard normal statistic.
func twoSidedP(z float64) float64 {
	return 2 * distuv.UnitNormal.Survival(math.Abs(z))
}
