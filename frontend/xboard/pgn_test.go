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
// its main line in XBoard's PGN notation.
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
		xb = append(xb, PGNNotation{}.FormatMove(p, m))
		p.DoMove(m)
	}
	res, why := p.Status()
	g := record.New("xboard pgn test", v.NewPosition(), "random", "random", res, why, moves)
	g.Variations = []record.Variation{{At: 1, Moves: alt}}
	return g, xb
}

// TestPGNOfATenRankBoardReadsInTheDialectItDeclaresOrRefuses reads one
// fbgc game, "1. a1a3", which is legal in both notations as two different
// moves: XBoard's a1a3 is the pawn's a2-a4, the canonical a1a3 the
// bomber's a1-a3. Declared (by the tag or by the reader's caller) it
// reads as declared; undeclared it is refused, not read one rank off.
func TestPGNOfATenRankBoardReadsInTheDialectItDeclaresOrRefuses(t *testing.T) {
	for _, c := range []struct {
		name, tag, assume string
		want, err         string
	}{
		{"XBoard's tag", `[Notation "XBoard"]`, "", "a2-a4", ""},
		{"bomberzero's tag", `[Notation "bomberzero"]`, "", "a1-a3", ""},
		{"the tag's case ignored", `[Notation "xboard"]`, "", "a2-a4", ""},
		{"the caller's choice over the tag", `[Notation "XBoard"]`, "bomberzero", "a1-a3", ""},
		{"the caller's choice", "", "XBoard", "a2-a4", ""},
		{"undeclared", "", "", "", `declare which with [Notation "XBoard"] or [Notation "bomberzero"]`},
		{"an unknown notation", `[Notation "SAN"]`, "", "", `its [Notation] tag names the notation "SAN": this reader reads XBoard or bomberzero`},
		{"an unknown choice", "", "lichess", "", `the notation asked for names the notation "lichess"`},
	} {
		text := "[Variant \"fbgc\"]\n" + c.tag + "\n\n1. a1a3 *\n"
		games, err := record.ParsePGNAs(text, "chess", PGNDialect, c.assume)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: got %v, %v; want an error with %q", c.name, games, err, c.err)
			}
		case err != nil || len(games) != 1 || len(games[0].Moves) != 1 || games[0].Moves[0] != c.want:
			t.Errorf("%s: got %+v, %v; want the move %s", c.name, games, err, c.want)
		case games[0].Get(record.NotationTag) != "":
			t.Errorf("%s: the read game keeps the [Notation] tag of the file: %+v", c.name, games[0].Tags)
		}
	}
}

// TestPGNNotationWritesNoCommaAndReadsEveryMoveBack plays random games of
// every variant file and writes every legal move of every position in
// XBoard's PGN notation: no text has the comma XBoard's PGN reader ends a
// move at, and each reads back as its move. The forms of the moves that
// need two legs in the engine protocol are pinned by name.
func TestPGNNotationWritesNoCommaAndReadsEveryMoveBack(t *testing.T) {
	seen := map[string]string{}
	for _, variant := range []string{"fbgc", "birds-ninjas", "claustrophobia", "hangars", "chess"} {
		v := load(t, variant)
		rng := rand.New(rand.NewPCG(11, uint64(len(variant))))
		for game := 0; game < 8; game++ {
			p := v.NewPosition()
			for ply := 0; ply < 120; ply++ {
				if res, _ := p.Status(); res != env.Ongoing {
					break
				}
				legal := p.LegalMoves(nil)
				for _, m := range legal {
					text := PGNNotation{}.FormatMove(p, m)
					back, err := PGNNotation{}.ParseMove(p, text)
					if strings.Contains(text, ",") || err != nil || back != m {
						t.Fatalf("%s %s: %s written %q read back as %v (%v)", variant, p, p.FormatGC(m), text, back, err)
					}
					if engine := FormatMove(p, m); engine != text {
						kind := "fly-over"
						if m.Kind() == env.Castle {
							kind = "castling"
						}
						seen[variant+" "+kind] = engine + " -> " + text
					}
				}
				p.DoMove(legal[rng.IntN(len(legal))])
			}
		}
	}
	for _, want := range []string{"fbgc fly-over", "fbgc castling", "birds-ninjas fly-over", "birds-ninjas castling"} {
		if seen[want] == "" {
			t.Errorf("no %s in the games: the test does not reach the two-leg moves (seen %v)", want, seen)
		}
	}
	t.Logf("two-leg moves rewritten: %v", seen)
}

func TestPGNNotationOfTheTwoLegMoves(t *testing.T) {
	for _, c := range []struct{ variant, fen, gc, want string }{
		// The bomber on d1 flies over d6 and lands on d7.
		{"fbgc", "5k4/10/10/10/3p6/10/10/10/10/3F1K4 w - - 0 1", "d1-d7", "d0d5-d6"},
		// Castlings, named by the king's landing square.
		{"fbgc", "5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1", "O h1", "f0h0"},
		{"fbgc", "5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1", "O g1", "f0g0O"},
		{"fbgc", "5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1", "O b1", "f0b0-b0"},
	} {
		v := load(t, c.variant)
		p, err := v.ParsePosition(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(c.gc)
		if to, castle := strings.CutPrefix(c.gc, "O "); castle {
			for _, o := range p.LegalMoves(nil) {
				if o.Kind() == env.Castle && v.Geo.Name(o.To()) == to {
					m, err = o, nil
				}
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", c.gc, err)
		}
		if got := (PGNNotation{}).FormatMove(p, m); got != c.want {
			t.Errorf("%s %s: written %q, want %q", c.fen, c.gc, got, c.want)
		}
	}
}
