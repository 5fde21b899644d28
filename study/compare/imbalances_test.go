package compare

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestParseImbalancePairs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []ImbalancePair
		err  bool
	}{
		{"F:R", []ImbalancePair{{"F", "R"}}, false},
		{"F:R, F:B ,F:N", []ImbalancePair{{"F", "R"}, {"F", "B"}, {"F", "N"}}, false},
		{"a1:b10", []ImbalancePair{{"a1", "b10"}}, false},
		{"F", nil, true},
		{"F:", nil, true},
		{":R", nil, true},
		{"F:R:B", nil, true},
		{"F:R,", nil, true},
		{"", nil, true},
	} {
		got, err := ParseImbalancePairs(tc.in)
		if (err != nil) != tc.err || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseImbalancePairs(%q) = %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.err)
		}
		if err != nil && !strings.Contains(err.Error(), "X:Y") {
			t.Errorf("ParseImbalancePairs(%q): error %q does not say what is expected", tc.in, err)
		}
	}
}

// A comparison with --imbalance plays the pair in every variant with the
// same player and seeds, reads each in pawns and compares the variants: a
// side without its queen against a side without a pawn loses in both
// rule sets, and the difference between them carries an interval around
// its point.
func TestRunPlaysEachImbalanceInEveryVariant(t *testing.T) {
	cfg := Config{Variants: []string{"fbgc", "fbgc-superpower"}, Player: "alphabeta:2", Games: 2, MaxPlies: 300, Seed: 3,
		Bootstrap: 50, NoValues: true, Anchors: []string{}, Workers: 1,
		Imbalances: []ImbalancePair{{X: "Q", Y: "P"}}, ImbalanceGames: 40}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Imbalances) != 1 || len(res.Imbalances[0].Results) != 2 {
		t.Fatalf("imbalances %+v, want one pair played in two variants", res.Imbalances)
	}
	st := res.Imbalances[0]
	for i, r := range st.Results {
		if r.Variant != cfg.Variants[i] || r.X != "Q" || r.Y != "P" || r.Games != 40 || r.Seed != cfg.Seed || r.Player != "alphabeta:2" {
			t.Errorf("variant %d: %s %s:%s, %d games, seed %d, player %s; want %s Q:P, 40 games, seed %d, alphabeta:2",
				i, r.Variant, r.X, r.Y, r.Games, r.Seed, r.Player, cfg.Variants[i], cfg.Seed)
		}
		if r.Reading.Score.Hi >= 0.5 {
			t.Errorf("%s: the side without its queen scores %v, want below 0.5", r.Variant, r.Reading.Score)
		}
		if r.PawnCoef != LichessPawnCoef {
			t.Errorf("%s: pawn coefficient %v without values, want Lichess's %v", r.Variant, r.PawnCoef, LichessPawnCoef)
		}
	}
	if len(st.Differences) != 1 {
		t.Fatalf("differences %+v, want one (superpower against fbgc)", st.Differences)
	}
	d := st.Differences[0]
	if d.A != "fbgc" || d.B != "fbgc-superpower" || !(d.Delta.Lo <= d.Delta.Point && d.Delta.Point <= d.Delta.Hi) || d.Delta.Hi-d.Delta.Lo <= 0 {
		t.Errorf("difference %+v, want superpower − fbgc with an interval around its point", d)
	}
	want := st.Results[1].Reading.Units.Point - st.Results[0].Reading.Units.Point
	if d.Delta.Point != want {
		t.Errorf("difference %v, want the readings' difference %v", d.Delta.Point, want)
	}
	// The paired score difference is the per-game lists' own, pair by pair.
	if len(st.ScoreDifferences) != 1 {
		t.Fatalf("score differences %+v, want one", st.ScoreDifferences)
	}
	sd := st.ScoreDifferences[0]
	var sum float64
	for j := range st.Results[0].Scores {
		sum += st.Results[1].Scores[j] - st.Results[0].Scores[j]
	}
	if sd.A != "fbgc" || sd.B != "fbgc-superpower" || sd.Pairs != 40 || sd.Higher+sd.Same+sd.Lower != 40 || math.Abs(sd.Mean.Point-sum/40) > 1e-12 {
		t.Errorf("score difference %+v, want superpower − fbgc over 40 pairs with mean %v", sd, sum/40)
	}
	// comparison.json carries the per-game scores, so anyone can recompute the pairs.
	if js, err := json.Marshal(st.Results[0]); err != nil || !strings.Contains(string(js), `"scores":[`) {
		t.Errorf("an imbalance result's JSON lacks its per-game scores (%v): %.200s", err, js)
	}
	if body := writeReport(t, t.TempDir(), res); !strings.Contains(body, "## Imbalance matches") || !strings.Contains(body, "| Q : P | fbgc-superpower − fbgc |") ||
		!strings.Contains(body, "| Q : P | fbgc-superpower − fbgc | 40 |") {
		t.Errorf("report lacks the imbalance tables:\n%s", body)
	}
}

// A pair naming a piece a variant does not have is refused before any
// game is played, naming the flag and the variant.
func TestValidateRefusesAnImbalanceAVariantCannotPlay(t *testing.T) {
	for _, p := range []ImbalancePair{{X: "Z", Y: "R"}, {X: "F", Y: "e5"}, {X: "K", Y: "R"}} {
		cfg := Config{Variants: []string{"fbgc", "fbgc-superpower"}, Games: 2, Imbalances: []ImbalancePair{p}}
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "--imbalance "+p.X+":"+p.Y+" in fbgc") {
			t.Errorf("imbalance %v: error %v, want one naming --imbalance and the variant", p, err)
		}
	}
	cfg := Config{Variants: []string{"fbgc", "fbgc-superpower"}, Games: 2, Imbalances: []ImbalancePair{{X: "F", Y: "R"}}, ImbalanceGames: 1}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "--imbalance-games") {
		t.Errorf("one imbalance game: error %v, want one naming --imbalance-games", err)
	}
}
