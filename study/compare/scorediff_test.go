package compare

import (
	"math"
	"strings"
	"testing"
)

func TestPairedScoreDifference(t *testing.T) {
	for _, tc := range []struct {
		name                string
		a, b                []float64
		mean, sd, p         float64
		higher, same, lower int
	}{
		// Identical games: no difference, certainly.
		{"same games", []float64{1, 0.5, 0, 1}, []float64{1, 0.5, 0, 1}, 0, 0, 1, 0, 4, 0},
		// Every pair half a point better in B: certain, with no spread.
		{"constant shift", []float64{0, 0.5, 0, 0.5}, []float64{0.5, 1, 0.5, 1}, 0.5, 0, 0, 4, 0, 0},
		// d = (1, 0, -0.5, 0.5): mean 0.25, squared deviations 0.5625,
		// 0.0625, 0.5625, 0.0625, so sd = sqrt(1.25/3) = 0.64550, se =
		// sd/2, z = 0.77460, p = erfc(z/sqrt 2) = 0.43858.
		{"hand computed", []float64{0, 1, 1, 0}, []float64{1, 1, 0.5, 0.5}, 0.25, math.Sqrt(1.25 / 3), 0.43858, 2, 1, 1},
	} {
		d, err := PairedScoreDifference(tc.a, tc.b)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if d.Pairs != len(tc.a) || math.Abs(d.Mean.Point-tc.mean) > 1e-12 || math.Abs(d.SD-tc.sd) > 1e-12 ||
			math.Abs(d.P-tc.p) > 5e-5 || d.Higher != tc.higher || d.Same != tc.same || d.Lower != tc.lower {
			t.Errorf("%s: %+v; want mean %v, sd %v, p %v, %d/%d/%d", tc.name, d, tc.mean, tc.sd, tc.p, tc.higher, tc.same, tc.lower)
		}
		half := 1.959963984540054 * tc.sd / math.Sqrt(float64(len(tc.a)))
		if math.Abs(d.Mean.Lo-(tc.mean-half)) > 1e-12 || math.Abs(d.Mean.Hi-(tc.mean+half)) > 1e-12 {
			t.Errorf("%s: interval %+v, want mean ± %v", tc.name, d.Mean, half)
		}
	}
}

func TestPairedScoreDifferenceRefusesUnpairedData(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []float64
		want string
	}{
		{"lengths", []float64{1, 0}, []float64{1}, "same games"},
		{"one pair", []float64{1}, []float64{0}, "at least 2"},
		{"not a score", []float64{1, 0.25}, []float64{1, 0}, "0, 0.5 or 1"},
		{"NaN", []float64{1, math.NaN()}, []float64{1, 0}, "0, 0.5 or 1"},
	} {
		if _, err := PairedScoreDifference(tc.a, tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}
