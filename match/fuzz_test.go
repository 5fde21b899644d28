package match

import (
	"testing"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{"random", "greedy", "greedy:F=4.5", "alphabeta:2", "alphabeta:3:G=2,Q=10", "run/c.safetensors:50", "alphabeta:", ":", "greedy:=", "x.y:-1"} {
		f.Add(s)
	}
	v := mustVariant(f, "birds-ninjas")
	f.Fuzz(func(t *testing.T, spec string) {
		mk, err := Parse(spec, v, Options{})
		if err != nil {
			return
		}
		p, err := mk.New(1)
		if err != nil {
			t.Fatalf("%q parsed but New failed: %v", spec, err)
		}
		if p.Name() == "" || mk.Spec == "" {
			t.Fatalf("%q: empty name", spec)
		}
	})
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
