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

func TestImplausibleFlagsAQueenBelowARookAndAPieceBelowAPawn(t *testing.T) {
	v := func(x float64) *Estimate { return &Estimate{Point: x, Lo: x - 0.1, Hi: x + 0.1} }
	rep := &Report{Unit: "P", Fits: []FitResult{
		{Method: Logistic, Normalised: true, Pieces: []PieceValue{{Piece: "P", Value: v(1)}, {Piece: "N", Value: v(3)}, {Piece: "R", Value: v(5)}, {Piece: "Q", Value: v(9)}}},
		{Method: Tanh, Normalised: true, Pieces: []PieceValue{{Piece: "P", Value: v(1)}, {Piece: "N", Value: v(0.6)}, {Piece: "R", Value: v(5)}, {Piece: "Q", Value: v(4)}}},
		{Method: Search, Normalised: false, Pieces: []PieceValue{{Piece: "Q", Coef: v(-1)}}},
	}}
	got := Implausible(rep)
	if len(got) != 1 || !strings.Contains(got[0], "tanh fit") || !strings.Contains(got[0], "a queen (4.00) below a rook (5.00)") ||
		!strings.Contains(got[0], "N (0.60) below a pawn") || !strings.Contains(got[0], "engine:nodes=") {
		t.Errorf("Implausible = %q, want one warning on the tanh fit naming the queen and the knight", got)
	}
}

func TestCalibrationLineSaysWhenNoCalibrationWasRun(t *testing.T) {
	if l := CalibrationLine("engine:nodes=123"); !strings.Contains(l, "no chess calibration has been run for engine:nodes=123") {
		t.Errorf("CalibrationLine = %q", l)
	}
	if l := CalibrationLine("alphabeta:2"); !strings.Contains(l, "alphabeta:2") || !strings.Contains(l, "fails the chess check") {
		t.Errorf("CalibrationLine(alphabeta:2) = %q, want its failed check", l)
	}
	if l := CalibrationLine("engine:nodes=1000"); !strings.Contains(l, "fails the chess check on 2997 games") || !strings.Contains(l, "Stockfish") {
		t.Errorf("CalibrationLine(engine:nodes=1000) = %q, want the pilot's failed check and the engine's strength", l)
	}
}
