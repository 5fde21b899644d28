package values

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"bomberzero/env"
)

func TestPhaseBinsSplitByOfficersAtQuantiles(t *testing.T) {
	cols := []int{1} // column 1 counts officers
	rowsOf := func(officers ...int32) []sampled {
		var rows []sampled
		for _, n := range officers {
			rows = append(rows, sampled{pos: &Position{White: []int32{8, n}, Black: []int32{8, 0}}})
		}
		return rows
	}
	for _, tc := range []struct {
		name     string
		officers []int32
		k        int
		bins     []int
		labels   []string
	}{
		{"two halves", []int32{14, 13, 12, 4, 3, 2}, 2, []int{0, 0, 0, 1, 1, 1}, []string{"5-14", "2-4"}},
		{"three thirds", []int32{14, 14, 9, 8, 2, 1}, 3, []int{0, 0, 1, 1, 2, 2}, []string{"10-14", "3-9", "1-2"}},
		{"ties merge bins", []int32{14, 14, 14, 14, 2, 2}, 4, []int{0, 0, 0, 0, 1, 1}, []string{"3-14", "2-2"}},
		{"one count, one bin", []int32{7, 7, 7}, 3, []int{0, 0, 0}, []string{"7-7"}},
	} {
		bins, n, labels := phaseBins(rowsOf(tc.officers...), cols, tc.k)
		if !slices.Equal(bins, tc.bins) || n != len(tc.labels) || !slices.Equal(labels, tc.labels) {
			t.Errorf("%s: bins %v (%d) labels %v, want %v (%d) %v", tc.name, bins, n, labels, tc.bins, len(tc.labels), tc.labels)
		}
	}
}

// phasedGames draws games whose result follows the phased model: half are
// opening positions (all rooks on, knights and pawns traded) where
// material decides at scale open, half endgames (no knights, rooks and
// pawns traded) at scale end, with the values P 1, N 3, R 5. Rooks differ
// only in endgames and knights only in openings, so one scale for both
// phases measures the rook at the endgame's scale and the knight at the
// opening's, against a pawn measured at their mixture.
func phasedGames(n int, seed uint64, open, end float64) *Dataset {
	rng := rand.New(rand.NewPCG(seed, 11))
	ds := &Dataset{Pieces: []string{"P", "N", "R", "K"}}
	for gi := 0; gi < n; gi++ {
		w := []int32{8 - int32(rng.IntN(3)), 0, 2, 1}
		b := []int32{8 - int32(rng.IntN(3)), 0, 2, 1}
		scale := open
		if gi%2 == 0 { // an opening: knights on, one may be gone
			w[1], b[1] = 2-int32(rng.IntN(2)), 2-int32(rng.IntN(2))
		} else { // an endgame: one rook a side at most
			w[2], b[2] = int32(rng.IntN(2)), int32(rng.IntN(2))
			scale = end
		}
		z := scale * (float64(w[0]-b[0]) + 3*float64(w[1]-b[1]) + 5*float64(w[2]-b[2]))
		result := -1
		if rng.Float64() < 1/(1+math.Exp(-z)) {
			result = 1
		}
		g := Game{ID: fmt.Sprintf("g%d", gi), Variant: "synthetic", Result: result, Length: 1, Termination: env.Checkmate, Index: gi,
			Positions: []Position{{Ply: 0, WhiteToMove: true, White: w, Black: b}}}
		ds.Games = append(ds.Games, g)
	}
	return ds
}

func TestPhasedFitRecoversValuesThatOneScaleDistorts(t *testing.T) {
	const open, end = 0.4, 1.0 // the planted scales: the endgame's is 2.5 times the opening's
	ds := phasedGames(20000, 1, open, end)
	fit := func(bins int) *FitResult {
		rep, err := PieceValues(ds, Config{Methods: []Method{Logistic}, Seed: 3, Bootstrap: 40, PhaseBins: bins})
		if err != nil {
			t.Fatal(err)
		}
		return &rep.Fits[0]
	}
	plain, phased := fit(0), fit(2)
	for piece, want := range map[string]float64{"N": 3, "R": 5} {
		// Seeds 1-6 of these data put N in [2.83, 2.99] and R in [4.72, 5.25].
		if got := pieceValue(t, phased, piece); math.Abs(got.Point/want-1) > 0.1 {
			t.Errorf("phased fit: %s %.2f [%.2f, %.2f], want within 10%% of the planted %g", piece, got.Point, got.Lo, got.Hi, want)
		}
		if got := pieceValue(t, plain, piece); got.Contains(want) {
			t.Errorf("one-scale fit: %s %.2f [%.2f, %.2f] holds the planted %g; the test's data should distort it", piece, got.Point, got.Lo, got.Hi, want)
		}
	}
	if plain.Phases != nil {
		t.Errorf("one-scale fit has phases %+v", plain.Phases)
	}
	if len(phased.Phases) != 2 {
		t.Fatalf("phased fit: phases %+v, want 2 bins", phased.Phases)
	}
	if p := phased.Phases; p[0].Officers != "3-8" || p[1].Officers != "0-2" || p[0].Scale != 1 || p[0].Positions+p[1].Positions != phased.Positions {
		t.Errorf("phased fit: bins %+v, want 3-8 officers at scale 1 then 0-2, holding the fit's %d positions", p, phased.Positions)
	}
	// Seeds 1-6 give the endgame's scale 2.27-2.62 against the planted 2.5.
	if got := phased.Phases[1].Scale; math.Abs(got/(end/open)-1) > 0.15 {
		t.Errorf("phased fit: the endgame's scale %.2f, want within 15%% of the planted %.2f", got, end/open)
	}
	if !slices.ContainsFunc(phased.Notes, func(n string) bool { return strings.HasPrefix(n, "phased model: the material term's scale") }) {
		t.Errorf("phased fit's notes %q name no scales", phased.Notes)
	}
	if _, err := PieceValues(ds, Config{Methods: []Method{Logistic}, PhaseBins: MaxPhaseBins + 1}); err == nil {
		t.Errorf("PhaseBins %d accepted", MaxPhaseBins+1)
	}
	if _, err := PieceValues(ds, Config{Methods: []Method{Logistic}, PhaseBins: -1}); err == nil {
		t.Errorf("PhaseBins -1 accepted")
	}
}

// One bin is the plain model: PhaseBins 1, and PhaseBins 3 on positions
// whose officers all fall into one bin, give the plain fit's report exactly
// (the latter with a note saying so).
func TestPhasedFitWithOneBinIsThePlainFit(t *testing.T) {
	ds := phasedGames(2000, 2, 0.4, 1.0)
	oneCount := phasedGames(2000, 2, 0.4, 1.0)
	for gi := range oneCount.Games {
		pos := &oneCount.Games[gi].Positions[0]
		pos.White[1], pos.Black[1], pos.White[2], pos.Black[2] = 1, 1, 1, 1 // 4 officers in every position
	}
	for _, tc := range []struct {
		name string
		ds   *Dataset
		bins int
		note bool
	}{
		{"PhaseBins 1", ds, 1, false},
		{"one officer count", oneCount, 3, true},
	} {
		for _, m := range []Method{Logistic, Tanh} {
			cfg := Config{Methods: []Method{m}, Seed: 5, Bootstrap: 20, Workers: 2}
			plain, err := PieceValues(tc.ds, cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.PhaseBins = tc.bins
			phased, err := PieceValues(tc.ds, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if tc.note {
				n := len(phased.Fits[0].Notes)
				if n == 0 || !strings.Contains(phased.Fits[0].Notes[n-1], "one bin") {
					t.Errorf("%s, %s: notes %q, want the last to say the officers fall into one bin", tc.name, m, phased.Fits[0].Notes)
				} else {
					phased.Fits[0].Notes = phased.Fits[0].Notes[:n-1]
				}
			}
			if !reflect.DeepEqual(plain, phased) {
				a, _ := json.Marshal(plain)
				b, _ := json.Marshal(phased)
				t.Errorf("%s, %s: the phased report differs from the plain one:\n%s\n%s", tc.name, m, a, b)
			}
		}
	}
}

// Degenerate bins get a note and finite numbers, never NaN: a bin with no
// material difference (its scale not identified), and a bin where material
// decided every game (separation).
func TestPhasedFitDegenerateBinsSayWhy(t *testing.T) {
	level := phasedGames(4000, 3, 0.4, 1.0)
	separated := phasedGames(4000, 3, 0.4, 1.0)
	for gi := range level.Games {
		g := &level.Games[gi]
		if pos := &g.Positions[0]; gi%2 == 1 { // endgames: no material difference
			pos.White[0], pos.White[2] = pos.Black[0], pos.Black[2]
		}
		if pos := &separated.Games[gi].Positions[0]; gi%2 == 1 { // endgames: the side ahead always wins
			sg := &separated.Games[gi]
			z := float64(pos.White[0]-pos.Black[0]) + 5*float64(pos.White[2]-pos.Black[2])
			switch {
			case z > 0:
				sg.Result = 1
			case z < 0:
				sg.Result = -1
			}
		}
	}
	for _, tc := range []struct {
		name string
		ds   *Dataset
		want string
	}{
		{"no material difference", level, "no position with a material difference"},
		{"separation", separated, "separation"},
	} {
		rep, err := PieceValues(tc.ds, Config{Methods: []Method{Logistic, Tanh}, Seed: 1, Bootstrap: 20, PhaseBins: 2})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, f := range rep.Fits {
			if !slices.ContainsFunc(f.Notes, func(n string) bool { return strings.Contains(n, tc.want) }) {
				t.Errorf("%s, %s: notes %q, want one saying %q", tc.name, f.Method, f.Notes, tc.want)
			}
			for _, ps := range f.Phases {
				if math.IsNaN(ps.Scale) || math.IsInf(ps.Scale, 0) {
					t.Errorf("%s, %s: bin %s scale %v", tc.name, f.Method, ps.Officers, ps.Scale)
				}
			}
			if _, err := json.Marshal(f); err != nil { // NaN or Inf would fail to encode
				t.Errorf("%s, %s: %v", tc.name, f.Method, err)
			}
		}
	}
}

func TestPhaseMixSplitsByThirdsOfTheStartsOfficers(t *testing.T) {
	// Pieces P, N, R, K: N and R are officers. The first game starts with
	// 12 officers, so the endgame holds 0-4, the middlegame 5-8, the
	// opening 9-12.
	pos := func(n, r int32) Position {
		return Position{White: []int32{8, n, r, 1}, Black: []int32{8, n, r, 1}}
	}
	ds := &Dataset{Pieces: []string{"P", "N", "R", "K"}, Games: []Game{
		{Positions: []Position{pos(4, 2), pos(3, 2), pos(2, 2), pos(1, 1)}},
		{Positions: []Position{pos(2, 0), pos(1, 1), pos(0, 1), pos(0, 0)}},
	}}
	var rows []sampled
	for g := range ds.Games {
		for i := range ds.Games[g].Positions {
			rows = append(rows, sampled{game: g, pos: &ds.Games[g].Positions[i]})
		}
	}
	// Officers per row: 12, 10, 8, 4 | 4, 4, 2, 0.
	want := []PhaseShare{
		{Phase: "opening", Officers: "9-12", Positions: 2, Share: 0.25},
		{Phase: "middlegame", Officers: "5-8", Positions: 1, Share: 0.125},
		{Phase: "endgame", Officers: "0-4", Positions: 5, Share: 0.625},
	}
	if got := phaseMix(ds, rows); !reflect.DeepEqual(got, want) {
		t.Errorf("phaseMix = %+v, want %+v", got, want)
	}
	// A fit reports the mix of the positions it sampled.
	rep, err := PieceValues(phasedGames(400, 3, 0.4, 1.0), Config{Methods: []Method{Logistic}, Seed: 1, Bootstrap: 2})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range rep.PhaseMix {
		total += s.Positions
	}
	if len(rep.PhaseMix) != 3 || total != rep.Sampled {
		t.Errorf("the fit's phase mix %+v covers %d positions, want 3 phases and the %d sampled", rep.PhaseMix, total, rep.Sampled)
	}
	if got := phaseMix(ds, nil); got != nil {
		t.Errorf("no rows: %+v, want nil", got)
	}
	pawns := &Dataset{Pieces: []string{"P", "K"}, Games: []Game{{Positions: []Position{{White: []int32{8, 1}, Black: []int32{8, 1}}}}}}
	if got := phaseMix(pawns, []sampled{{pos: &pawns.Games[0].Positions[0]}}); got != nil {
		t.Errorf("no officers: %+v, want nil", got)
	}
	line := phaseMixText(want)
	for _, s := range []string{"opening (9-12 officers) 25%", "middlegame (5-8 officers) 12%", "endgame (0-4 officers) 62%"} {
		if !strings.Contains(line, s) {
			t.Errorf("line %q lacks %q", line, s)
		}
	}
}

// The named phases split at half the start's officers, counted from each
// variant's own start position.
func TestPhaseBoundsSplitAtHalfTheStartsOfficers(t *testing.T) {
	// Officers a side in RULES.md's start positions (section 6): chess
	// N B R Q 2+2+2+1; FBGC and Hangars add two bombers; Birds and Ninjas
	// two Ninja Guards more; Claustrophobia F F N N G G M.
	for _, tc := range []struct {
		variant string
		perSide int
	}{{"chess", 7}, {"fbgc", 9}, {"fbgc-superpower", 9}, {"hangars", 9}, {"birds-ninjas", 11}, {"birds-ninjas-setup2", 11}, {"claustrophobia", 7}} {
		if n, err := StartOfficers(tc.variant); err != nil || n != 2*tc.perSide {
			t.Errorf("StartOfficers(%s) = %d, %v; want %d", tc.variant, n, err, 2*tc.perSide)
		}
	}
	if _, err := StartOfficers("no-such-variant"); err == nil {
		t.Error("StartOfficers of an unknown variant: no error")
	}
	cases := []struct {
		phase  string
		start  int
		lo, hi int
		fails  bool
	}{
		{PhaseMiddlegame, 14, 7, 28, false},
		{PhaseEndgame, 14, 0, 6, false},
		{PhaseMiddlegame, 15, 8, 30, false},
		{PhaseEndgame, 15, 0, 7, false},
		{PhaseEndgame, 2, 0, 0, true},
		{PhaseMiddlegame, 1, 0, 0, true},
		{"opening", 14, 0, 0, true},
	}
	for _, tc := range cases {
		lo, hi, err := PhaseBounds(tc.phase, tc.start)
		if (err != nil) != tc.fails || lo != tc.lo || hi != tc.hi {
			t.Errorf("PhaseBounds(%q, %d) = %d, %d, %v; want %d, %d, error %v", tc.phase, tc.start, lo, hi, err, tc.lo, tc.hi, tc.fails)
		}
	}
}
