package env

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// flipText mirrors position text top to bottom and swaps the colours: the
// same game seen from the other side, which must have the same move tree.
func flipText(v *Variant, text string) string {
	f := strings.Fields(text)
	board, hand := f[0], ""
	if i := strings.IndexByte(board, '['); i >= 0 {
		board, hand = board[:i], board[i:]
	}
	rows := strings.Split(board, "/")
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
	}
	f[0] = swapCase(strings.Join(rows, "/")) + swapCase(hand)
	f[1] = map[string]string{"w": "b", "b": "w"}[f[1]]
	if f[2] != "-" {
		var c strings.Builder
		for _, l := range "KQkq" {
			if strings.ContainsRune(swapCase(f[2]), l) {
				c.WriteRune(l)
			}
		}
		f[2] = c.String()
	}
	if f[3] != "-" {
		g := v.Geo
		var e strings.Builder
		for rest := f[3]; rest != ""; {
			s, n := g.scanSquare(rest)
			e.WriteString(g.Name(g.At(g.File(s), g.Mirror(g.Rank(s)))))
			rest = rest[n:]
		}
		f[3] = e.String()
	}
	return strings.Join(f, " ")
}

func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return r
	}, s)
}

// TestColourFlippedPositionsHaveEqualPerft checks, on positions from random
// games of every variant, that the position mirrored with colours swapped
// has the same perft counts: any rule coded for one side only shows here.
func TestColourFlippedPositionsHaveEqualPerft(t *testing.T) {
	samples := 40
	if testing.Short() {
		samples = 10
	}
	for _, name := range append(VariantNames(), "birds-ninjas+scepter+insane-knight", "testdata/designer.toml") {
		v := mustLoad(t, name)
		rng := rand.New(rand.NewPCG(7, uint64(len(name))))
		for i := 0; i < samples; i++ {
			var texts []string
			randomGame(v, rng, 10+rng.IntN(80), func(p *Position, _ []Move) { texts = append(texts, p.String()) })
			text := texts[len(texts)-1]
			p, _ := v.ParsePosition(text)
			flipped := flipText(v, text)
			q, err := v.ParsePosition(flipped)
			if err != nil {
				t.Fatalf("%s: flipped %q: %v", name, flipped, err)
			}
			if a, b := p.Perft(2), q.Perft(2); a != b {
				t.Fatalf("%s: perft 2 of %s = %d, of its mirror %s = %d", name, text, a, flipped, b)
			}
		}
	}
}
