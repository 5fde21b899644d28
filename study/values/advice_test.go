package values

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// handGame is one game built by hand: its result from White's view and the
// piece differences (White minus Black, P N Q) it keeps from ply 4 on.
type handGame struct {
	result  int
	p, n, q int32
}

// handData builds a data set of chess material (P N Q K) from hand-made
// games of 24 plies, White's counts at the start 8 1 1 1 and the loser of
// each difference down by it from ply 4.
func handData(games []handGame) *Dataset {
	ds := &Dataset{Pieces: []string{"P", "N", "Q", "K"}}
	for i, g := range games {
		game := Game{ID: fmt.Sprintf("g%d", i), Variant: "chess", Result: g.result, Length: 24, Index: i}
		for ply := range 24 {
			w, b := []int32{8, 1, 1, 1}, []int32{8, 1, 1, 1}
			if ply >= 4 {
				for j, d := range []int32{g.p, g.n, g.q} {
					w[j] -= max(-d, 0)
					b[j] -= max(d, 0)
				}
			}
			game.Positions = append(game.Positions, Position{Ply: ply, WhiteToMove: ply%2 == 0, Text: "x", White: w, Black: b})
		}
		ds.Games = append(ds.Games, game)
	}
	return ds
}

// mixed returns n games where pawns and knights are traded and every
// result occurs whatever the material (rotating through the 18 cases).
func mixed(n int) []handGame {
	var out []handGame
	for i := range n {
		out = append(out, handGame{result: i%3 - 1, p: int32(i/3%3) - 1, n: int32(i/9%2)*2 - 1})
	}
	return out
}

// Degenerate data must say what is missing and about how many games would
// fix it, estimated from the rate observed, in words and numbers, never NaN
// or an infinity printed as a number, in the advice, the text report or
// the JSON.
func TestDegenerateDataSayWhatIsMissingAndHowManyGames(t *testing.T) {
	allDraws := ChessModel(true)
	allDraws.Decisive = 0
	noPawnTrades := ChessModel(false)
	noPawnTrades.Loss[0] = 0
	noKnightTrades := ChessModel(false)
	noKnightTrades.Loss[1] = 0
	few := ChessModel(false)
	separated := ChessModel(true, 40, 120, 132, 200, 360, 0) // one pawn more decides nearly every game
	separated.Decisive = 1
	// The queen: the side ahead in it wins every game.
	queenDecides := mixed(180)
	for i := range 60 {
		d := int32(i%2*2 - 1)
		queenDecides = append(queenDecides, handGame{result: int(d), p: int32(i%3) - 1, q: d})
	}
	// Two decisive games among 398 draws: many resamples draw neither.
	twoDecisive := []handGame{{result: 1, p: 1, n: 1}, {result: -1, p: -1}}
	for i := range 398 {
		twoDecisive = append(twoDecisive, handGame{p: int32(i%3) - 1, n: int32(i%2*2 - 1)})
	}
	cases := []struct {
		name   string
		data   *Dataset
		method Method
		want   []string // fragments of the advice (or of NoFitAdvice when the fit fails)
	}{
		// 300 games without a decisive one: rate < 3/300, so 300 decisive ones need at least 300·300/3 games.
		{"no decisive game", allDraws.Games(300, 1), Logistic, []string{"none of the 300 games was decisive", "no decisive game in 300 games puts its rate below 1.0% at 95%", "at least 30000 games"}},
		{"all draws in the tanh fit", allDraws.Games(300, 1), Tanh, []string{"none of these 300 games was decisive", "at least 30000 games"}},
		// 100 games where the unit is traded, at a rate below 3/300: at least 100·300/3.
		{"unit never traded", noPawnTrades.Games(300, 2), Tanh, []string{"unit piece P never changed hands in these 300 games", "at least 10000 games"}},
		{"a piece never traded", noKnightTrades.Games(300, 3), Tanh, []string{"never changed hands in these 300 games, so not valued: N (", "at least 10000 games"}},
		// 10 games where the queen did not decide, none in 240: at least 10·240/3.
		{"separation", handData(queenDecides), Logistic, []string{"separation: Q (ahead in it in 60 games, won all)", "no such game in 60 games puts its rate below 5.0% at 95%", "at least 1000 games",
			// the unit unresolved on the 180 decisive games: ten times them, scaled to all 240 games
			"rests on 180 games", "at least 2400 games (ten times these and at least 1000, as this fit keeps 180 of every 240 games"}},
		{"separation in the tanh fit", handData(queenDecides), Tanh, []string{"separation: Q (ahead in it in 60 games, won all)"}},
		{"coefficients held by the ridge", separated.Games(400, 4), Logistic, []string{"separation", "at least 4000 games"}},
		// ln(2·200) → 6 decisive games at 2 in 400: 6·400/2 games.
		{"bootstrap replicates fail", handData(twoDecisive), Logistic, []string{"bootstrap replicates drew none of the 2 decisive games", "about 6 decisive games", "at least 1200 games at this rate (2 decisive in 400)"}},
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
				for _, bad := range []string{"NaN", "Inf"} {
					if strings.Contains(b.String(), bad) {
						t.Errorf("the text report prints %s:\n%s", bad, b.String())
					}
				}
				js, err := json.Marshal(rep)
				if err != nil || !strings.Contains(string(js), `"advice"`) {
					t.Errorf("JSON %v without advice: %s", err, js)
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
