package values

import (
	"fmt"
	"math"
	"slices"
)

// Imbalance reads an imbalance match (a player against itself from the
// start position with one piece removed from each side, colours
// alternating): the score of side A, the side that kept piece Y and lost
// piece X, and the value difference v(Y) - v(X) it implies under the tanh
// model E[result] = tanh(Δβ), Δβ = atanh(2·score - 1).
type Imbalance struct {
	Games  int `json:"games"`
	Wins   int `json:"wins"` // side A's
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Score is side A's (wins + draws/2)/games with its 95% interval
	// (ScoreInterval).
	Score Estimate `json:"score"`
	// Tanh is the implied difference in tanh units, atanh(2·Score - 1),
	// mapped bound by bound; nil when the score is 0 or 1 (no finite
	// estimate).
	Tanh *Estimate `json:"tanh"`
	// Units is Tanh divided by the unit piece's tanh coefficient from a
	// PieceValues report: the difference in pawns (or the chosen unit).
	// nil without a positive unit coefficient. The coefficient's own
	// uncertainty is not carried into this interval.
	Units *Estimate `json:"units"`
	Note  string    `json:"note,omitempty"`
}

// ReadImbalance turns side A's results into an Imbalance. unitCoef is the
// unit piece's coefficient of a tanh fit (Report.UnitCoef); pass 0 to leave
// Units out.
func ReadImbalance(wins, draws, losses int, unitCoef float64) (Imbalance, error) {
	if wins < 0 || draws < 0 || losses < 0 || wins+draws+losses == 0 {
		return Imbalance{}, fmt.Errorf("values: imbalance results %d/%d/%d, want non-negative counts and at least one game", wins, draws, losses)
	}
	if math.IsNaN(unitCoef) || math.IsInf(unitCoef, 0) {
		return Imbalance{}, fmt.Errorf("values: unit coefficient %v, want a finite number", unitCoef)
	}
	im := Imbalance{Games: wins + draws + losses, Wins: wins, Draws: draws, Losses: losses, Score: ScoreInterval(wins, draws, losses)}
	at := func(s float64) float64 { return math.Atanh(2*s - 1) } // ±Inf at 0 and 1
	if s := im.Score.Point; s <= 0 || s >= 1 {
		im.Note = fmt.Sprintf("score %.3g: one side won every game, so the value difference has no finite estimate; play stronger or longer matches, or a smaller imbalance", s)
		return im, nil
	}
	t := Estimate{Point: at(im.Score.Point), Lo: at(im.Score.Lo), Hi: at(im.Score.Hi)}
	im.Tanh = &t
	if unitCoef > 0 {
		u := Estimate{Point: t.Point / unitCoef, Lo: t.Lo / unitCoef, Hi: t.Hi / unitCoef}
		im.Units = &u
	}
	return im, nil
}

// UnitCoef returns the unit piece's fitted coefficient in the report's fit
// of method m, and whether there is one (the fit ran and the unit varied).
func (r *Report) UnitCoef(m Method) (float64, bool) {
	for i := range r.Fits {
		f := &r.Fits[i]
		if f.Method != m {
			continue
		}
		j := slices.IndexFunc(f.Pieces, func(pv PieceValue) bool { return pv.Piece == r.Unit })
		if j < 0 || f.Pieces[j].Coef == nil {
			return 0, false
		}
		return f.Pieces[j].Coef.Point, true
	}
	return 0, false
}
