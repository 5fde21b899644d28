package compare

import (
	"math"
	"testing"

	"bomberzero/env"
	"bomberzero/stats"
	"bomberzero/study/values"
)

func TestUtilisationCountsTheMovesOnlyTheSuperPowerBomberHas(t *testing.T) {
	// With an enemy pawn beside it, the Super Power bomber may land two or
	// three squares past it (f4-i4, f4-j4), the limited one only on the
	// square behind (f4-h4): perft --divide of both variants says so.
	const beside = "9k/10/10/10/10/10/5Fp3/10/10/9K w - - 0 1"
	const alone = "9k/10/10/10/10/10/5F4/10/10/9K w - - 0 1"
	ds := &values.Dataset{Games: []values.Game{
		{ID: "used", Variant: "fbgc-superpower", Result: 1, Positions: []values.Position{
			{Ply: 0, WhiteToMove: true, Text: alone, Played: "f4-f5"},
			{Ply: 2, WhiteToMove: true, Text: beside, Played: "f4-i4;g4-"},
		}},
		{ID: "available", Variant: "fbgc-superpower", Result: -1, Positions: []values.Position{
			{Ply: 0, WhiteToMove: true, Text: beside, Played: "f4-h4;g4-"},
		}},
		{ID: "never", Variant: "fbgc-superpower", Result: 0, Positions: []values.Position{
			{Ply: 0, WhiteToMove: true, Text: alone, Played: "f4-f6"},
		}},
		{ID: "other", Variant: "fbgc", Result: 1, Positions: []values.Position{
			{Ply: 0, WhiteToMove: true, Text: beside, Played: "f4-h4;g4-"},
		}},
	}}
	sp, err := env.LoadVariant("fbgc-superpower")
	if err != nil {
		t.Fatal(err)
	}
	base, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	u, err := MeasureUtilisation(ds, sp, base)
	if err != nil {
		t.Fatal(err)
	}
	want := Utilisation{Variant: "fbgc-superpower", Base: "fbgc", Games: 3, Positions: 4, Available: 2, Played: 1,
		GamesAvailable: 2, GamesUsed: 1, AfterFirstUse: stats.WDL{Wins: 1}}
	if *u != want {
		t.Errorf("utilisation %+v, want %+v", *u, want)
	}
	// The base rule set has no extra moves over itself.
	if u, err := MeasureUtilisation(ds, base, base); err != nil || u.Available != 0 || u.Games != 1 {
		t.Errorf("fbgc against itself: %+v, %v", u, err)
	}
}

// In a paired design a first use of an extra move is set beside the base
// game of its pair, where the two games were one up to that move.
func TestFirstUseIsComparedWithTheBaseGameOfItsPair(t *testing.T) {
	game := func(index, result int, moves ...string) values.Game {
		g := values.Game{Index: index, Result: result}
		for _, m := range moves {
			g.Positions = append(g.Positions, values.Position{Text: "start", Played: m})
		}
		return g
	}
	with := &values.Dataset{Games: []values.Game{
		game(0, 1, "a", "b", "LAND", "c"), // White lands at position 2 and wins
		game(1, -1, "a", "LAND", "c"),     // Black lands at position 1 and wins
		game(2, 0, "a", "x", "LAND"),      // not alike before the landing
		game(3, 1, "a", "b"),              // no landing
		game(4, 1, "a", "b", "c", "LAND"), // the base game ended before it
	}}
	base := &values.Dataset{Games: []values.Game{
		game(0, 0, "a", "b", "c", "d"), // drawn without the landing
		game(1, -1, "a", "d", "e"),     // Black won anyway
		game(2, 1, "a", "y", "z"),
		game(3, -1, "a", "b"),
		game(4, -1, "a", "b"),
	}}
	uses := map[int]firstUse{0: {pos: 2, side: 1}, 1: {pos: 1, side: -1}, 2: {pos: 2, side: 1}, 4: {pos: 3, side: 1}}
	u := &Utilisation{}
	u.measureAgainstBase(uses, base, with)
	ab := u.AgainstBase
	if ab == nil {
		t.Fatal("no comparison with the base games")
	}
	// Differences of the user's score: pair 0 +0.5 (a win for a draw),
	// pair 1 0 (a win both ways).
	se := math.Sqrt((0.25*0.25 + 0.25*0.25) / 1 / 2)
	if ab.Pairs != 2 || ab.With != (stats.WDL{Wins: 2}) || ab.Base != (stats.WDL{Wins: 1, Draws: 1}) ||
		math.Abs(ab.Score.Point-0.25) > 1e-12 || math.Abs(ab.Score.Hi-(0.25+1.96*se)) > 1e-12 {
		t.Errorf("against base %+v, want 2 pairs, +2 with, +1 =1 in the base games, +0.25 ± %.4f", ab, 1.96*se)
	}
	none := &Utilisation{}
	none.measureAgainstBase(map[int]firstUse{3: {pos: 5, side: 1}}, base, with)
	if none.AgainstBase != nil {
		t.Errorf("no pair alike up to a use: %+v, want nothing", none.AgainstBase)
	}
}
