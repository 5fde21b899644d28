package compare

import (
	"math"
	"testing"

	"bomberzero/study/values"
)

func TestIntervalPReadsTheStandardErrorFromTheInterval(t *testing.T) {
	for _, tc := range []struct {
		e    values.Estimate
		want float64
	}{
		{values.Estimate{Point: 1.959963984540054, Lo: 0, Hi: 2 * 1.959963984540054}, 0.05}, // se 1, z 1.96
		{values.Estimate{Point: 0, Lo: -1, Hi: 1}, 1},
		{values.Estimate{Point: 0, Lo: 0, Hi: 0}, 1},                   // the unit piece
		{values.Estimate{Point: 2, Lo: 2, Hi: 2}, 0},                   // no variance, a difference: certain
		{values.Estimate{Point: 2, Lo: 1, Hi: math.Inf(1)}, 1},         // unbounded: no reading
		{values.Estimate{Point: -0.41, Lo: -0.65, Hi: -0.14}, 0.00168}, // the F:R reading of the paired study
	} {
		if got := intervalP(tc.e); math.Abs(got-tc.want) > 1e-4 {
			t.Errorf("intervalP(%+v) = %.5f, want %.5f", tc.e, got, tc.want)
		}
	}
}

// Holm's correction runs over the game-level figures, the piece values
// variant against variant (the unit piece is not a test) and the imbalance
// readings as one family: a value difference at p = 0.046 that its own
// table would call real is within noise in a family of four.
func TestCorrectFamilyRunsHolmOverEveryFigureTheReportTests(t *testing.T) {
	f := values.Estimate{Point: 0.4, Lo: 0.4 - 1.959963984540054*0.2, Hi: 0.4 + 1.959963984540054*0.2} // z = 2
	res := &Result{
		Comparison: &values.Comparison{Differences: []values.Difference{
			{Metric: "White's score", P: 0.01, Delta: values.Estimate{Point: 0.02, Lo: 0.005, Hi: 0.035}},
			{Metric: "draw rate", P: 0.5, Delta: values.Estimate{Point: 0.01, Lo: -0.02, Hi: 0.04}},
		}},
		ValueDifferences: []PieceDifference{
			{Piece: "P", Diff: values.Estimate{}, P: intervalP(values.Estimate{})},
			{Piece: "F", Diff: f, P: intervalP(f), WithinNoise: false},
		},
		Imbalances: []ImbalanceStudy{{Differences: []ImbalanceDifference{
			{Delta: values.Estimate{Point: -0.41, Lo: -0.65, Hi: -0.14}, P: intervalP(values.Estimate{Point: -0.41, Lo: -0.65, Hi: -0.14})},
		}}},
	}
	if n := correctFamily(res); n != 4 {
		t.Fatalf("family of %d figures, want 4 (two game-level, one value, one imbalance)", n)
	}
	pF := res.ValueDifferences[1].P
	want := values.HolmAdjust([]float64{0.01, 0.5, pF, res.Imbalances[0].Differences[0].P})
	got := []*float64{res.Comparison.Differences[0].PHolm, res.Comparison.Differences[1].PHolm, res.ValueDifferences[1].PHolm, res.Imbalances[0].Differences[0].PHolm}
	for i := range want {
		if got[i] == nil || math.Abs(*got[i]-want[i]) > 1e-12 {
			t.Errorf("figure %d: Holm p %v, want %v", i, got[i], want[i])
		}
	}
	if res.ValueDifferences[0].PHolm != nil {
		t.Error("the unit piece was counted as a test")
	}
	if math.Abs(pF-0.0455) > 0.001 || !res.ValueDifferences[1].WithinNoise {
		t.Errorf("F difference raw p %.4f, within noise %v: want about 0.046, within noise after the correction", pF, res.ValueDifferences[1].WithinNoise)
	}
	if res.Comparison.Differences[0].WithinNoise || res.Imbalances[0].Differences[0].WithinNoise {
		t.Error("White's score (0.01 x 3) and the imbalance (0.0017 x 4) should stay real differences")
	}
	if !res.Comparison.Differences[1].WithinNoise {
		t.Error("the draw rate at p = 0.5 came out real")
	}
}
