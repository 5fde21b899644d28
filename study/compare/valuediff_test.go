package compare

import (
	"strings"
	"testing"

	"bomberzero/study/values"
)

// Two rule sets whose rook is planted at 5 and 7 pawns: the comparison
// reports the rook's difference by each fit, logistic and tanh, and each
// interval holds the planted +2 and not 0, while the knight (the same in
// both) is within noise. The report shows both fits side by side.
func TestValueDifferencesByEachFitFindAPlantedRook(t *testing.T) {
	fit := func(rook float64, seed uint64) *values.Report {
		m := values.ChessModel(false, 1, 3, 3.3, rook, 9, 0)
		m.Decisive = 0.6
		rep, err := values.PieceValues(m.Games(6000, seed), values.Config{
			Sample:  values.SampleConfig{SkipPlies: 4, QuietPlies: 2, MaxPerGame: 4},
			Methods: []values.Method{values.Logistic, values.Tanh}, Seed: seed, Bootstrap: 100})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	reps := []*values.Report{fit(5, 1), fit(7, 2)}
	diffs := valueDifferences([]string{"a", "b"}, reps)
	got := map[values.Method]map[string]PieceDifference{}
	for _, d := range diffs {
		if got[d.Method] == nil {
			got[d.Method] = map[string]PieceDifference{}
		}
		got[d.Method][d.Piece] = d
	}
	for _, m := range []values.Method{values.Logistic, values.Tanh} {
		r, ok := got[m]["R"]
		if !ok || !r.Diff.Contains(2) || r.WithinNoise || r.A != "a" || r.B != "b" {
			t.Errorf("%s fit, rook 7 - rook 5: %+v (found %v), want an interval holding 2 and not 0", m, r, ok)
		}
		if n, ok := got[m]["N"]; !ok || !n.WithinNoise {
			t.Errorf("%s fit, the same knight: %+v (found %v), want within noise", m, n, ok)
		}
	}
	// A variant without a fit, or whose fits lack a method, drops out
	// instead of pairing different fits.
	tanhOnly := *reps[1]
	tanhOnly.Fits = []values.FitResult{*fitOf(reps[1], values.Tanh)}
	for _, d := range valueDifferences([]string{"lim", "sp"}, []*values.Report{reps[0], &tanhOnly}) {
		if d.Method != values.Tanh {
			t.Errorf("a %s difference against a report with only a tanh fit", d.Method)
		}
	}
	if d := valueDifferences([]string{"lim", "sp"}, []*values.Report{reps[0], nil}); d != nil {
		t.Errorf("differences against a variant without values: %v", d)
	}

	cfg := Config{Variants: []string{"a", "b"}, Games: 200, Seed: 1, Bootstrap: 50, NoValues: true}
	res, err := Analyze(cfg, nil, []*values.Dataset{synthetic("a", 200, 80, 40), synthetic("b", 200, 88, 40)})
	if err != nil {
		t.Fatal(err)
	}
	res.Comparison.Values, res.ValueDifferences = reps, diffs
	body := writeReport(t, t.TempDir(), res)
	for _, want := range []string{"| piece | logistic [95%] | tanh [95%] |", "| R | logistic | b − a |", "| R | tanh | b − a |"} {
		if !strings.Contains(body, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// Fits of too few games (the pawn's coefficient not positive in some
// replicates) give differences without bounds: the report says there is no
// reading instead of calling them "within noise" with infinities printed
// as numbers, and the pawn's own difference stays exactly 0.
func TestValueDifferencesOfTooFewGamesGiveNoReading(t *testing.T) {
	fit := func(seed uint64) *values.Report {
		m := values.ChessModel(false)
		rep, err := values.PieceValues(m.Games(8, seed), values.Config{
			Sample:  values.SampleConfig{SkipPlies: 4, QuietPlies: 2, MaxPerGame: 4},
			Methods: []values.Method{values.Tanh}, Seed: seed, Bootstrap: 200})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	reps := []*values.Report{fit(1), fit(2)}
	diffs := valueDifferences([]string{"a", "b"}, reps)
	unbounded := 0
	for _, d := range diffs {
		if d.Piece == "P" && d.Diff != (values.Estimate{}) {
			t.Errorf("pawn difference %+v, want exactly 0 [0, 0]", d.Diff)
		}
		if !d.Diff.Bounded() {
			unbounded++
		}
	}
	if unbounded == 0 {
		t.Fatalf("no unbounded difference among %+v; the test needs one", diffs)
	}
	var b strings.Builder
	writeValueDifferences(&b, &Result{ValueDifferences: diffs})
	body := b.String()
	if strings.Count(body, "no reading") != unbounded || strings.Contains(body, "Inf") {
		t.Errorf("%d unbounded differences; report:\n%s", unbounded, body)
	}
}
