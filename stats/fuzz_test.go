package stats

import "testing"

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
