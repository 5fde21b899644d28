package values

import (
	"math"

	"bomberzero/stats"

	"gonum.org/v1/gonum/stat/distuv"
)

// z95 is the two-sided 95% normal quantile.
const z95 = stats.Z95

// Wilson returns a proportion of x successes in n trials with its 95%
// Wilson interval (stats.Wilson); n = 0 gives the uninformative [0, 1]
// around 0.5.
func Wilson(x, n float64) Estimate {
	if n <= 0 {
		return Estimate{Point: 0.5, Lo: 0, Hi: 1}
	}
	lo, hi := stats.Wilson(x, n)
	return Estimate{Point: x / n, Lo: lo, Hi: hi}
}

// ScoreInterval returns a score (wins + draws/2)/games with the project's
// one 95% W/D/L interval (stats.ScoreInterval). Match, imbalance and
// comparison reports use it.
func ScoreInterval(wins, draws, losses int) Estimate {
	lo, hi := stats.ScoreInterval(wins, draws, losses)
	return Estimate{Point: stats.Score(wins, draws, losses), Lo: lo, Hi: hi}
}

// twoSidedP returns the two-sided p-value of a standard normal statistic.
func twoSidedP(z float64) float64 {
	return 2 * distuv.UnitNormal.Survival(math.Abs(z))
}
