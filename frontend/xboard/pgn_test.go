package xboard

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"bomberzero/datasets/record"
	"bomberzero/env"
)

func TestPGNInXBoardsDialectReadsBackWithIt(t *testing.T) {
	for _, c := range []struct{ variant, rank0 string }{
		{"fbgc", "0"}, // XBoard numbers a 10-rank board's ranks from 0
		{"birds-ninjas", ""},
		{"chess", ""},
	} {
		v := load(t, c.variant)
		g, written := randomRecord(t, v, 40, 3)
		text, err := PGN(&g, c.variant)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, " "+written[0]+" ") || (c.variant != "chess") != strings.Contains(text, "[VariantMen ") {
			t.Errorf("%s: the PGN lacks the first move %s in XBoard's form, or [VariantMen] is wrong:\n%s", c.variant, written[0], text)
		}
		if c.rank0 != "" && !strings.ContainsAny(strings.Join(written, " "), c.rank0) {
			t.Errorf("%s: no move names rank %s: %v", c.variant, c.rank0, written)
		}
		back, err := record.ParsePGNIn(text, c.variant, PGNDialect)
		if err != nil || len(back) != 1 || !reflect.DeepEqual(back[0].Moves, g.Moves) || !reflect.DeepEqual(back[0].Variations, g.Variations) {
			t.Errorf("%s: read back as %+v (%v), want the moves %v and the variations %+v", c.variant, back, err, g.Moves, g.Variations)
		}
	}
}

// randomRecord plays up to n random legal moves of v from its start, with
// a variation of two moves at the second move, and returns the record and
// its main line in XBoard's notation.
func randomRecord(t *testing.T, v *env.Variant, n int, seed uint64) (record.Game, []string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	p := v.NewPosition()
	var moves, xb []string
	var alt []string
	for i := 0; i < n; i++ {
		if res, _ := p.Status(); res != env.Ongoing {
			break
		}
		legal := p.LegalMoves(nil)
		m := legal[rng.IntN(len(legal))]
		if i == 1 {
			q := p.Clone()
			a := legal[(rng.IntN(len(legal)-1)+1+slices.Index(legal, m))%len(legal)]
			alt = append(alt, q.FormatGC(a))
			q.DoMove(a)
			alt = append(alt, q.FormatGC(q.LegalMoves(nil)[0]))
		}
		moves = append(moves, p.FormatGC(m))
		xb = append(xb, FormatMove(p, m))
		p.DoMove(m)
	}
	res, why := p.Status()
	g := record.New("xboard pgn test", v.NewPosition(), "random", "random", res, why, moves)
	g.Variations = []record.Variation{{At: 1, Moves: alt}}
	return g, xb
}
