package compare

import (
	"reflect"
	"strings"
	"testing"

	"bomberzero/env"
)

// FuzzResolve feeds arbitrary piece names to Resolve: it never panics, and
// whatever it accepts is a non-royal piece of the named side that Without
// can take off, leaving a legal start position.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"Q", "P", "a1", "b10", "j9", "K", "f1", "", "Z", "a0", "a11", "k1", "e5", "1a", "@", "QQ"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		f.Fatal(err)
	}
	start := v.NewPosition()
	f.Fuzz(func(t *testing.T, what string, black bool) {
		side := env.White
		if black {
			side = env.Black
		}
		s, err := Removal{side, what}.Resolve(start)
		if err != nil {
			return
		}
		p := start.At(s)
		if p == env.NoPiece || p.Color() != side || v.Pieces[p.Type()].Royal {
			t.Fatalf("%q for %v resolved to %s holding %v", what, side, v.Geo.Name(s), p)
		}
		q, err := Without(start, s)
		if err != nil {
			t.Fatalf("without %s: %v", v.Geo.Name(s), err)
		}
		if q.At(s) != env.NoPiece || q.Count(side, p.Type()) != start.Count(side, p.Type())-1 {
			t.Fatalf("without %s: the piece is still there in %s", v.Geo.Name(s), q)
		}
	})
}

// FuzzParseImbalancePairs feeds arbitrary lists to ParseImbalancePairs: it
// never panics, and what it accepts has non-empty sides without the
// separators and reads back the same from its own text.
func FuzzParseImbalancePairs(f *testing.F) {
	for _, s := range []string{"F:R", "F:R,F:B,F:N", " a1 : b10 ", "F", ":", "F:R:B", ",", "F:R,,F:B", "\x00:\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pairs, err := ParseImbalancePairs(s)
		if err != nil {
			return
		}
		var parts []string
		for _, p := range pairs {
			if p.X == "" || p.Y == "" || strings.ContainsAny(p.X+p.Y, ":,") {
				t.Fatalf("%q gave pair %+v", s, p)
			}
			parts = append(parts, p.X+":"+p.Y)
		}
		back, err := ParseImbalancePairs(strings.Join(parts, ","))
		if err != nil || !reflect.DeepEqual(back, pairs) {
			t.Fatalf("%q: %v reads back as %v, %v", s, pairs, back, err)
		}
	})
}
