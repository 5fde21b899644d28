package values

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// Degenerate data must say what is missing and about how many games would
// fix it, in words and numbers, never NaN or an infinity printed as a
// number.
func TestDegenerateDataSayWhatIsMissingAndHowManyGames(t *testing.T) {
	allDraws := ChessModel(true)
	allDraws.Decisive = 0
	noPawnTrades := ChessModel(false)
	noPawnTrades.Loss[0] = 0
	noKnightTrades := ChessModel(false)
	noKnightTrades.Loss[1] = 0
	separated := ChessModel(true, 40, 120, 132, 200, 360, 0) // one pawn more decides every game
	separated.Decisive = 1
	few := ChessModel(false)
	cases := []struct {
		name   string
		data   *Dataset
		method Method
		want   []string // fragments of the advice (or of NoFitAdvice when the fit fails)
	}{
		{"no decisive game", allDraws.Games(300, 1), Logistic, []string{"none of the 300 games was decisive", "at least 3000 games"}},
		{"all draws in the tanh fit", allDraws.Games(300, 1), Tanh, []string{"it has no values", "unit piece P", "at least 3000 games"}},
		{"unit never traded", noPawnTrades.Games(300, 2), Tanh, []string{"unit piece P never changed hands in these 300 games", "about 3000 games"}},
		{"a piece never traded", noKnightTrades.Games(300, 3), Tanh, []string{"never changed hands, so not valued: N ("}},
		{"separation", separated.Games(400, 4), Logistic, []string{"separation: coefficients R (20.0), Q (36.2)", "at least 4000 games"}},
		{"too few games", few.Games(30, 5), Tanh, []string{"rests on 30 games", "games"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := PieceValues(c.data, synthConfig(1, c.method))
			var text string
			if err != nil {
				text = NoFitAdvice(len(c.data.Games), err)
			} else {
				text = rep.Fits[0].Advice
				assertNoNaN(t, rep)
				var b strings.Builder
				if err := rep.WriteText(&b); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(b.String(), "missing: "+text) {
					t.Errorf("the text report does not carry the advice %q:\n%s", text, b.String())
				}
				js, _ := json.Marshal(rep)
				if !strings.Contains(string(js), `"advice"`) {
					t.Errorf("JSON without advice: %s", js)
				}
			}
			t.Log(text)
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("advice %q, want it to contain %q", text, w)
				}
			}
			for _, bad := range []string{"NaN", "Inf", "inf games"} {
				if strings.Contains(text, bad) {
					t.Errorf("advice %q prints %s", text, bad)
				}
			}
		})
	}
}

// A clean fit on enough games needs no advice.
func TestAGoodFitHasNoAdvice(t *testing.T) {
	clean := ChessModel(false)
	rep, err := PieceValues(clean.Games(3000, 1), synthConfig(1, Tanh))
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Fits[0].Advice; a != "" {
		t.Errorf("advice %q on 3000 clean games", a)
	}
	if len(rep.Warnings) != 0 {
		t.Errorf("warnings %v on planted chess values", rep.Warnings)
	}
}

func TestGamesToResolveExtrapolatesAsOneOverRootGames(t *testing.T) {
	cases := []struct {
		name         string
		games        int
		unit         Estimate
		want         int
		extrapolated bool
	}{
		// z = 0.2 / (0.392/3.92) = 2: (2.8/2)^2 = 1.96 times the games.
		{"z 2", 1000, Estimate{Point: 0.2, Lo: 0.004, Hi: 0.396}, 1961, true},
		{"already resolved", 5000, Estimate{Point: 0.2, Lo: 0.15, Hi: 0.25}, 5001, true},
		{"never below the floor", 50, Estimate{Point: 0.2, Lo: 0.004, Hi: 0.396}, MinAdviceGames, true},
		{"not positive", 400, Estimate{Point: -0.1, Lo: -0.3, Hi: 0.1}, 4000, false},
		{"unbounded", 200, Estimate{Point: 0.1, Lo: math.Inf(-1), Hi: 1}, 2000, false},
	}
	for _, c := range cases {
		got, ex := GamesToResolve(c.games, c.unit)
		if got != c.want || ex != c.extrapolated {
			t.Errorf("%s: GamesToResolve(%d, %+v) = %d, %v; want %d, %v", c.name, c.games, c.unit, got, ex, c.want, c.extrapolated)
		}
	}
}

func TestWeakPlayerNamesThePlayersTooWeakForPieceValues(t *testing.T) {
	for spec, weak := range map[string]bool{
		"random": true, "greedy": true, "alphabeta:1": true, "alphabeta:2": true, "AlphaBeta:2": true,
		"alphabeta:3": false, "engine:nodes=2000": false, "models/fbgc.safetensors:64": false,
	} {
		w := WeakPlayer(spec)
		if (w != "") != weak {
			t.Errorf("WeakPlayer(%q) = %q, want weak %v", spec, w, weak)
		}
		if weak && (!strings.Contains(w, spec) || !strings.Contains(w, "engine:nodes=")) {
			t.Errorf("WeakPlayer(%q) = %q: want the player named and the engine suggested", spec, w)
		}
	}
}

func TestImplausibleNamesTheFiguresNoStrongPlayerGives(t *testing.T) {
	v := func(x float64) *Estimate { return &Estimate{Point: x, Lo: x - 0.1, Hi: x + 0.1} }
	fit := func(unit float64, n, b, r, q float64) FitResult {
		return FitResult{Method: Logistic, Normalised: true, Pieces: []PieceValue{
			{Piece: "P", Value: v(unit)}, {Piece: "N", Value: v(n)}, {Piece: "B", Value: v(b)}, {Piece: "R", Value: v(r)}, {Piece: "Q", Value: v(q)}}}
	}
	cases := []struct {
		name string
		unit string
		fit  FitResult
		want []string // fragments of the one warning; none for a plausible fit
	}{
		{"Tomašev's values", "P", fit(1, 3.05, 3.33, 5.63, 9.5), nil},
		{"alphabeta:2's Q/R 2.8 is inside", "P", fit(1, 1.7, 2.0, 4.0, 11.2), nil},
		{"queen below a rook", "P", fit(1, 3, 3, 5, 4), []string{"a queen (4.00) below a rook (5.00)"}},
		{"queen below a minor", "P", fit(1, 3, 4.5, 5, 4), []string{"a queen (4.00) below a minor piece B (4.50)"}},
		{"officer below a pawn", "P", fit(1, 0.6, 3, 5, 9), []string{"N (0.60) below a pawn (1.00)"}},
		{"Q/R too high", "P", fit(1, 1, 2, 3, 12), []string{"Q/R 4.00 (12.00 / 3.00), outside [1.2, 3]"}},
		{"Q/R too low", "P", fit(1, 3, 3, 8, 9), []string{"Q/R 1.12 (9.00 / 8.00), outside [1.2, 3]"}},
		{"in rook units, a knight below a pawn", "R", fit(0.3, 0.2, 0.6, 1, 1.8), []string{"N (0.20) below a pawn (0.30)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Implausible(&Report{Unit: c.unit, Fits: []FitResult{c.fit, {Method: Search, Pieces: []PieceValue{{Piece: "Q", Coef: v(-1)}}}}})
			if len(c.want) == 0 {
				if len(got) != 0 {
					t.Errorf("Implausible = %q, want no warning", got)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0], "logistic fit") || !strings.Contains(got[0], "engine:nodes=") {
				t.Fatalf("Implausible = %q, want one warning on the logistic fit suggesting the engine", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got[0], w) {
					t.Errorf("warning %q lacks %q", got[0], w)
				}
			}
		})
	}
}
