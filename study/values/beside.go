package values

import (
	"fmt"
	"math"
	"strings"
)

// BesideFit sets an imbalance match's reading of v(Y) − v(X) beside a
// fit's value of the same sum, as issue 35 asks of chess ("the imbalances
// and the fits agree within their intervals"): the two come from different
// games, so the difference's interval combines their half-widths in
// quadrature on each side, and they agree when it holds 0.
type BesideFit struct {
	// Source names the fit's positions (a positions file), Method and
	// Games the fit.
	Source string `json:"source"`
	Method Method `json:"method"`
	Games  int    `json:"games"`
	// Fit is v(Y) − v(X) by the fit, in its unit piece.
	Fit Sum `json:"fit"`
	// Imbalance is the match's reading in pawns, and Pawn says whose; nil
	// when the match gives none.
	Imbalance *Estimate `json:"imbalance,omitempty"`
	Pawn      string    `json:"pawn,omitempty"`
	// Difference is Imbalance − Fit; Agree whether its interval holds 0.
	// Both are unset when either side has no bounded interval (Note).
	Difference *Estimate `json:"difference,omitempty"`
	Agree      *bool     `json:"agree,omitempty"`
	Note       string    `json:"note,omitempty"`
}

// ImbalanceSum returns the sum expression (ParseSum) of v(Y) − v(X) for an
// imbalance match where side A lacks x and side B lacks y, both piece
// letters joined by "+" (as "Q" and "R+R": "R+R-Q").
func ImbalanceSum(x, y string) (string, error) {
	expr := y + "-" + strings.ReplaceAll(x, "+", "-")
	if _, err := ParseSum(expr); err != nil {
		return "", fmt.Errorf("values: %s against %s: want piece letters joined by + on both sides (squares cannot be set beside a fit): %w", x, y, err)
	}
	return expr, nil
}

// Beside fills b's Difference and Agree from its Imbalance and Fit.
func (b *BesideFit) Beside() {
	b.Difference, b.Agree = nil, nil
	f := b.Fit.Value
	switch {
	case f == nil:
		b.Note = "the fit has no value for the sum: " + b.Fit.Note
		return
	case b.Imbalance == nil:
		b.Note = "the match gives no reading in pawns"
		return
	case !f.Bounded() || !b.Imbalance.Bounded():
		b.Note = "no bounded interval on one side, so no agreement can be read"
		return
	}
	i := *b.Imbalance
	d := i.Point - f.Point
	diff := Estimate{Point: d, Lo: d - math.Hypot(i.Point-i.Lo, f.Hi-f.Point), Hi: d + math.Hypot(i.Hi-i.Point, f.Point-f.Lo)}
	agree := diff.Lo <= 0 && 0 <= diff.Hi
	b.Difference, b.Agree = &diff, &agree
}
