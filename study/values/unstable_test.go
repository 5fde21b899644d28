package values

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// An unstable pawn (its coefficient not positive in some bootstrap
// replicates) leaves the other pieces' intervals unbounded, but the pawn is
// still worth exactly one pawn, and nothing prints an infinity as a number.
func TestUnstableUnitIsStillWorthExactlyOne(t *testing.T) {
	m := ChessModel(false)
	rep, err := PieceValues(m.Games(8, 1), synthConfig(1, Tanh))
	if err != nil {
		t.Fatal(err)
	}
	f := &rep.Fits[0]
	if !f.Normalised || !strings.Contains(strings.Join(f.Notes, "\n"), "was not positive in") {
		t.Fatalf("normalised %v, notes %v: this data set no longer makes an unstable pawn; pick another", f.Normalised, f.Notes)
	}
	if p := pieceValue(t, f, "P"); p != (Estimate{Point: 1, Lo: 1, Hi: 1}) {
		t.Errorf("pawn value %+v, want exactly 1 [1, 1]", p)
	}
	for i, x := range f.ValueReplicates["P"] {
		if x != 1 {
			t.Fatalf("pawn replicate %d is %v, want 1", i, x)
		}
	}
	unbounded := 0
	for _, pv := range f.Pieces {
		if pv.Value != nil && !pv.Value.Bounded() {
			unbounded++
		}
	}
	if unbounded == 0 {
		t.Errorf("no piece has an unbounded interval; the test needs one")
	}
	if d := ValueDifference(f, f, "P"); d == nil || *d != (Estimate{}) {
		t.Errorf("pawn minus pawn %+v, want exactly 0 [0, 0]", d)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if s := text.String(); strings.Contains(s, "-inf, +inf") || strings.Contains(strings.ToLower(s), "nan") {
		t.Errorf("text report prints an interval open on both sides as numbers:\n%s", s)
	}
	assertNoNaN(t, rep)
}

func TestEstimateFormat(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		e       Estimate
		digits  int
		want    string
		bounded bool
	}{
		{Estimate{4.18, 3.933, 4.4215}, 2, "4.18 [3.93, 4.42]", true},
		{Estimate{0.5, 0.49, 0.51}, 3, "0.500 [0.490, 0.510]", true},
		{Estimate{7.9, 2.49, inf}, 2, "7.90 [2.49, +inf]", false},
		{Estimate{-3, -inf, -1}, 1, "-3.0 [-inf, -1.0]", false},
		{Estimate{11.8, -inf, inf}, 2, "11.80 (no bounded interval)", false},
	} {
		if got := c.e.Format(c.digits); got != c.want {
			t.Errorf("%+v.Format(%d) = %q, want %q", c.e, c.digits, got, c.want)
		}
		if got := c.e.Bounded(); got != c.bounded {
			t.Errorf("%+v.Bounded() = %v", c.e, got)
		}
	}
}
