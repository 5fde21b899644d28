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

func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"0,10,0.05,0.05", "-5,5,0.1,0.2", "1,0,0.05,0.05", "0,10,0.05", ",,,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSPRT(text)
		if err != nil {
			return
		}
		if s.Validate() != nil {
			t.Fatalf("%q parsed into an invalid test %+v", text, s)
		}
		lo, hi := s.Bounds()
		if !(lo < 0 && hi > 0) {
			t.Fatalf("%q: bounds %g %g", text, lo, hi)
		}
	})
}
