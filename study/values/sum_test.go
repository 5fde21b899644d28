package values

import (
	"maps"
	"math"
	"strings"
	"testing"
)

func TestParseSumReadsSignedPieceLetters(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want map[string]int
		err  string
	}{
		{"R+R-Q", map[string]int{"R": 2, "Q": -1}, ""},
		{" B + P - R ", map[string]int{"B": 1, "P": 1, "R": -1}, ""},
		{"-N+B", map[string]int{"N": -1, "B": 1}, ""},
		{"+Q", map[string]int{"Q": 1}, ""},
		{"N-N", map[string]int{"N": 0}, ""},
		{"", nil, "empty sum"},
		{"R+-Q", nil, "a sign without a piece"},
		{"R+", nil, "a sign without a piece"},
		{"r-Q", nil, "not a piece letter"},
		{"R*2", nil, "not a piece letter"},
	} {
		got, err := ParseSum(tc.expr)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSum(%q) = %v, %v; want an error with %q", tc.expr, got, err, tc.err)
			}
			continue
		}
		if err != nil || !maps.Equal(got, tc.want) {
			t.Errorf("ParseSum(%q) = %v, %v; want %v", tc.expr, got, err, tc.want)
		}
	}
}

// A sum's point is the sum of the pieces' points and its interval comes
// from the same replicates: N−N is exactly 0, and R+R−Q lies between the
// sums of the pieces' bounds, narrower than their widths added up.
func TestSumOfAFitsValues(t *testing.T) {
	cfg := synthConfig(2, Logistic)
	cfg.Bootstrap = 60
	chess := ChessModel(true)
	rep, err := PieceValues(chess.Games(600, 4), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := &rep.Fits[0]
	val := func(p string) *Estimate {
		for _, pv := range f.Pieces {
			if pv.Piece == p {
				return pv.Value
			}
		}
		t.Fatalf("no piece %s", p)
		return nil
	}
	zero, err := f.Sum("N-N")
	if err != nil || zero.Value == nil || zero.Value.Point != 0 || zero.Value.Lo != 0 || zero.Value.Hi != 0 {
		t.Errorf("N-N = %+v, %v; want exactly 0", zero.Value, err)
	}
	s, err := f.Sum("R+R-Q")
	if err != nil || s.Value == nil {
		t.Fatalf("R+R-Q: %+v, %v", s, err)
	}
	r, q := val("R"), val("Q")
	if want := 2*r.Point - q.Point; math.Abs(s.Value.Point-want) > 1e-12 {
		t.Errorf("R+R-Q point %v, want %v", s.Value.Point, want)
	}
	if !(s.Value.Lo <= s.Value.Point && s.Value.Point <= s.Value.Hi) {
		t.Errorf("R+R-Q interval %+v does not hold its point", s.Value)
	}
	if wide := 2*(r.Hi-r.Lo) + (q.Hi - q.Lo); s.Value.Hi-s.Value.Lo > wide {
		t.Errorf("R+R-Q interval %.3f wide, more than its pieces' widths added up (%.3f)", s.Value.Hi-s.Value.Lo, wide)
	}
	if _, err := f.Sum("R-Z"); err == nil || !strings.Contains(err.Error(), "no piece Z") {
		t.Errorf("an unknown piece: %v", err)
	}
}

func FuzzParseSum(f *testing.F) {
	for _, s := range []string{"R+R-Q", "B+P-R", "-N", "R+-Q", "", "+", "P+P+P-N"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		terms, err := ParseSum(expr)
		if err != nil {
			return
		}
		for name := range terms {
			if name == "" || strings.ContainsAny(name, "+- ") {
				t.Fatalf("ParseSum(%q) gave piece %q", expr, name)
			}
		}
	})
}
