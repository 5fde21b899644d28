package values

import (
	"slices"
	"strings"
	"testing"
)

// game builds a game whose positions, one per ply, have the given total
// pawn counts for White (Black keeps 8).
func pawnGame(whitePawns ...int32) *Game {
	g := &Game{ID: "g", Result: 1, Length: len(whitePawns)}
	for ply, n := range whitePawns {
		g.Positions = append(g.Positions, Position{Ply: ply, WhiteToMove: ply%2 == 0,
			White: []int32{n}, Black: []int32{8}})
	}
	return g
}

func TestSamplerSkipsOpeningAndPliesAfterCaptures(t *testing.T) {
	// Captures (count changes) arrive at plies 4 and 9.
	g := pawnGame(8, 8, 8, 8, 7, 7, 7, 7, 7, 6, 6, 6, 6)
	for _, tc := range []struct {
		skip, quiet int
		want        []int
	}{
		{0, 0, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{3, 0, []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{0, 1, []int{0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12}},
		{2, 2, []int{2, 3, 6, 7, 8, 11, 12}},
		{0, 5, []int{0, 1, 2, 3}}, // 4..8 and 9..13 skipped
	} {
		c := SampleConfig{SkipPlies: tc.skip, QuietPlies: tc.quiet}
		if got := c.Eligible(g); !slices.Equal(got, tc.want) {
			t.Errorf("skip %d quiet %d: kept %v, want %v", tc.skip, tc.quiet, got, tc.want)
		}
	}
}

func TestSamplerMeasuresQuietPliesInPliesNotRecords(t *testing.T) {
	// Only every other ply recorded: the capture first seen at ply 6
	// (record 3) with QuietPlies 3 skips plies 6 <= t < 9, that is records
	// 3 and 4 (plies 6 and 8), and keeps record 5 (ply 10).
	g := pawnGame(8, 8, 8, 7, 7, 7)
	for i := range g.Positions {
		g.Positions[i].Ply = 2 * i
	}
	c := SampleConfig{QuietPlies: 3}
	if got, want := c.Eligible(g), []int{0, 1, 2, 5}; !slices.Equal(got, want) {
		t.Errorf("kept records %v, want %v", got, want)
	}
}

func TestSamplerCapsPositionsPerGameReproducibly(t *testing.T) {
	ds := &Dataset{Pieces: []string{"P"}}
	for i := 0; i < 5; i++ {
		ds.Games = append(ds.Games, *pawnGame(8, 8, 8, 8, 8, 8, 8, 8, 8, 8))
	}
	c := SampleConfig{MaxPerGame: 3, Seed: 5}
	a, b := c.sample(ds, false), c.sample(ds, false)
	if len(a) != 15 {
		t.Fatalf("sampled %d positions, want 5 games x 3", len(a))
	}
	differs := false
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different sample at %d", i)
		}
		if i >= 3 && a[i].pos.Ply != a[i%3].pos.Ply {
			differs = true
		}
	}
	if !differs {
		t.Errorf("every game kept the same plies: the draw is not per game")
	}
	c.Seed = 6
	if d := c.sample(ds, false); slices.Equal(plies(d), plies(a)) {
		t.Errorf("another seed drew the same plies %v", plies(d))
	}
}

func plies(s []sampled) []int {
	var p []int
	for _, x := range s {
		p = append(p, x.pos.Ply)
	}
	return p
}

func TestSampleConfigRejectsNegativeSettings(t *testing.T) {
	for _, c := range []SampleConfig{{SkipPlies: -1}, {QuietPlies: -1}, {MaxPerGame: -1}} {
		if c.Validate() == nil {
			t.Errorf("%+v accepted", c)
		}
	}
	if err := DefaultSampleConfig().Validate(); err != nil {
		t.Errorf("default config: %v", err)
	}
}

func TestSamplerPhaseBounds(t *testing.T) {
	// Columns P, N, K; White's knights fall from 2 to 0 over the game,
	// Black keeps 2, so the officers (N only) go 4, 4, 3, 3, 2, 2.
	ds := &Dataset{Pieces: []string{"P", "N", "K"}}
	g := Game{ID: "g", Result: 1, Length: 6}
	for ply, n := range []int32{2, 2, 1, 1, 0, 0} {
		g.Positions = append(g.Positions, Position{Ply: ply, WhiteToMove: ply%2 == 0,
			White: []int32{8, n, 1}, Black: []int32{8, 2, 1}})
	}
	ds.Games = append(ds.Games, g)
	for _, tc := range []struct {
		name string
		c    SampleConfig
		want []int
	}{
		{"no bounds", SampleConfig{}, []int{0, 1, 2, 3, 4, 5}},
		{"plies 1-3", SampleConfig{SkipPlies: 1, MaxPly: 4}, []int{1, 2, 3}},
		{"max ply only", SampleConfig{MaxPly: 2}, []int{0, 1}},
		{"officers 3-4", SampleConfig{MinOfficers: 3, MaxOfficers: 4}, []int{0, 1, 2, 3}},
		{"officers 0-2", SampleConfig{MaxOfficers: 2}, []int{4, 5}},
		{"officers and plies", SampleConfig{MinOfficers: 3, MaxOfficers: 3, MaxPly: 3}, []int{2}},
		{"officers then spacing", SampleConfig{MinOfficers: 2, MaxOfficers: 3, Spacing: 2}, []int{2, 4}},
	} {
		if err := tc.c.Validate(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if got := tc.c.EligibleIn(ds, &ds.Games[0]); !slices.Equal(got, tc.want) {
			t.Errorf("%s: kept %v, want %v", tc.name, got, tc.want)
		}
		var sampled []int
		for _, s := range tc.c.sample(ds, false) {
			sampled = append(sampled, s.pos.Ply)
		}
		if !slices.Equal(sampled, tc.want) {
			t.Errorf("%s: sampled plies %v, want %v", tc.name, sampled, tc.want)
		}
	}
}

func TestSampleConfigRejectsEmptyPhases(t *testing.T) {
	for _, tc := range []struct {
		c    SampleConfig
		want string
	}{
		{SampleConfig{MaxPly: -1}, "MaxPly -1"},
		{SampleConfig{SkipPlies: 10, MaxPly: 10}, "keeps no ply"},
		{SampleConfig{MinOfficers: -1, MaxOfficers: 3}, "bounds >= 0"},
		{SampleConfig{MinOfficers: 3}, "without MaxOfficers"},
		{SampleConfig{MinOfficers: 5, MaxOfficers: 3}, "at most the upper"},
	} {
		err := tc.c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one saying %q", tc.c, err, tc.want)
		}
	}
}
