package match

import (
	"math"
)

// z95 is the two-sided 95% quantile of the standard normal distribution.
const z95 = 1.959963984540054

// ScoreFromElo returns the expected score of a player rated elo points above
// its opponent under the logistic model: 1/(1+10^(-elo/400)).
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// EloFromScore inverts ScoreFromElo: -400 log10(1/s - 1); +Inf at s = 1 and
// -Inf at s = 0.
func EloFromScore(s float64) float64 {
	switch {
	case s >= 1:
		return math.Inf(1)
	case s <= 0:
		return math.Inf(-1)
	}
	return -400*math.Log10(1/s-1) + 0 // + 0 turns -0 into 0
}

// LOS returns the likelihood of superiority, the probability that the player
// with wins wins is the stronger one given the decisive games (draws carry no
// information): 0.5*(1 + erf((W-L)/sqrt(2(W+L)))). It is 0.5 with no
// decisive game.
func LOS(wins, losses int) float64 {
	if wins+losses == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(wins-losses)/math.Sqrt(2*float64(wins+losses))))
}

// Estimate is what a match says about one player against another.
type Estimate struct {
	Games int     `json:"games"`
	Score float64 `json:"score"` // points per game, draws half
	// ScoreLow and ScoreHigh bound the 95% normal interval of the score.
	ScoreLow  float64 `json:"score_low"`
	ScoreHigh float64 `json:"score_high"`
	// Elo is the rating difference the score implies; EloLow and EloHigh
	// are the score interval's ends mapped through EloFromScore. A score of
	// 1 or 0 has an infinite Elo, written as +-EloCap so that it stays a
	// number in JSON and on plots.
	Elo      float64 `json:"elo"`
	EloLow   float64 `json:"elo_low"`
	EloHigh  float64 `json:"elo_high"`
	LOS      float64 `json:"los"`
	DrawRate float64 `json:"draw_rate"`
}

// Estimating from wins, draws and losses: the score s = (W + D/2)/N; the
// per-game variance of the score is
// var = (W(1-s)^2 + D(1/2-s)^2 + L s^2)/N (the trinomial sample variance);
// when every game ended alike (var = 0) var is taken with half a game added
// to each of W, D and L; the score's standard error is sqrt(var/N) and its
// 95% interval
// s +- 1.96 sqrt(var/N), clamped to [0, 1]. The Elo interval maps both ends
// through EloFromScore (the method of cutechess-cli; to first order it is
// the delta method's Elo +- 1.96 * 400/ln 10 * se/(s(1-s))).

// NewEstimate returns the estimate for wins, draws and losses of one player.
func NewEstimate(wins, draws, losses int) Estimate {
	n := wins + draws + losses
	e := Estimate{Games: n, LOS: LOS(wins, losses)}
	if n == 0 {
		e.Score, e.ScoreLow, e.ScoreHigh = 0.5, 0, 1
		e.EloLow, e.EloHigh = -EloCap, EloCap
		return e
	}
	fn := float64(n)
	s := (float64(wins) + float64(draws)/2) / fn
	v := (float64(wins)*(1-s)*(1-s) + float64(draws)*(0.5-s)*(0.5-s) + float64(losses)*s*s) / fn
	if wins == n || draws == n || losses == n {
		// Every game ended alike: the sample variance is 0 and says
		// nothing; take the variance with half a game added to each outcome.
		w, d, l := float64(wins)+0.5, float64(draws)+0.5, float64(losses)+0.5
		m := (w + d/2) / (w + d + l)
		v = (w+d/4)/(w+d+l) - m*m
	}
	se := math.Sqrt(v / fn)
	e.Score = s
	e.ScoreLow = math.Max(0, s-z95*se)
	e.ScoreHigh = math.Min(1, s+z95*se)
	e.Elo = capElo(EloFromScore(s))
	e.EloLow = capElo(EloFromScore(e.ScoreLow))
	e.EloHigh = capElo(EloFromScore(e.ScoreHigh))
	e.DrawRate = float64(draws) / fn
	return e
}

// EloCap stands for an infinite Elo difference (a score of 1 or 0) in an
// Estimate or a rating: a 0.99999 score is 2000 Elo.
const EloCap = 2000

func capElo(x float64) float64 { return math.Max(-EloCap, math.Min(EloCap, x)) }
