package env

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// notations are the move notations env implements.
var notations = []struct {
	name string
	n    Notation
}{
	{"canonical", Canonical{}},
	{"Game Courier", GameCourier{}},
	{"UCI", UCI{}},
}

func TestEveryNotationRoundTripsRandomGamesOfEveryVariant(t *testing.T) {
	for _, nt := range notations {
		for _, name := range VariantNames() {
			v := mustLoad(t, name)
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			for g := 0; g < 3; g++ {
				randomGame(v, rng, 80, func(p *Position, _ []Move) {
					if err := CheckNotation(nt.n, p); err != nil {
						t.Fatalf("%s, %s: %v", nt.name, name, err)
					}
				})
			}
		}
	}
}

func TestNotationsWriteTheDocumentedForms(t *testing.T) {
	for _, c := range []struct {
		variant, moves, canonical string // the move, after moves from the start, in canonical text
		want                      map[string]string
	}{
		{"chess", "", "e2e4", map[string]string{"canonical": "e2e4", "Game Courier": "e2-e4", "UCI": "e2e4"}},
		{"birds-ninjas", "e2e4 e9e7", "J@e2e3", map[string]string{"canonical": "J@e2e3", "Game Courier": "~P-e2;e2-e3", "UCI": "J@e2e3"}},
	} {
		p, err := PlayMoves(mustLoad(t, c.variant).NewPosition(), c.moves)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(c.canonical)
		if err != nil {
			t.Fatal(err)
		}
		for _, nt := range notations {
			if got := nt.n.FormatMove(p, m); got != c.want[nt.name] {
				t.Errorf("%s %s in %s: %q, want %q", c.variant, c.canonical, nt.name, got, c.want[nt.name])
			}
		}
	}
}

func TestUCIWritesAPromotionInLowerCase(t *testing.T) {
	p, err := mustLoad(t, "chess").ParsePosition("8/P6k/8/8/8/8/8/K7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := UCI{}.ParseMove(p, "a7a8q")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.FormatMove(m); got != "a7a8=Q" {
		t.Errorf("a7a8q read as %s, want a7a8=Q", got)
	}
	if _, err := (UCI{}).ParseMove(p, "a7a9q"); err == nil || !strings.Contains(err.Error(), `"a7a9q"`) {
		t.Errorf("a7a9q: %v, want an error naming the text", err)
	}
}

func TestFormatLineStopsAtTheFirstIllegalMove(t *testing.T) {
	p := mustLoad(t, "chess").NewPosition()
	got := FormatLine(p, []string{"e2-e4", "e7-e5", "e4-e5", "g1-f3"}, GameCourier{}, UCI{})
	if want := []string{"e2e4", "e7e5"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
