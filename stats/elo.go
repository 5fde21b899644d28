package stats

import (
	"math"
)

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
	// ScoreLow and ScoreHigh bound the score's 95% interval (ScoreInterval).
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

// NewEstimate returns the estimate for wins, draws and losses of one
// player: the score (W + D/2)/N with its 95% interval (ScoreInterval), and
// the Elo interval mapping both ends through EloFromScore (the method of
// cutechess-cli). No game gives the score 0.5 in [0, 1].
func NewEstimate(wins, draws, losses int) Estimate {
	n := wins + draws + losses
	e := Estimate{Games: n, LOS: LOS(wins, losses), Score: Score(wins, draws, losses)}
	e.ScoreLow, e.ScoreHigh = ScoreInterval(wins, draws, losses)
	e.Elo = CapElo(EloFromScore(e.Score))
	e.EloLow = CapElo(EloFromScore(e.ScoreLow))
	e.EloHigh = CapElo(EloFromScore(e.ScoreHigh))
	if n > 0 {
		e.DrawRate = float64(draws) / float64(n)
	}
	return e
}

// EloCap stands for an infinite Elo difference (a score of 1 or 0) in an
// Estimate or a rating: a 0.99999 score is 2000 Elo.
const EloCap = 2000

// CapElo clamps an Elo difference to ±EloCap, the form in which every
// report writes the infinite Elo of a perfect score.
func CapElo(x float64) float64 { return math.Max(-EloCap, math.Min(EloCap, x)) }
