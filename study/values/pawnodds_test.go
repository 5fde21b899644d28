package values

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// scoresOf returns n per-game scores with the given wins and draws (the
// rest losses).
func scoresOf(n, wins, draws int) []float64 {
	xs := make([]float64, n)
	for i := range n {
		switch {
		case i < wins:
			xs[i] = 1
		case i < wins+draws:
			xs[i] = 0.5
		}
	}
	return xs
}

// The pawn-odds reading puts the imbalance into the player's own pawns:
// atanh(2s1-1) over the drop a pawn makes, with a bootstrap interval, and
// says what is missing when the data cannot give it, never NaN.
func TestPawnOddsReadsTheImbalanceInThePlayersOwnPawns(t *testing.T) {
	d1, d2 := math.Atanh(0.6), math.Atanh(0.3) // scores 0.8 and 0.65
	cases := []struct {
		name         string
		scores, odds []float64
		aGave        bool
		pawn, units  float64 // planted; NaN: none expected
		note         string
	}{
		{"A gives the pawn", scoresOf(400, 320, 0), scoresOf(400, 260, 0), true, d1 - d2, d1 / (d1 - d2), ""},
		{"B gives the pawn", scoresOf(400, 80, 0), scoresOf(400, 140, 0), false, d1 - d2, -d1 / (d1 - d2), ""},
		{"with draws", scoresOf(400, 240, 160), scoresOf(400, 180, 160), true, d1 - d2, d1 / (d1 - d2), ""},
		{"one side won every game", scoresOf(40, 40, 0), scoresOf(40, 30, 0), true, math.NaN(), math.NaN(), "no finite estimate"},
		{"the pawn made no difference", scoresOf(40, 30, 0), scoresOf(40, 31, 0), true, -1, math.NaN(), "did not lower the giver's score"},
		{"too few games", scoresOf(12, 8, 0), scoresOf(12, 7, 0), true, 0, 0, "unbounded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ReadPawnOdds(c.scores, c.odds, c.aGave, 2000, 1)
			if err != nil {
				t.Fatal(err)
			}
			js, _ := json.Marshal(r)
			if strings.Contains(string(js), "NaN") || strings.Contains(r.Note, "NaN") {
				t.Errorf("NaN in %s", js)
			}
			if c.note != "" && !strings.Contains(r.Note, c.note) {
				t.Errorf("note %q, want %q", r.Note, c.note)
			}
			if c.note != "" && !strings.Contains(r.Note, "games") && !strings.Contains(r.Note, "play") {
				t.Errorf("note %q does not say what would fix it", r.Note)
			}
			switch {
			case math.IsNaN(c.pawn):
				if r.Pawn != nil {
					t.Errorf("pawn %+v, want none", r.Pawn)
				}
			case c.pawn > 0 && c.note == "":
				if r.Pawn == nil || math.Abs(r.Pawn.Point-c.pawn) > 1e-9 || !r.Pawn.Contains(c.pawn) {
					t.Errorf("pawn %+v, want %.4f inside", r.Pawn, c.pawn)
				}
			}
			if c.note == "" {
				if r.Units == nil || math.Abs(r.Units.Point-c.units) > 1e-9 || !r.Units.Bounded() || !r.Units.Contains(c.units) {
					t.Fatalf("units %+v, want %.4f inside a bounded interval", r.Units, c.units)
				}
			} else if math.IsNaN(c.units) && r.Units != nil {
				t.Errorf("units %+v, want none", r.Units)
			}
		})
	}
}
