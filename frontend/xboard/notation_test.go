package xboard

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"bomberzero/env"
)

func load(t *testing.T, name string) *env.Variant {
	t.Helper()
	v, err := env.LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func position(t *testing.T, v *env.Variant, text string) *env.Position {
	t.Helper()
	p, err := v.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkTexts fails unless every legal move of p has one text that no other
// move has, and that text and each alternate read back to the move.
func checkTexts(t *testing.T, name string, p *env.Position) []env.Move {
	t.Helper()
	ms := p.LegalMoves(nil)
	if err := env.CheckNotation(Notation{}, p); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if knownToXBoard(p.Variant()) {
		return ms
	}
	seen := map[string]env.Move{}
	for _, m := range ms {
		seen[FormatMove(p, m)] = m
	}
	for _, m := range ms {
		for _, a := range alternates(p, m, ms) {
			if o, taken := seen[a]; taken && o != m {
				t.Fatalf("%s %s: %s is %v's text and an alternate of %v", name, p, a, o, m)
			}
			if back, err := ParseMove(p, a); err != nil || back != m {
				t.Fatalf("%s %s: alternate %s of %s read back as %v, %v", name, p, a, FormatMove(p, m), back, err)
			}
		}
	}
	return ms
}

func TestFormatAndParseMoveRoundTripOnEveryVariant(t *testing.T) {
	// The walks must reach the family's special texts.
	saw := map[string]int{}
	defer func() {
		for _, k := range []string{"two legs", "castling", "drop with push", "promotion"} {
			if saw[k] == 0 {
				t.Errorf("no legal %s met: the walks do not test its text", k)
			}
		}
		t.Logf("texts met: %v", saw)
	}()
	count := func(p *env.Position, ms []env.Move) {
		for _, m := range ms {
			switch {
			case m.Kind() == env.Castle && !knownToXBoard(p.Variant()):
				saw["castling"]++
			case m.Kind() == env.Drop && m.To() != m.From():
				saw["drop with push"]++
			case m.Kind() != env.Drop && m.Promotion() != 0:
				saw["promotion"]++
			case strings.Contains(FormatMove(p, m), ","):
				saw["two legs"]++
			}
		}
	}
	for _, name := range env.VariantNames() {
		v := load(t, name)
		// Every move of the start position...
		checkTexts(t, name, v.NewPosition())
		// ...and of the positions of a long pseudo-random game, which
		// reaches captures, fly-overs, castling, promotions and drops.
		p := v.NewPosition()
		for ply := 0; ply < 120; ply++ {
			ms := checkTexts(t, name, p)
			count(p, ms)
			if res, _ := p.StatusOf(len(ms)); res != env.Ongoing {
				break
			}
			p.DoMove(ms[(ply*7919+13)%len(ms)])
		}
	}
}

func TestSquaresAreNumberedAsXBoardNumbersThem(t *testing.T) {
	for _, c := range []struct {
		variant, square, xboard string
	}{
		{"chess", "e1", "e1"},          // 8 ranks: from 1, as the variant
		{"claustrophobia", "g7", "g7"}, // 8 ranks
		{"fbgc", "e1", "e0"},           // 10 ranks: XBoard counts from 0
		{"fbgc", "j10", "j9"},
		{"hangars", "a0", "a0"}, // 10 ranks numbered 0-9 already
		{"hangars", "h9", "h9"},
		{"birds-ninjas", "e0", "e1"}, // 12 ranks: from 1
		{"birds-ninjas", "f11", "f12"},
	} {
		v := load(t, c.variant)
		s, err := v.Geo.ParseSquare(c.square)
		if err != nil {
			t.Fatal(err)
		}
		co := coordsOf(v)
		if got := co.name(s); got != c.xboard {
			t.Errorf("%s %s: XBoard name %s, want %s", c.variant, c.square, got, c.xboard)
		}
		if back, n := co.scan(c.xboard); n != len(c.xboard) || back != s {
			t.Errorf("%s: %s read back as %v (%d bytes), want %v", c.variant, c.xboard, back, n, s)
		}
	}
	// A hole is no square.
	if _, n := coordsOf(load(t, "birds-ninjas")).scan("a1"); n != 0 {
		t.Errorf("birds-ninjas a1 (XBoard's name of the hole a0) read as a square")
	}
}

func TestFamilyMovesInXBoardText(t *testing.T) {
	fbgc := load(t, "fbgc")
	cases := []struct {
		variant, fen, move string // move: Game Courier text
		text               string
		also               []string // other texts read as the same move
	}{
		// A limited bomber flies over the pawn on d5 and lands on d6: two
		// legs through the pawn's square, or UCI's plain from-to.
		{"fbgc", "k9/10/10/10/10/3p6/10/10/10/3F2K3 w - - 0 1", "d1-d6", "d0d4,d4d5", []string{"d0d5", "D0D4,D4D5"}},
		// The helicopter leap over an enemy onto an enemy: both go.
		{"fbgc", "k9/10/10/10/10/10/10/3n6/3p6/3F2K3 w - - 0 1", "d1-d3", "d0d1,d1d2", []string{"d0d2"}},
		// Castling: the king's leg, then the rook's.
		{"fbgc", "5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1", "i1-f1;f1-g1", "f0g0,i0f0", []string{"f0g0O"}},
		{"fbgc", "5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1", "i1-g1;f1-h1", "f0h0,i0g0", []string{"f0h0", "f0h0O"}},
		// The king lands on the rook's square: the rook's leg stays put,
		// and XBoard's own form (the rook's real move) is read too.
		{"fbgc", "5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1", "b1-c1;f1-b1", "f0b0,b0b0", []string{"f0b0,b0c0", "f0b0"}},
		// En passant after a three-square pawn move: through the victim.
		{"fbgc", "k9/10/10/10/10/6p3/10/10/5P4/5K4 w - - 0 1", "f2-f5", "f1f4", nil},
		// Promotion: the letter in lower case.
		{"fbgc", "k9/4P5/10/10/10/10/10/10/10/5K4 w - - 0 1", "e9-e10;F-e10", "e8e9f", []string{"E8E9F"}},
		// Birds and Ninjas (12 ranks, XBoard's from 1): a drop with a push is
		// written by the square the piece ends on.
		{"birds-ninjas", "****gg****/frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPP1PPPPP/FRNBQKBNRF/****GG****[JJJJjjjj] w KQkq - 0 1",
			"~P-e2;e2-e4", "J@e5", []string{"J@e3e5", "j@e5"}},
		{"birds-ninjas", "****gg****/frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPP1PPPPP/FRNBQKBNRF/****GG****[JJJJjjjj] w KQkq - 0 1",
			"~P-e2", "J@e3", nil},
		// The insane-knight landing promotion: its letter, or none (XBoard
		// does not ask about it).
		{"birds-ninjas+insane-knight", "****2****/k9/3N6/10/10/10/10/10/10/10/5K4/****2****[] w - - 0 1",
			"d9-e11;I-e11", "d10e12i", []string{"d10e12"}},
	}
	for _, c := range cases {
		v := load(t, c.variant)
		p := position(t, v, c.fen)
		m, err := p.ParseMove(c.move)
		if err != nil {
			t.Fatalf("%s %s: %v", c.fen, c.move, err)
		}
		if got := FormatMove(p, m); got != c.text {
			t.Errorf("%s %s: written %s, want %s", c.fen, c.move, got, c.text)
		}
		for _, text := range append([]string{c.text}, c.also...) {
			if back, err := ParseMove(p, text); err != nil || back != m {
				t.Errorf("%s: %s read as %v, %v; want %s", c.fen, text, back, err, c.move)
			}
		}
	}
	// The en passant capture that follows: the victim on f5 is the leg's end.
	p := position(t, fbgc, "k9/10/10/10/10/6p3/10/10/5P4/5K4 w - - 0 1")
	p.DoMove(mustParse(t, p, "f1f4"))
	ep, err := p.ParseMove("g5-f4")
	if err != nil {
		t.Fatal(err)
	}
	if got := FormatMove(p, ep); got != "g4f4,f4f3" {
		t.Errorf("en passant g5xf4: written %s, want g4f4,f4f3 (through the pawn on fbgc's f5)", got)
	}
	// A king step is never a castling.
	p = position(t, fbgc, "5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1")
	if m := mustParse(t, p, "f0g0"); m.Kind() == env.Castle {
		t.Errorf("f0g0 read as a castling, want the king's step")
	}
}

func TestIllegalMovesAreExplainedInXBoardSquares(t *testing.T) {
	fbgc := load(t, "fbgc")
	p := fbgc.NewPosition()
	for text, want := range map[string]string{
		"e3e4":    "no piece on e3",               // fbgc's e4
		"e1e5":    "cannot move to e5",            // the pawn on fbgc's e2 going to e6
		"e8e7":    "is black's",                   // fbgc's e9 is Black's pawn
		"e1e10":   "not a square of this board",   // XBoard's ranks end at 9
		"hello":   "not a move",                   // no move's shape
		"P@e3":    "no piece left in hand",        // no drops in fbgc
		"d0d4,x1": "not a move in XBoard's coord", // half a second leg
	} {
		_, err := ParseMove(p, text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", text, err, want)
		}
	}
	// Birds and Ninjas' drop rank is its rank 2: XBoard's 3.
	bn := load(t, "birds-ninjas")
	q := position(t, bn, "****gg****/frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPP1PPPPP/FRNBQKBNRF/****GG****[JJJJjjjj] w KQkq - 0 1")
	if _, err := ParseMove(q, "J@a6"); err == nil || !strings.Contains(err.Error(), "rank 3") {
		t.Errorf("J@a6: %v, want the drop rank named as XBoard's rank 3", err)
	}
}

func TestPositionTextRoundTripsThroughXBoardsForm(t *testing.T) {
	for _, name := range env.VariantNames() {
		v := load(t, name)
		p := v.NewPosition()
		for ply := 0; ply < 60; ply++ {
			text := positionText(p)
			q, err := parsePosition(v, text)
			if err != nil {
				t.Fatalf("%s: %s (XBoard's form of %s) does not read back: %v", name, text, p, err)
			}
			// The en-passant field keeps one square (XBoard keeps one file):
			// everything else reads back exactly.
			if a, b := dropEP(q.String()), dropEP(p.String()); a != b {
				t.Fatalf("%s: %s read back as %s", name, p, q)
			}
			ms := p.LegalMoves(nil)
			if res, _ := p.StatusOf(len(ms)); res != env.Ongoing {
				break
			}
			p.DoMove(ms[(ply*31+7)%len(ms)])
		}
	}
	// XBoard writes an empty hand as [-].
	v := load(t, "birds-ninjas")
	if _, err := parsePosition(v, "****gg****/frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF/****GG****[-] w KQkq - 0 1"); err != nil {
		t.Errorf("an empty hand written [-]: %v", err)
	}
	// A two-step pawn move's square, in XBoard's numbering (fbgc e2-e4 passes e3: XBoard's e2).
	f := load(t, "fbgc")
	p, err := parsePosition(f, "frnbqkbnrf/pppppppppp/10/10/10/10/4P5/10/PPPP1PPPPP/FRNBQKBNRF b KQkq e2 0 1")
	if err != nil || !strings.Contains(p.String(), " e3 ") {
		t.Errorf("en passant e2 (XBoard's) read as %v, %v; want fbgc's e3", p, err)
	}
}

var epField = regexp.MustCompile(`^(\S+ \S+ \S+) \S+`)

func dropEP(fen string) string { return epField.ReplaceAllString(fen, "$1 ep") }

func TestSetupOfEveryEngineDefinedVariant(t *testing.T) {
	setupLine := regexp.MustCompile(`^setup \(([^)]*)\) (\d+)x(\d+)\+(\d+)_(fairy|bughouse) (.*)$`)
	pieceLine := regexp.MustCompile(`^piece ([A-Za-z])&? ([a-zA-Z0-9]+)$`)
	for _, name := range env.VariantNames() {
		v := load(t, name)
		lines, err := Setup(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "chess" {
			if len(lines) != 0 {
				t.Errorf("chess is XBoard's normal: want no setup, got %q", lines)
			}
			continue
		}
		m := setupLine.FindStringSubmatch(lines[0])
		if m == nil {
			t.Fatalf("%s: setup line %q", name, lines[0])
		}
		table := m[1]
		if len(table)%2 != 0 || len(table) < 12 || table[len(table)/2:] != strings.ToLower(table[:len(table)/2]) {
			t.Errorf("%s: piece-to-char table %q: want an even length of at least 12, Black's half the lower-case of White's", name, table)
		}
		king := v.Pieces[v.KingType()].Letter
		if table[len(table)/2-1] != king {
			t.Errorf("%s: table %q does not end White's half with the king %c", name, table, king)
		}
		for i := 1; i < len(v.Pieces); i++ {
			if !strings.ContainsRune(table, rune(v.Pieces[i].Letter)) {
				t.Errorf("%s: table %q lacks %c", name, table, v.Pieces[i].Letter)
			}
		}
		if w, h := m[2], m[3]; w != strconv.Itoa(v.Geo.Files) || h != strconv.Itoa(v.Geo.Ranks) {
			t.Errorf("%s: board %sx%s, want %dx%d", name, w, h, v.Geo.Files, v.Geo.Ranks)
		}
		hold, _ := strconv.Atoi(m[4])
		if v.HasDrops() {
			// The dropped piece's slot is its place among the table's letters.
			d := v.Pieces[v.DropType()].Letter
			slot := strings.Count(table[:strings.IndexByte(table, d)], ".")
			slot = strings.IndexByte(table, d) - slot
			if hold != slot+1 || m[5] != "bughouse" {
				t.Errorf("%s: holdings %d_%s, want %d_bughouse (captures stay out of hand)", name, hold, m[5], slot+1)
			}
		} else if hold != 0 || m[5] != "fairy" {
			t.Errorf("%s: holdings %d_%s, want 0_fairy", name, hold, m[5])
		}
		if m[6] != v.NewPosition().String() {
			t.Errorf("%s: setup FEN %q, want the start %q", name, m[6], v.NewPosition().String())
		}
		described := map[byte]bool{}
		for _, l := range lines[1:] {
			pm := pieceLine.FindStringSubmatch(l)
			if pm == nil {
				t.Errorf("%s: piece line %q", name, l)
				continue
			}
			described[strings.ToUpper(pm[1])[0]] = true
		}
		for i := 1; i < len(v.Pieces); i++ {
			pt := v.Pieces[i]
			switch pt.Letter {
			case 'N', 'B', 'R', 'Q':
				if pt.Name == "super jump knight" && !described['N'] {
					t.Errorf("%s: no piece line for the super jump knight", name)
				}
			default:
				if !described[pt.Letter] {
					t.Errorf("%s: no piece line for %c (%s)", name, pt.Letter, pt.Name)
				}
			}
		}
	}
	// An option's piece is described too.
	v := load(t, "birds-ninjas+insane-knight")
	lines, err := Setup(v)
	if err != nil || !strings.Contains(strings.Join(lines, "\n"), "piece I& NKADcafmcK") {
		t.Errorf("birds-ninjas+insane-knight: %q, %v; want the insane ninja knight's piece line", lines, err)
	}
}

// xboardVariants are XBoard 4.9.1's own variant names (common.h,
// VARIANT_NAMES), in its order; those from "shogi" on only match at the
// start of a name.
var xboardVariants = []string{"normal", "normal", "wildcastle", "nocastle", "fischerandom", "bughouse", "crazyhouse",
	"losers", "suicide", "giveaway", "twokings", "kriegspiel", "atomic", "3check", "shatranj", "wild29", "wild30",
	"wild31", "wild32", "wild33", "wild34", "wild35", "wild36", "shogi", "chu", "courier", "gothic", "capablanca",
	"knightmate", "fairy", "cylinder", "falcon", "caparandom", "berolina", "janus", "super", "great", "twilight",
	"makruk", "seirawan", "grand", "spartan", "xiangqi", "asean", "lion", "elven", "unknown"}

// TestVariantNamesAreEngineDefinedForXBoard follows XBoard 4.9.1's
// StringToVariant: a name it reads as one of its own variants (by a
// substring) would not be engine-defined, and XBoard would ignore the
// setup line.
func TestVariantNamesAreEngineDefinedForXBoard(t *testing.T) {
	shogi := 23
	wild := regexp.MustCompile(`w(ild)?[ (/]*[0-9]`)
	for _, name := range env.VariantNames() {
		if name == "chess" {
			continue
		}
		for i, x := range xboardVariants {
			at := strings.Index(name, x)
			if at < 0 || (i >= shogi && at != 0) {
				continue
			}
			if i >= shogi && len(name) > len(x) && name[len(x)] >= 'a' && name[len(x)] <= 'z' {
				continue
			}
			t.Errorf("XBoard reads %q as its own variant %q", name, x)
		}
		if strings.Contains(name, "fischer") && strings.Contains(name, "random") || strings.Contains(name, "frc") ||
			strings.Contains(name, "960") || wild.MatchString(name) {
			t.Errorf("XBoard reads %q as a wild or random variant", name)
		}
	}
}

// FuzzParseMoveAndPosition feeds arbitrary text to the readers of XBoard's
// moves and positions: neither may panic, a move read must be written back
// to a text that reads as the same move, and a position read must read
// back from XBoard's form of it.
func FuzzParseMoveAndPosition(f *testing.F) {
	for _, s := range []string{"e1e3", "d0d4,d4d5", "f0b0,b0b0", "J@e5", "J@e3e5", "e8e9q", "f0g0O", "e10e11",
		"a@", "P@", ",", "e1e3,", "k9/10/10/10/10/3p6/10/10/10/3F2K3 w - - 0 1", "****gg****/[-] w", "5k4 b KQ e2 0"} {
		f.Add(s)
	}
	var positions []*env.Position
	for _, name := range []string{"fbgc", "birds-ninjas", "claustrophobia", "hangars", "chess"} {
		v, err := env.LoadVariant(name)
		if err != nil {
			f.Fatal(err)
		}
		p := v.NewPosition()
		positions = append(positions, p.Clone())
		for ply := 0; ply < 30; ply++ {
			ms := p.LegalMoves(nil)
			if len(ms) == 0 {
				break
			}
			p.DoMove(ms[(ply*37+5)%len(ms)])
		}
		positions = append(positions, p)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, p := range positions {
			if m, err := ParseMove(p, text); err == nil {
				if back, err := ParseMove(p, FormatMove(p, m)); err != nil || back != m {
					t.Fatalf("%s: %q read as %s, which reads back as %v, %v", p, text, FormatMove(p, m), back, err)
				}
			}
			v := p.Variant()
			if q, err := parsePosition(v, text); err == nil {
				if r, err := parsePosition(v, positionText(q)); err != nil || dropEP(r.String()) != dropEP(q.String()) {
					t.Fatalf("%s: %q read as %s, whose XBoard form %s reads back as %v, %v", v.Name, text, q, positionText(q), r, err)
				}
			}
		}
	})
}
