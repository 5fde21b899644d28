package record

import (
	"math/rand/v2"
	"strings"
	"testing"

	"bomberzero/env"
)

// randomGame plays up to n random legal moves of variant from its start
// (after one move, so the start has Black to move and is not the variant's)
// and returns the record.
func randomGame(t testing.TB, variant string, n int, seed uint64) Game {
	t.Helper()
	v, err := env.LoadVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	start := v.NewPosition()
	start.DoMove(start.LegalMoves(nil)[0])
	start, err = v.ParsePosition(start.String())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	p := start.Clone()
	var moves []string
	for i := 0; i < n; i++ {
		if res, _ := p.Status(); res != env.Ongoing {
			break
		}
		legal := p.LegalMoves(nil)
		m := legal[rng.IntN(len(legal))]
		moves = append(moves, p.FormatGC(m))
		p.DoMove(m)
	}
	res, why := p.Status()
	return New("pgn test", start, "white \"quoted\"", "black\\", res, why, moves)
}

func TestRecordToPGNToRecordKeepsTheMovesAndTags(t *testing.T) {
	for _, variant := range []string{"fbgc", "birds-ninjas", "claustrophobia", "hangars", "chess"} {
		for seed := uint64(1); seed <= 3; seed++ {
			g := randomGame(t, variant, 120, seed)
			text, err := g.PGN("fbgc", "G:mRcpR;J:N")
			if err != nil {
				t.Fatalf("%s: %v", variant, err)
			}
			if strings.ContainsAny(strings.SplitN(text, "\n\n", 2)[1], ";~") {
				t.Fatalf("%s: PGN moves carry ';' or '~', which PGN reads as a comment:\n%s", variant, text)
			}
			for _, want := range []string{`[Event "pgn test"]`, `[Site "?"]`, `[White "white \"quoted\""]`, `[Black "black\\"]`} {
				if !strings.Contains(text, want+"\n") {
					t.Errorf("%s: PGN lacks %s:\n%s", variant, want, text)
				}
			}
			if variant != "chess" && (!strings.Contains(text, `[Variant "`+variant+`"]`) || !strings.Contains(text, `[SetUp "1"]`) ||
				!strings.Contains(text, `[FEN "`) || !strings.Contains(text, `[VariantMen "G:mRcpR;J:N"]`)) {
				t.Errorf("%s: PGN lacks Variant, SetUp, FEN or VariantMen:\n%s", variant, text)
			}
			back, err := ParsePGN(text, "chess") // PGN without [Variant] is chess
			if err != nil || len(back) != 1 {
				t.Fatalf("%s: %v (%d games)\n%s", variant, err, len(back), text)
			}
			if strings.Join(back[0].Moves, " ") != strings.Join(g.Moves, " ") {
				t.Errorf("%s seed %d: moves\n%v\ncame back as\n%v", variant, seed, g.Moves, back[0].Moves)
			}
			for _, tag := range []string{"Variant", "FEN", "White", "Black", "Result", "Termination", "Plies"} {
				if back[0].Get(tag) != g.Get(tag) && !(tag == "Variant" || tag == "FEN") {
					t.Errorf("%s: tag %s %q came back as %q", variant, tag, g.Get(tag), back[0].Get(tag))
				}
			}
			if s1, _ := g.Start("fbgc"); s1 != nil {
				s2, err := back[0].Start("chess")
				if err != nil || s2.String() != s1.String() {
					t.Errorf("%s: start %v came back as %v (%v)", variant, s1, s2, err)
				}
			}
		}
	}
}

func TestParsePGNSkipsCommentsVariationsAndAnnotations(t *testing.T) {
	text := `% an escape line
[Event "two games"]
[Variant "fbgc"]

1. e2e4 {a comment
over two lines} e9e7 ; the rest of the line
2. d2d4! (2. f2f4 (2. g2g4) e7e6) $1 2... d9d7?! 3.e1e2 1/2-1/2

[Event "second"]
[Variant "fbgc"]
1. e2-e4 e9-e7 *
`
	games, err := ParsePGN(text, "fbgc")
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("%d games, want 2", len(games))
	}
	if got := strings.Join(games[0].Moves, " "); got != "e2-e4 e9-e7 d2-d4 d9-d7 e1-e2" {
		t.Errorf("first game's moves %q", got)
	}
	if games[0].Get("Result") != "1/2-1/2" || games[1].Get("Event") != "second" || len(games[1].Moves) != 2 {
		t.Errorf("games %+v", games)
	}
}

func TestParsePGNRefusesBadTextNamingWhere(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`[Event "x"`, "no closing ]"},
		{`[Event x]`, "not a quoted string"},
		{`[9x "x"]`, "want [Name"},
		{"1. e2e4 {open", "no closing }"},
		{"1. e2e4 (e2e3", "no closing )"},
		{"1. e2e4 )", "closes no variation"},
		{"1. e2e4 ]", "outside a tag or comment"},
		{"1. e2e9", `move 1 "e2e9"`},
		{`[Variant "nosuch"] 1. e2e4`, "nosuch"},
		{strings.Repeat("(", maxPGNVariation+1), "nested more than"},
		{strings.Repeat("e2e4 ", MaxPGNMoves+1), "more than 10000 moves"},
		{strings.Repeat("[A \"b\"]\n", MaxPGNTags+1), "more than 64 tags"},
		{strings.Repeat("*\n", MaxPGNGames+1), "more than 10000 games"},
		{"[A \"" + strings.Repeat("x", MaxPGNTagBytes) + "\"]", "at most 4096"},
		{strings.Repeat(" ", MaxPGNBytes+1), "at most"},
	} {
		_, err := ParsePGN(c.text, "fbgc")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: error %v, want it to say %q", c.text, err, c.want)
		}
	}
}

func FuzzParsePGN(f *testing.F) {
	g := randomGame(f, "birds-ninjas", 40, 1)
	text, err := g.PGN("fbgc", "")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(text)
	f.Add("[Event \"a\\\"b\"]\n1. e2e4 {c} (1. d2d4) e9e7 $2 *\n\n[Event \"2\"]\n1-0")
	f.Add("% x\n;y\n1... e9e7")
	f.Fuzz(func(t *testing.T, text string) {
		games, err := ParsePGN(text, "fbgc")
		if err != nil {
			return
		}
		// A game read is written and read back to the same moves.
		for _, g := range games {
			out, err := g.PGN("fbgc", "")
			if err != nil {
				t.Fatalf("%q: a game read does not write: %v", text, err)
			}
			back, err := ParsePGN(out, "fbgc")
			if err != nil || len(back) != 1 || strings.Join(back[0].Moves, " ") != strings.Join(g.Moves, " ") {
				t.Fatalf("%q: written as %q, read back as %v: %v", text, out, back, err)
			}
		}
	})
}
