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
