package values

import (
	"math"
	"strings"
	"testing"
)

func TestImbalanceSumIsYMinusX(t *testing.T) {
	for _, tc := range []struct{ x, y, want, err string }{
		{"Q", "R+R", "R+R-Q", ""},
		{"R", "B+P", "B+P-R", ""},
		{"B+B", "N+N", "N+N-B-B", ""},
		{"a1", "Q", "", "squares cannot be set beside a fit"},
	} {
		got, err := ImbalanceSum(tc.x, tc.y)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ImbalanceSum(%q, %q) = %q, %v; want an error with %q", tc.x, tc.y, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ImbalanceSum(%q, %q) = %q, %v; want %q", tc.x, tc.y, got, err, tc.want)
		}
	}
}

// The numbers of docs/RESULTS.md's Stockfish pairs: Q against R+R agrees
// with the whole-game fit, N against three pawns does not.
func TestBesideCombinesHalfWidthsInQuadrature(t *testing.T) {
	for _, tc := range []struct {
		name       string
		imb, fit   Estimate
		diff       Estimate
		agree      bool
		unreadable bool
	}{
		{"Q R+R", Estimate{-1.19, -1.69, -0.93}, Estimate{-0.55, -1.36, 0.30}, Estimate{-0.64, -0.64 - math.Hypot(0.50, 0.85), -0.64 + math.Hypot(0.26, 0.81)}, true, false},
		{"N P+P+P", Estimate{-0.75, -0.98, -0.60}, Estimate{-0.08, -0.44, 0.25}, Estimate{-0.67, -0.67 - math.Hypot(0.23, 0.33), -0.67 + math.Hypot(0.15, 0.36)}, false, false},
		{"unbounded", Estimate{-0.75, math.Inf(-1), -0.60}, Estimate{-0.08, -0.44, 0.25}, Estimate{}, false, true},
	} {
		fit := tc.fit
		imb := tc.imb
		b := BesideFit{Imbalance: &imb, Fit: Sum{Expr: "x", Value: &fit}}
		b.Beside()
		if tc.unreadable {
			if b.Difference != nil || b.Agree != nil || b.Note == "" {
				t.Errorf("%s: %+v, want no reading and a note", tc.name, b)
			}
			continue
		}
		d := b.Difference
		if d == nil || math.Abs(d.Point-tc.diff.Point) > 1e-9 || math.Abs(d.Lo-tc.diff.Lo) > 1e-9 || math.Abs(d.Hi-tc.diff.Hi) > 1e-9 || *b.Agree != tc.agree {
			t.Errorf("%s: difference %+v agree %v, want %+v %v", tc.name, d, b.Agree, tc.diff, tc.agree)
		}
	}
	b := BesideFit{Imbalance: &Estimate{1, 0, 2}, Fit: Sum{Expr: "N-Q", Note: "Q has no value in the logistic fit"}}
	b.Beside()
	if b.Difference != nil || !strings.Contains(b.Note, "Q has no value") {
		t.Errorf("a fit without the value: %+v", b)
	}
	fit := Estimate{0, -1, 1}
	b = BesideFit{Fit: Sum{Expr: "N-Q", Value: &fit}}
	b.Beside()
	if b.Difference != nil || !strings.Contains(b.Note, "no reading in pawns") {
		t.Errorf("a match without a reading in pawns: %+v", b)
	}
}
