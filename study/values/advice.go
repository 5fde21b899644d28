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

// The events a fit needs before its values are bounded, for the advice's
// estimates of games. Rough by design: they say the order of magnitude.
const (
	// adviceDecisive: decisive games for a logistic fit of a handful of
	// pieces (the chess pilot's 1,200-2,500 gave about ±10%).
	adviceDecisive = 300
	// adviceTraded: games in which a piece's counts differ, for its value.
	adviceTraded = 100
	// adviceContrary: games where the side ahead in a piece did not win,
	// for a separated coefficient to be held by the data, not the ridge.
	adviceContrary = 10
)

// gamesAtRate returns about how many games give target events when
// events of them were seen in games games: target·games/events, or, when
// none was seen, target·games/3 (the rule of three: with none in n the
// rate is below 3/n at 95%, so this is a lower bound). It is at least
// MinAdviceGames and more than games.
func gamesAtRate(games, events, target int) int {
	games = max(games, 1)
	need := float64(target) * float64(games) / 3
	if events > 0 {
		need = float64(target) * float64(games) / float64(events)
	}
	return max(int(math.Ceil(min(need, 1e9))), games+1, MinAdviceGames)
}

// zeroRate says what none in games games of something (what) tells of
// its rate: below 3/games at 95% (the rule of three), when that says
// anything.
func zeroRate(games int, what string) string {
	if games <= 3 {
		return fmt.Sprintf("no %s in %s, too few to bound its rate", what, nGames(games))
	}
	return fmt.Sprintf("no %s in %d games puts its rate below %s at 95%%", what, games, percent(3/float64(games)))
}

// nGames writes a count of games, "1 game" or "n games".
func nGames(n int) string {
	if n == 1 {
		return "1 game"
	}
	return fmt.Sprintf("%d games", n)
}

// percent writes a share as a percentage with two significant digits,
// without an exponent.
func percent(x float64) string {
	p := 100 * x
	switch {
	case p >= 10:
		return fmt.Sprintf("%.0f%%", p)
	case p >= 1:
		return fmt.Sprintf("%.1f%%", p)
	}
	return fmt.Sprintf("%.2g%%", p)
}

// Advice says, for a fit of a report, what its values lack and about how
// many games would fix it, estimated from the rates observed: no decisive
// game, no unit coefficient, a unit that is not positive, unbounded
// intervals, a piece that never changed hands, separation (a piece whose
// difference predicts every result), bootstrap replicates that failed.
// It returns "" for a fit whose every value is bounded.
func (r *Report) Advice(f *FitResult) string {
	if r == nil || f == nil {
		return ""
	}
	var unit *Estimate
	var never, separated, huge []string
	unbounded := false
	fewest := 0 // the fewest games a separated piece was ahead in
	for _, pv := range f.Pieces {
		if pv.Piece == r.Unit {
			unit = pv.Coef
		}
		switch {
		case pv.Coef == nil:
			if pv.Piece != "K" && pv.Piece != r.Unit { // the king is royal in every variant of the project
				never = append(never, pv.Piece)
			}
		case pv.Imbalanced > 0 && pv.Contrary == 0 && (f.Method == Logistic || f.Method == Tanh):
			separated = append(separated, fmt.Sprintf("%s (ahead in it in %s, won all)", pv.Piece, nGames(pv.Imbalanced)))
			if fewest == 0 || pv.Imbalanced < fewest {
				fewest = pv.Imbalanced
			}
		case math.Abs(pv.Coef.Point) >= separationCoef:
			huge = append(huge, fmt.Sprintf("%s (%.1f)", pv.Piece, pv.Coef.Point))
		}
		if pv.Value != nil && !pv.Value.Bounded() {
			unbounded = true
		}
	}
	// games is the fit's; all, the data set's, is what the estimates
	// count (a logistic fit's games are the decisive ones only).
	games, all := f.Games, max(r.Games, f.Games)
	var parts []string
	if f.Decisive == 0 && f.Method == Tanh {
		parts = append(parts, fmt.Sprintf("none of these %d games was decisive (%s), so their results say nothing about material: "+
			"about %d decisive games are needed, at least %d games at this rate, or a longer length cap or a stronger player",
			games, zeroRate(all, "decisive game"), adviceDecisive, gamesAtRate(all, 0, adviceDecisive)))
	}
	switch {
	case unit == nil:
		parts = append(parts, fmt.Sprintf("the unit piece %s never changed hands in these %d games (%s), so no value can be put in its units: "+
			"choose a unit that is traded (--unit) or play at least %d games (about %d where it is traded)",
			r.Unit, games, zeroRate(games, "trade"), gamesAtRate(all, 0, adviceTraded), adviceTraded))
	case f.Decisive == 0 && f.Method == Tanh:
		// Said above: nothing else to resolve.
	case !f.Normalised || unbounded:
		n, extrapolated := GamesToResolve(games, *unit)
		share := ""
		if all > games && games > 0 {
			// The fit sees games of all (a logistic fit, the decisive
			// ones): as many more of all to play.
			n = int(math.Ceil(float64(n) * float64(all) / float64(games)))
			share = fmt.Sprintf(", as this fit keeps %d of every %d games", games, all)
		}
		what := "its values have unbounded intervals"
		if !f.Normalised {
			what = "it has no values"
		}
		how := fmt.Sprintf("about %d games (the unit's coefficient %s, its interval shrinking as 1/sqrt(games)%s)", n, unit.Format(3), share)
		if !extrapolated {
			how = fmt.Sprintf("at least %d games (ten times these and at least %d%s; the unit's coefficient %s does not stand clear of zero, so no extrapolation is possible), or a stronger player", n, MinAdviceGames, share, unit.Format(3))
		}
		parts = append(parts, fmt.Sprintf("the %s fit rests on %d games and %s because the unit piece %s's worth is not resolved: %s would fix it",
			f.Method, games, what, r.Unit, how))
	}
	if len(never) > 0 {
		parts = append(parts, fmt.Sprintf("never changed hands in these %d games, so not valued: %s (%s; each needs about %d games where it is traded: at least %d games, or a player that trades it)",
			games, strings.Join(never, ", "), zeroRate(games, "trade"), adviceTraded, gamesAtRate(all, 0, adviceTraded)))
	}
	if len(separated) > 0 {
		// 10 games where the material did not decide, at a rate below
		// 3/m among the m games ahead in it, which are m of all: 10·all/3.
		parts = append(parts, fmt.Sprintf("separation: %s: the side with more of it won every game, so the ridge penalty, not the data, holds its coefficient finite; "+
			"it needs about %d games where that material did not decide (%s): at least %d games, or a stronger or more even player",
			strings.Join(separated, ", "), adviceContrary, zeroRate(fewest, "such game"), gamesAtRate(all, 0, adviceContrary)))
	}
	if len(huge) > 0 {
		parts = append(parts, fmt.Sprintf("separation: coefficients %s mean the side with that material won almost every time, so the ridge penalty, "+
			"not the data, holds them finite; they need games where that material did not decide (at least %d games, or a stronger or more even player)",
			strings.Join(huge, ", "), max(10*games, MinAdviceGames)))
	}
	if f.Failed > 0 {
		reps := f.Replicates + f.Failed
		switch {
		case f.FailedEmpty > 0 && f.Decisive > 0 && f.Method == Logistic:
			// A resample of n games misses all d decisive ones with chance
			// about exp(-d); ln(2B) of them make that rare in B replicates.
			need := math.Log(2 * float64(reps))
			parts = append(parts, fmt.Sprintf("%d of %d bootstrap replicates drew none of the %d decisive games and could not be fitted, so the intervals leave out the resamples that would widen them most: "+
				"about %.0f decisive games make that rare, at least %d games at this rate (%d decisive in %d)",
				f.FailedEmpty, reps, f.Decisive, math.Ceil(need), gamesAtRate(all, f.Decisive, int(math.Ceil(need))), f.Decisive, all))
		default:
			parts = append(parts, fmt.Sprintf("%d of %d bootstrap replicates could not be fitted (a resample without positions, or Newton's method failing on separated data), so the intervals rest on the others: "+
				"at least %d games, with results that material did not decide", f.Failed, reps, max(10*all, MinAdviceGames)))
		}
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
		return fmt.Sprintf("none of the %d games was decisive (%s), and the logistic fit needs wins and losses: about %d decisive games, "+
			"at least %d games at this rate, a longer length cap or a stronger player (the tanh fit reads draws: --fits tanh)",
			games, zeroRate(games, "decisive game"), adviceDecisive, gamesAtRate(games, 0, adviceDecisive))
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
