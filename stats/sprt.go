package stats

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SPRT is a sequential probability ratio test of H0: the Elo difference is
// Elo0 against H1: it is Elo1, with false-positive rate Alpha and
// false-negative rate Beta.
//
// It uses the generalized SPRT with the normal approximation of Michel Van
// den Bergh (the one Fishtest's logistic-Elo SPRT and cutechess build on):
// with N games, mean score s and per-game score variance var (trinomial: wins,
// draws, losses) and s_i = ScoreFromElo(Elo_i),
//
//	LLR = N (s1 - s0) (2s - s0 - s1) / (2 var)
//
// and the test stops when LLR <= ln(Beta/(1-Alpha)) (accept H0) or
// LLR >= ln((1-Beta)/Alpha) (accept H1). While one of W, D, L is zero the
// variance is computed with half a game added to each, so that a perfect
// start does not divide by zero.
type SPRT struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
}

// Decision is the state of an SPRT.
type Decision int

// The decisions.
const (
	Continue Decision = iota
	AcceptH0
	AcceptH1
)

// String names the decision.
func (d Decision) String() string {
	return [...]string{"continue", "H0 accepted", "H1 accepted"}[d]
}

// ParseSPRT reads "elo0,elo1,alpha,beta", as "0,10,0.05,0.05".
func ParseSPRT(text string) (SPRT, error) {
	parts := strings.Split(text, ",")
	if len(parts) != 4 {
		return SPRT{}, fmt.Errorf("sprt %q: want elo0,elo1,alpha,beta, as 0,10,0.05,0.05", text)
	}
	var x [4]float64
	names := [4]string{"elo0", "elo1", "alpha", "beta"}
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return SPRT{}, fmt.Errorf("sprt %q: %s %q is not a finite number", text, names[i], p)
		}
		x[i] = v
	}
	s := SPRT{Elo0: x[0], Elo1: x[1], Alpha: x[2], Beta: x[3]}
	return s, s.Validate()
}

// Validate checks that elo0 < elo1 and both error rates are in (0, 0.5).
func (s SPRT) Validate() error {
	switch {
	case !(s.Elo0 < s.Elo1):
		return fmt.Errorf("sprt: elo0 %g must be below elo1 %g", s.Elo0, s.Elo1)
	case !(s.Alpha > 0 && s.Alpha < 0.5):
		return fmt.Errorf("sprt: alpha %g must be in (0, 0.5)", s.Alpha)
	case !(s.Beta > 0 && s.Beta < 0.5):
		return fmt.Errorf("sprt: beta %g must be in (0, 0.5)", s.Beta)
	}
	return nil
}

// Bounds returns the log-likelihood-ratio bounds: accept H0 at or below
// lower, H1 at or above upper.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// LLR returns the log-likelihood ratio of H1 against H0 after wins, draws and
// losses.
func (s SPRT) LLR(wins, draws, losses int) float64 {
	n := float64(wins + draws + losses)
	if n == 0 {
		return 0
	}
	w, d, l := float64(wins), float64(draws), float64(losses)
	if wins == 0 || draws == 0 || losses == 0 {
		w, d, l = w+0.5, d+0.5, l+0.5
	}
	m := w + d + l
	mean := (w + d/2) / m
	v := (w+d/4)/m - mean*mean
	score := (float64(wins) + float64(draws)/2) / n
	s0, s1 := ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1)
	return n * (s1 - s0) * (2*score - s0 - s1) / (2 * v)
}

// Decide returns the test's decision after wins, draws and losses.
func (s SPRT) Decide(wins, draws, losses int) Decision {
	llr := s.LLR(wins, draws, losses)
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}
