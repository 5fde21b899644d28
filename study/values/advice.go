package values

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MinAdviceGames is the fewest games GamesToResolve ever suggests: below
// about a thousand games even a clean chess fit holds almost any value
// (docs/RESULTS.md, the chess falsification run).
const MinAdviceGames = 1000

// zResolve is the unit coefficient's point over its standard error that
// GamesToResolve aims at: 1.96 + 0.84, a 5% test with 80% power, so that
// hardly any bootstrap replicate puts the unit at zero or below and the
// values' intervals are bounded.
const zResolve = 2.8

// separationCoef is the size of a raw coefficient (logits or tanh units)
// read as separation: one piece more deciding the game so surely that the
// ridge penalty, not the data, holds the coefficient finite (tens of units
// then). A strong player's real queen is about 7 logits (engine:nodes=1000
// on chess, docs/RESULTS.md), so the bar sits well above it.
const separationCoef = 15

// GamesToResolve estimates how many games a fit needs for the unit piece's
// coefficient to stand clear of zero (point / standard error >= 2.8, the
// standard error read from the 95% interval as width / 3.92 and shrinking
// as 1/sqrt(games)), and whether the estimate is an extrapolation (true) or
// only the rule of thumb "ten times as many, at least MinAdviceGames"
// (false), used when the coefficient is not positive or its interval not
// bounded. It never returns fewer than games+1.
func GamesToResolve(games int, unit Estimate) (int, bool) {
	floor := max(10*games, MinAdviceGames)
	se := unit.Width() / (2 * 1.959964)
	if unit.Point <= 0 || !unit.Bounded() || !(se > 0) || math.IsNaN(unit.Point) {
		return floor, false
	}
	z := unit.Point / se
	need := float64(max(games, 1)) * (zResolve / z) * (zResolve / z)
	if need > 1e9 {
		return floor, false
	}
	return max(int(math.Ceil(need)), games+1, MinAdviceGames), true
}

// Advice says, for a fit of a report, what its values lack and about how
// many games would fix it: no unit coefficient, a unit that is not
// positive, unbounded intervals, a piece that never changed hands,
// separation. It returns "" for a fit whose every value is bounded.
func (r *Report) Advice(f *FitResult) string {
	if r == nil || f == nil {
		return ""
	}
	var unit *Estimate
	var never, separated []string
	unbounded := false
	for _, pv := range f.Pieces {
		if pv.Piece == r.Unit {
			unit = pv.Coef
		}
		switch {
		case pv.Coef == nil:
			if pv.Piece != "K" && pv.Piece != r.Unit { // the king is royal in every variant of the project
				never = append(never, pv.Piece)
			}
		case math.Abs(pv.Coef.Point) >= separationCoef:
			separated = append(separated, fmt.Sprintf("%s (%.1f)", pv.Piece, pv.Coef.Point))
		}
		if pv.Value != nil && !pv.Value.Bounded() {
			unbounded = true
		}
	}
	games := f.Games
	var parts []string
	switch {
	case unit == nil:
		n, _ := GamesToResolve(games, Estimate{})
		parts = append(parts, fmt.Sprintf("the unit piece %s never changed hands in these %d games, so no value can be put in its units: "+
			"choose a unit that is traded (--unit) or play about %d games or more", r.Unit, games, n))
	case !f.Normalised || unbounded:
		n, extrapolated := GamesToResolve(games, *unit)
		what := "its values have unbounded intervals"
		if !f.Normalised {
			what = "it has no values"
		}
		how := fmt.Sprintf("about %d games (the unit's coefficient %s, its interval shrinking as 1/sqrt(games))", n, unit.Format(3))
		if !extrapolated {
			how = fmt.Sprintf("at least %d games (ten times these; the unit's coefficient %s does not stand clear of zero, so no extrapolation is possible), or a stronger player", n, unit.Format(3))
		}
		parts = append(parts, fmt.Sprintf("the %s fit rests on %d games and %s because the unit piece %s's worth is not resolved: %s would fix it",
			f.Method, games, what, r.Unit, how))
	}
	if len(never) > 0 {
		parts = append(parts, fmt.Sprintf("never changed hands, so not valued: %s (each needs games where it is traded, about ten times these %d games, or a player that trades it)", strings.Join(never, ", "), games))
	}
	if len(separated) > 0 {
		parts = append(parts, fmt.Sprintf("separation: coefficients %s mean the side with that material won almost every time, so the ridge penalty, "+
			"not the data, holds them finite; they need games where that material did not decide (at least %d games, or a stronger or more even player)",
			strings.Join(separated, ", "), max(10*games, MinAdviceGames)))
	}
	return strings.Join(parts, "; ")
}

// NoFitAdvice explains an error of PieceValues on games games in a
// sentence that says what is missing and about how many games would fix
// it.
func NoFitAdvice(games int, err error) string {
	if err == nil {
		return ""
	}
	n := max(10*games, MinAdviceGames)
	switch {
	case errors.Is(err, ErrNoDecisive):
		return fmt.Sprintf("none of the %d games was decisive, and the logistic fit needs wins and losses: at least %d games, "+
			"a longer length cap or a stronger player (the tanh fit reads draws: --fits tanh)", games, n)
	case strings.Contains(err.Error(), "no position left"):
		return fmt.Sprintf("no position of the %d games was left after sampling: lower --skip or --spacing, or play longer games", games)
	}
	return fmt.Sprintf("%v (%d games; piece values need at least %d)", err, games, n)
}

// WeakPlayer returns a one-line warning when the player spec names a
// player too weak for piece values (random, greedy, alpha-beta at depth 2
// or less): such a player converts material so badly that its games
// measure the player, not the game (issue 35: alphabeta:2 gives a chess
// queen 2.8-3.1 rooks, strong play 1.7). It returns "" for any other
// player, whose strength this package does not know.
func WeakPlayer(spec string) string {
	s := strings.ToLower(strings.TrimSpace(spec))
	name, rest, _ := strings.Cut(s, ":")
	weak := false
	switch name {
	case "random", "greedy":
		weak = true
	case "alphabeta":
		d, _, _ := strings.Cut(rest, ":")
		if n, err := strconv.Atoi(d); err == nil && n <= 2 {
			weak = true
		}
	}
	if !weak {
		return ""
	}
	return fmt.Sprintf("%s is too weak for piece values: it converts material so badly that its games measure the player, not the game "+
		"(alphabeta:2 makes a chess queen about 3 rooks, strong play 1.7); use the engine, e.g. --player engine:nodes=2000", spec)
}

// officers are the piece letters that Implausible holds to be worth more
// than a pawn: every non-pawn, non-royal piece of the project's variants
// (the ninja pawn J is a pawn).
const officers = "NBRQFDIGM"

// Q/R outside [PlausibleQRLo, PlausibleQRHi] is implausible for any
// strong player (Tomašev's chess games give 1.7; the chess check asks for
// [1.5, 2.1]); alphabeta:2's 2.8-3.1 is just inside, alphabeta:1's not.
const PlausibleQRLo, PlausibleQRHi = 1.2, 3

// Implausible returns a warning for each normalised fit of r whose values
// no strong player would give: a queen worth less than a rook or than a
// minor piece (N, B), an officer worth less than a pawn, or Q/R outside
// [PlausibleQRLo, PlausibleQRHi]. The figures are compared in whatever
// unit the report uses. A weak player's games give such values; the
// warning names the fit, the pieces and their figures.
func Implausible(r *Report) []string {
	if r == nil {
		return nil
	}
	var out []string
	for i := range r.Fits {
		f := &r.Fits[i]
		if !f.Normalised {
			continue
		}
		val := func(p string) (float64, bool) {
			j := slices.IndexFunc(f.Pieces, func(pv PieceValue) bool { return pv.Piece == p })
			if j < 0 || f.Pieces[j].Value == nil {
				return 0, false
			}
			return f.Pieces[j].Value.Point, true
		}
		var bad []string
		q, okQ := val("Q")
		rk, okR := val("R")
		if okQ && okR && q < rk {
			bad = append(bad, fmt.Sprintf("a queen (%.2f) below a rook (%.2f)", q, rk))
		}
		for _, minor := range []string{"N", "B"} {
			if m, ok := val(minor); okQ && ok && q < m {
				bad = append(bad, fmt.Sprintf("a queen (%.2f) below a minor piece %s (%.2f)", q, minor, m))
			}
		}
		if okQ && okR && rk > 0 && q >= rk && (q/rk < PlausibleQRLo || q/rk > PlausibleQRHi) {
			bad = append(bad, fmt.Sprintf("Q/R %.2f (%.2f / %.2f), outside [%.1f, %g]", q/rk, q, rk, PlausibleQRLo, float64(PlausibleQRHi)))
		}
		if pawn, ok := val("P"); ok {
			for _, pv := range f.Pieces {
				if pv.Value != nil && strings.Contains(officers, pv.Piece) && pv.Value.Point < pawn {
					bad = append(bad, fmt.Sprintf("%s (%.2f) below a pawn (%.2f)", pv.Piece, pv.Value.Point, pawn))
				}
			}
		}
		if len(bad) > 0 {
			out = append(out, fmt.Sprintf("the %s fit puts %s: no strong player values pieces so; the player is too weak for the question "+
				"(or the games too few): use the engine, e.g. --player engine:nodes=2000", f.Method, strings.Join(bad, " and ")))
		}
	}
	return out
}
