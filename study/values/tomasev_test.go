package values

import (
	"strings"
	"testing"
)

// fitOf builds a fit whose coefficients are the given values (the pawn's
// coefficient 0.5, so a value v has coefficient v/2).
func fitOf(vals map[string]float64) *FitResult {
	f := &FitResult{}
	for _, p := range []string{"P", "N", "B", "R", "Q", "K"} {
		v, ok := vals[p]
		if !ok {
			f.Pieces = append(f.Pieces, PieceValue{Piece: p})
			continue
		}
		f.Pieces = append(f.Pieces, PieceValue{Piece: p, Coef: &Estimate{Point: v / 2}})
	}
	return f
}

func TestTomasevCheck(t *testing.T) {
	tom := map[string]float64{"P": 1, "N": 3.05, "B": 3.33, "R": 5.63, "Q": 9.5}
	with := func(over map[string]float64) map[string]float64 {
		out := map[string]float64{}
		for k, v := range tom {
			out[k] = v
		}
		for k, v := range over {
			out[k] = v
		}
		return out
	}
	for _, tc := range []struct {
		name string
		vals map[string]float64
		want []string // substrings; nil: the check is not made ("")
		not  []string
	}{
		{"Tomašev's own values", tom, []string{"N 3.05 (+0%)", "Q/R 1.69", "; passes"}, []string{"fails"}},
		{"the edge, 20% low", with(map[string]float64{"N": 3.05 * 0.8001}), []string{"passes"}, nil},
		{"the calibration's rook", with(map[string]float64{"R": 4.39, "Q": 8.52}), []string{"fails: R 4.39 is 22% below Tomašev's 5.63"}, []string{"Q 8.52 is", "Q/R 1.94 is"}},
		{"a heavy queen", with(map[string]float64{"Q": 12}), []string{"Q 12.00 is 26% above", "Q/R 2.13 is outside [1.5, 2.1]"}, nil},
		{"a light queen", with(map[string]float64{"Q": 8, "R": 5.8}), []string{"Q/R 1.38 is outside"}, []string{"Q 8.00 is"}},
		{"no rook coefficient", map[string]float64{"P": 1, "N": 3, "B": 3, "Q": 9}, nil, nil},
		{"a pawn worth nothing", with(map[string]float64{"P": 0}), nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := TomasevCheck(fitOf(tc.vals))
			if tc.want == nil {
				if got != "" {
					t.Fatalf("got %q, want no check", got)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("%q has %q", got, w)
				}
			}
		})
	}
}

// TestPieceValuesHoldChessToTomasev: a fit of chess games carries the check's
// line, in the report and its text, and it follows the planted values; games
// of another variant carry none.
func TestPieceValuesHoldChessToTomasev(t *testing.T) {
	for _, tc := range []struct {
		variant string
		rook    float64
		want    string
	}{
		{"chess", 5.63, "passes"},
		{"chess", 4, "fails: R"},
		{"fbgc", 5.63, ""},
	} {
		m := ChessModel(true, 1, 3.05, 3.33, tc.rook, 9.5, 0)
		ds := m.Games(3000, 11)
		for i := range ds.Games {
			ds.Games[i].Variant = tc.variant
		}
		rep, err := PieceValues(ds, Config{Methods: []Method{Logistic}, Bootstrap: 2, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		got := rep.Fits[0].Tomasev
		var text strings.Builder
		if err := rep.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%s: check %q on games of another variant", tc.variant, got)
		case tc.want != "" && (!strings.Contains(got, tc.want) || !strings.Contains(text.String(), got)):
			t.Errorf("%s, rook %g: check %q (in the text: %v), want %q", tc.variant, tc.rook, got, strings.Contains(text.String(), got), tc.want)
		}
	}
}
