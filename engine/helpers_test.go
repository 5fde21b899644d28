package engine

import (
	"testing"

	"bomberzero/env"
)

// testTable is a piece table for variant v: the default values of the
// project for the usual letters, 300 for any other non-royal piece.
func testTable(v *env.Variant) []int32 {
	vals := map[byte]int32{'P': 100, 'J': 100, 'N': 300, 'G': 300, 'M': 300, 'B': 400, 'F': 500, 'D': 500, 'R': 600, 'I': 600, 'Q': 1100}
	t := make([]int32, len(v.Pieces))
	for i := 1; i < len(v.Pieces); i++ {
		p := v.Pieces[i]
		switch x, ok := vals[p.Letter]; {
		case p.Royal:
		case ok:
			t[i] = x
		default:
			t[i] = 300
		}
	}
	return t
}

// newTestEngine returns a one-thread engine for the named variant.
func newTestEngine(t testing.TB, variant string, seed uint64) (*Engine, *env.Variant) {
	t.Helper()
	v, err := env.LoadVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(v, Options{HashMB: 4, Seed: seed, Table: testTable(v)})
	if err != nil {
		t.Fatal(err)
	}
	return e, v
}
