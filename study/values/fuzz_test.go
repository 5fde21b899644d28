package values

import (
	"encoding/json"
	"math"
	"testing"
)

func FuzzParseMethod(f *testing.F) {
	for _, s := range []string{"logistic", "tanh", "value", "search", "", "Tanh", "tanh ", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMethod(s)
		if err == nil && string(m) != s {
			t.Errorf("ParseMethod(%q) = %q", s, m)
		}
		if err != nil && m != "" {
			t.Errorf("ParseMethod(%q) failed but returned %q", s, m)
		}
	})
}

// FuzzEstimateJSON: reading any bytes never panics, and whatever reads
// back writes out and reads back to the same estimate.
func FuzzEstimateJSON(f *testing.F) {
	for _, s := range []string{`{"point":1,"lo":0.5,"hi":2}`, `{"point":1,"lo":null,"hi":null}`, `{}`, `null`, `[]`, `{"point":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var e Estimate
		if err := json.Unmarshal(b, &e); err != nil {
			return
		}
		out, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("marshal %+v: %v", e, err)
		}
		var back Estimate
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("re-read %s: %v", out, err)
		}
		if back != e && !(math.IsNaN(e.Point) || math.IsNaN(e.Lo) || math.IsNaN(e.Hi)) {
			t.Errorf("round trip %+v -> %s -> %+v", e, out, back)
		}
	})
}

// FuzzPieceValuesNeverShowNaN builds small data sets from fuzz bytes
// (results, material swings, colours) and checks that every fit either
// fails with an error or reports finite points, never NaN.
func FuzzPieceValuesNeverShowNaN(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{0, 0, 0, 0, 0, 0})
	f.Add([]byte{255, 1, 255, 1, 255, 1, 255, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 3 || len(b) > 300 {
			return
		}
		ds := &Dataset{Pieces: []string{"P", "N"}}
		for i := 0; i+2 < len(b); i += 3 {
			g := Game{ID: string(rune('a' + i)), Result: int(b[i]%3) - 1, Length: 8}
			for ply := 0; ply < 8; ply++ {
				p := Position{Ply: ply, WhiteToMove: ply%2 == 0, Text: "x",
					White: []int32{int32(b[i+1] % 9), int32(b[i+2] % 3)}, Black: []int32{8, 2},
					Value: float64(int(b[i+1])-128) / 128}
				g.Positions = append(g.Positions, p)
			}
			ds.Games = append(ds.Games, g)
		}
		rep, err := PieceValues(ds, Config{Sample: SampleConfig{}, Methods: []Method{Tanh, Search}, Bootstrap: 5, Workers: 1})
		if err != nil {
			return
		}
		assertNoNaN(t, rep)
		if rep2, err := PieceValues(ds, Config{Methods: []Method{Logistic}, Bootstrap: 5, Workers: 1}); err == nil {
			assertNoNaN(t, rep2)
		}
	})
}
