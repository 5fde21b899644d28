package agent

import (
	"testing"

	"bomberzero/env"
)

func TestParseValuesRoundTrips(t *testing.T) {
	in := DefaultValues()
	out, err := ParseValues(in.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("round trip lost values: %v -> %v", in, out)
	}
	for k, x := range in {
		if out[k] != x {
			t.Errorf("%c: %g -> %g", k, x, out[k])
		}
	}
}

func FuzzParseValues(f *testing.F) {
	for _, s := range []string{"G=2.5", "G=2.5,I=8", "F=1e2", "a=1", "G=", "G=1,G=2", ",", "Q=1000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		vals, err := ParseValues(text)
		if err != nil {
			return
		}
		back, err := ParseValues(vals.String())
		if err != nil {
			t.Fatalf("%q -> %q does not parse: %v", text, vals.String(), err)
		}
		for k, x := range vals {
			if back[k] != x || x < 0 || x > 1000 {
				t.Fatalf("%q: %c=%g round-trips to %g", text, k, x, back[k])
			}
		}
	})
}

func TestPieceValueIsTheTableWithRoyalsFree(t *testing.T) {
	v, err := env.LoadVariant("birds-ninjas")
	if err != nil {
		t.Fatal(err)
	}
	vals := DefaultValues()
	cp, err := vals.Table(v)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(v.Pieces); i++ {
		p := v.Pieces[i]
		got := PieceValue(p)
		if p.Royal && got != 0 {
			t.Errorf("%s is royal but worth %g", p.Name, got)
		}
		// The float table the material evaluator counts and the centipawn
		// table the alpha-beta player counts are the same numbers.
		if int32(got*100+0.5) != cp[i] {
			t.Errorf("%s: PieceValue %g, Table %d centipawns", p.Name, got, cp[i])
		}
	}
}
