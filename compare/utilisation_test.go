package compare

import (
	"testing"

	"bomberzero/env"
	"bomberzero/stats"
	"bomberzero/values"
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
