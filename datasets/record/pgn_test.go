package record

import (
	"fmt"
	"math/rand/v2"
	"reflect"
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
				!strings.Contains(text, `[FEN "`) || !strings.Contains(text, `[VariantMen "G:mRcpR;J:N"]`) || !strings.Contains(text, `[Notation "bomberzero"]`)) {
				t.Errorf("%s: PGN lacks Variant, SetUp, FEN, VariantMen or Notation:\n%s", variant, text)
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

func TestParsePGNReadsVariationsAndSkipsCommentsAndAnnotations(t *testing.T) {
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
	// (2. f2f4 (2. g2g4) e7e6) replaces 2. d2d4 and holds one replacing f2f4.
	want := []Variation{{At: 2, Moves: []string{"f2-f4", "e7-e6"}, Variations: []Variation{{At: 0, Moves: []string{"g2-g4"}}}}}
	if !reflect.DeepEqual(games[0].Variations, want) {
		t.Errorf("first game's variations %+v, want %+v", games[0].Variations, want)
	}
	if games[0].Get("Result") != "1/2-1/2" || games[1].Get("Event") != "second" || len(games[1].Moves) != 2 || games[1].Variations != nil {
		t.Errorf("games %+v", games)
	}
}

// The standard's export format: a variation after the move it replaces,
// "N..." for Black's move that opens a variation or follows one, no space
// inside the parentheses.
func TestPGNWritesVariationsWithTheirMoveNumbers(t *testing.T) {
	g := Game{Moves: []string{"e2-e4", "e9-e8", "d2-d3", "d9-d8"}, Variations: []Variation{
		{At: 0, Moves: []string{"d2-d4"}},
		{At: 1, Moves: []string{"c9-c8", "c2-c3"}, Variations: []Variation{{At: 1, Moves: []string{"b2-b3", "b9-b8"}}}},
		{At: 1, Moves: []string{"a9-a8"}},
		{At: 3, Moves: []string{"f9-f8"}},
	}}
	g.Set("Variant", "fbgc")
	text, err := g.PGN("fbgc", "")
	if err != nil {
		t.Fatal(err)
	}
	want := "1. e2e4 (1. d2d4) 1... e9e8 (1... c9c8 2. c2c3 (2. b2b3 b9b8)) (1... a9a8)\n2. d2d3 d9d8 (2... f9f8) *\n"
	if _, moves, _ := strings.Cut(text, "\n\n"); moves != want {
		t.Errorf("movetext\n%s\nwant\n%s", moves, want)
	}
	for _, c := range []struct {
		vars []Variation
		want string
	}{
		{[]Variation{{At: 4, Moves: []string{"a2-a3"}}}, "variation 1 replaces move 4"},
		{[]Variation{{At: 2, Moves: []string{"a2-a3"}}, {At: 1, Moves: []string{"a9-a8"}}}, "in order"},
		{[]Variation{{At: 1}}, "has no moves"},
		{[]Variation{{At: 1, Moves: []string{"a2-a3"}}}, `move 2's variation 1: move 1 "a2-a3"`},
	} {
		g.Variations = c.vars
		if _, err := g.PGN("fbgc", ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("variations %+v: error %v, want it to say %q", c.vars, err, c.want)
		}
	}
}

// randomTree adds up to n random variations to g, nested up to depth deep,
// each a few random legal moves.
func randomTree(t *testing.T, g *Game, fallback string, n, depth int, rng *rand.Rand) {
	t.Helper()
	start, err := g.Start(fallback)
	if err != nil {
		t.Fatal(err)
	}
	var grow func(p *env.Position, moves []string, depth int) []Variation
	grow = func(p *env.Position, moves []string, depth int) []Variation {
		var out []Variation
		for i, text := range moves {
			if depth > 0 && n > 0 && rng.IntN(4) == 0 {
				n--
				q := p.Clone()
				var line []string
				for j := 0; j < 1+rng.IntN(6); j++ {
					if res, _ := q.Status(); res != env.Ongoing {
						break
					}
					legal := q.LegalMoves(nil)
					m := legal[rng.IntN(len(legal))]
					line = append(line, q.FormatGC(m))
					q.DoMove(m)
				}
				if len(line) > 0 {
					out = append(out, Variation{At: i, Moves: line, Variations: grow(p.Clone(), line, depth-1)})
				}
			}
			m, err := p.ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			p.DoMove(m)
		}
		return out
	}
	g.Variations = grow(start, g.Moves, depth)
}

func TestPGNVariationsRoundTrip(t *testing.T) {
	for _, variant := range []string{"fbgc", "birds-ninjas", "chess"} {
		for seed := uint64(1); seed <= 3; seed++ {
			g := randomGame(t, variant, 60, seed)
			randomTree(t, &g, "fbgc", 12, 3, rand.New(rand.NewPCG(seed, 2)))
			if len(g.Variations) == 0 {
				t.Fatalf("%s seed %d: no variations made", variant, seed)
			}
			text, err := g.PGN("fbgc", "")
			if err != nil {
				t.Fatalf("%s: %v", variant, err)
			}
			back, err := ParsePGN(text, "chess")
			if err != nil || len(back) != 1 {
				t.Fatalf("%s: %v (%d games)\n%s", variant, err, len(back), text)
			}
			if !reflect.DeepEqual(back[0].Moves, g.Moves) || !reflect.DeepEqual(back[0].Variations, g.Variations) {
				t.Errorf("%s seed %d: the tree\n%+v\ncame back as\n%+v\nfrom\n%s", variant, seed, g.Variations, back[0].Variations, text)
			}
		}
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
		{"1. e2e4 " + strings.Repeat("(e2e3 ", maxPGNVariation+1), "nested more than"},
		{"(1. e2e4)", "before any move"},
		{"1. e2e4 () e9e7", "a variation with no moves"},
		{"1. e2e4 (e2e3 *) e9e7", "inside a variation"},
		{"1. e2e4 (d2d4 d9d7 e2e9) e9e7", `variation 1: move 3 "e2e9"`},
		{strings.Repeat("e2e4 ", MaxPGNMoves+1), "more than 10000 moves"},
		{strings.Repeat("[A \"b\"]\n", MaxPGNTags+1), "more than 64 tags"},
		{strings.Repeat("*\n", MaxPGNGames+1), "more than 10000 games"},
		{"[A \"" + strings.Repeat("x", MaxPGNTagBytes) + "\"]", "at most 4096"},
		{strings.Repeat(" ", MaxPGNBytes+1), "at most"},
		// A file in another program's rank numbers is not read in ours.
		{"[Notation \"XBoard\"]\n1. a1a3 *", `its [Notation] tag names the notation "XBoard": this reader reads bomberzero`},
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
	f.Add("1. e2e4 (1. d2d4 (1. c2c4) d9d7 (1... c9c7)) 1... e9e7 (1... b9b8 2. a2a3) 2. f2f4 *")
	f.Fuzz(func(t *testing.T, text string) {
		games, err := ParsePGN(text, "fbgc")
		if err != nil {
			return
		}
		// A game read is written and read back to the same moves and
		// variations.
		for _, g := range games {
			out, err := g.PGN("fbgc", "")
			if err != nil {
				t.Fatalf("%q: a game read does not write: %v", text, err)
			}
			back, err := ParsePGN(out, "fbgc")
			if err != nil || len(back) != 1 || strings.Join(back[0].Moves, " ") != strings.Join(g.Moves, " ") ||
				!reflect.DeepEqual(back[0].Variations, g.Variations) {
				t.Fatalf("%q: written as %q, read back as %v: %v", text, out, back, err)
			}
		}
	})
}

// tagged is a test notation: the canonical syntax behind a "@@" prefix,
// which the canonical reader refuses.
type tagged struct{}

func (tagged) FormatMove(p *env.Position, m env.Move) string { return "@@" + p.FormatMove(m) }
func (tagged) ParseMove(p *env.Position, text string) (env.Move, error) {
	rest, ok := strings.CutPrefix(text, "@@")
	if !ok {
		return env.NoMove, fmt.Errorf("%q: no @@", text)
	}
	return p.ParseMove(rest)
}

func TestParsePGNInReadsItsDialectAndFallsBackToTheCanonicalSyntax(t *testing.T) {
	dialect := func(v *env.Variant) (PGNOptions, error) {
		return PGNOptions{Pieces: "G:N", Notation: tagged{},
			Position: func(p *env.Position) string { return "<" + p.String() + ">" },
			ReadPosition: func(v *env.Variant, text string) (*env.Position, error) {
				return v.ParsePosition(strings.Trim(text, "<>"))
			}}, nil
	}
	g := randomGame(t, "fbgc", 30, 5)
	randomTree(t, &g, "fbgc", 4, 2, rand.New(rand.NewPCG(5, 2)))
	o, _ := dialect(nil)
	text, err := g.PGNWith("fbgc", o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, " @@") || !strings.Contains(text, `[FEN "<`) || !strings.Contains(text, `[VariantMen "G:N"]`) {
		t.Fatalf("the dialect's moves, FEN or pieces are not in the text:\n%s", text)
	}
	if _, err := ParsePGN(text, "fbgc"); err == nil {
		t.Fatalf("the canonical reader read the dialect's moves")
	}
	canonical, err := g.PGN("fbgc", "")
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string]string{"the dialect's": text, "the canonical": canonical} {
		back, err := ParsePGNIn(in, "fbgc", dialect)
		if err != nil || len(back) != 1 || !reflect.DeepEqual(back[0].Moves, g.Moves) || !reflect.DeepEqual(back[0].Variations, g.Variations) {
			t.Errorf("%s PGN read in the dialect: %v, %+v", name, err, back)
		}
	}
}
