package values

import (
	"fmt"
	"math"
	"math/rand/v2"
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
	// nil without a positive unit coefficient. Without the coefficient's
	// bootstrap replicates its own uncertainty is not carried into this
	// interval; with them (ReadImbalanceJoint) it is.
	Units *Estimate `json:"units"`
	// Joint is true when Units' interval is a joint bootstrap over the
	// imbalance games and the games the unit coefficient was fitted on.
	Joint bool   `json:"joint,omitempty"`
	Note  string `json:"note,omitempty"`
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
	if r == nil {
		return 0, false
	}
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

// ReadImbalanceJoint is ReadImbalance with the unit coefficient's bootstrap
// replicates (FitResult.UnitReplicates of the tanh fit that gave unitCoef):
// Units' interval then carries both uncertainties. Each replicate pairs
// one coefficient replicate with a multinomial resample of the imbalance
// games' wins, draws and losses (the two come from different games, so
// they are drawn independently) and divides the resample's tanh difference
// by the coefficient; the interval is the replicates' percentile interval.
// A replicate whose coefficient is not positive, or whose resampled score is
// 0 or 1, is unbounded (±Inf), so the interval can be too.
func ReadImbalanceJoint(wins, draws, losses int, unitCoef float64, coefReps []float64, seed uint64) (Imbalance, error) {
	im, err := ReadImbalance(wins, draws, losses, unitCoef)
	if err != nil || im.Units == nil || len(coefReps) == 0 {
		return im, err
	}
	im.Units.Lo, im.Units.Hi = percentileInterval(ImbalanceReplicates(wins, draws, losses, coefReps, seed))
	im.Joint = true
	return im, nil
}

// ImbalanceReplicates returns one bootstrap replicate of an imbalance's
// value difference in units per coefficient replicate of coefReps: a
// multinomial resample of side A's wins, draws and losses (drawn with
// seed) turned into tanh units and divided by the coefficient (see
// ReadImbalanceJoint). A replicate whose coefficient is not positive, or
// whose resampled score is 0 or 1, is ±Inf. Pass len(coefReps) copies of
// one coefficient to carry the games' uncertainty alone.
func ImbalanceReplicates(wins, draws, losses int, coefReps []float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x696d62))
	n := wins + draws + losses
	if n == 0 {
		return nil
	}
	pw, pd := float64(wins)/float64(n), float64(draws)/float64(n)
	xs := make([]float64, len(coefReps))
	for r, c := range coefReps {
		score := 0.0
		for range n {
			switch u := rng.Float64(); {
			case u < pw:
				score++
			case u < pw+pd:
				score += 0.5
			}
		}
		xs[r] = scoreUnits(score/float64(n), c)
	}
	return xs
}

// PairedImbalanceReplicates is ImbalanceReplicates for one side of a
// paired design: scores holds side A's score (1, ½ or 0) in each game, in
// the order of the pairs, and replicate r resamples games by index with a
// generator seeded by (seed, r) alone. Two sides with as many games and
// the same seed therefore resample the same pairs, and the differences of
// their replicates, r by r, are the paired bootstrap's: what a pair's games
// share drops out. Replicate r is divided by coefReps[r].
func PairedImbalanceReplicates(scores, coefReps []float64, seed uint64) []float64 {
	n := len(scores)
	if n == 0 {
		return nil
	}
	src := rand.NewPCG(0, 0)
	rng := rand.New(src)
	xs := make([]float64, len(coefReps))
	for r, c := range coefReps {
		src.Seed(seed, 0x696d62^uint64(r))
		sum := 0.0
		for range n {
			sum += scores[rng.IntN(n)]
		}
		xs[r] = scoreUnits(sum/float64(n), c)
	}
	return xs
}

// scoreUnits turns side A's score into the value difference in units of
// the unit coefficient c: atanh(2·score − 1)/c, ±Inf where c is not
// positive or the score is 0 or 1.
func scoreUnits(score, c float64) float64 {
	t := math.Atanh(2*score - 1)
	switch {
	case c > 0:
		return t / c
	case t >= 0:
		return math.Inf(1)
	default:
		return math.Inf(-1)
	}
}
