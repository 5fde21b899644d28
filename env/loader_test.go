package env

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEveryBuiltInVariantLoads(t *testing.T) {
	want := []string{"birds-leaping", "birds-ninjas", "birds-ninjas-setup2", "birds-only", "chess", "claustrophobia",
		"fbgc", "fbgc-ninjapawns", "fbgc-superknights", "fbgc-superpower", "hangars"}
	if got := strings.Join(VariantNames(), " "); got != strings.Join(want, " ") {
		t.Fatalf("variants %s, want %s", got, strings.Join(want, " "))
	}
	for _, name := range append(want, "fbgc+superpower", "fbgc+superknights", "birds-ninjas+scepter+insane-knight") {
		v := mustLoad(t, name)
		if got := v.NewPosition().String(); got != v.StartFEN {
			t.Errorf("%s: start text %q reads back as %q", name, v.StartFEN, got)
		}
	}
}

func TestOptionsCombineLikeNamedVariants(t *testing.T) {
	for _, pair := range [][2]string{{"fbgc+superpower", "fbgc-superpower"}, {"fbgc+superknights", "fbgc-superknights"}} {
		a, b := mustLoad(t, pair[0]).NewPosition(), mustLoad(t, pair[1]).NewPosition()
		if na, nb := a.Perft(3), b.Perft(3); na != nb {
			t.Errorf("%s perft 3 = %d, %s = %d", pair[0], na, pair[1], nb)
		}
	}
}

func TestDesignerVariantFromFile(t *testing.T) {
	// "FBGC with rooks on a1/j1 and only the two orthodox-like castlings", and
	// a piece that slides like a rook without capturing and leaps 2 squares
	// orthogonally, capturing only where it lands.
	text := `
name = "my-fbgc"
base = "fbgc"
description = "rooks on the corners, two castlings, a new piece X"
start = "rxnbqkbnxr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RXNBQKBNXR w KQkq - 0 1"
castling = [["f1", "h1", "j1", "g1"], ["f1", "d1", "a1", "e1"]]

[pieces.X]
name = "lame dabbaba"
moves = [{ kind = "slide", dirs = "orth", mode = "move" }, { kind = "leap", offsets = [[2, 0]] }]
`
	path := filepath.Join(t.TempDir(), "my-fbgc.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	v := mustLoad(t, path)
	p, err := v.ParsePosition("r4k3r/10/10/10/10/10/10/10/10/R4K1X1R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := castles(p); strings.Join(got, " ") != "a1-e1;f1-d1" {
		t.Fatalf("castlings %v: want only the queen-side one (h1 holds the X)", got)
	}
	q := setup(t, v, White, "Xe4", "pe5", "pe6", "pc4", "Kj1", "kj10")
	got := strings.Join(gcMoves(q, "e4"), " ")
	if want := "e4-c4 e4-d4 e4-e1 e4-e2 e4-e3 e4-e6 e4-f4 e4-g4 e4-h4 e4-i4 e4-j4"; got != want {
		t.Fatalf("X on e4: %s, want %s", got, want)
	}
}

func TestVariantErrorsNameFileLineAndField(t *testing.T) {
	cases := []struct{ text, want string }{
		{"name = \"x\"\nbase = \"fbgc\"\nfilez = 3\n", "x.toml line 3: unknown key \"filez\""},
		{"name = \"x\"\nbase = \"fbgc\"\n[pieces.F]\nmoves = [{ kind = \"bomb\", dirs = \"sideways\" }]\n", "x.toml line 4: field pieces.F.moves[0].dirs: \"sideways\": expected orth, diag or all"},
		{"name = \"x\"\nbase = \"fbgc\"\nholes = [\"z9\"]\n", "x.toml line 3: field holes[0]"},
		{"name = \"x\"\nbase = \"nope\"\n", "unknown variant \"nope\""},
		{"name = \"x\"\nfiles = [\n", "x.toml line"},
		{"name = \"x\"\nbase = \"fbgc\"\nstart = \"10/10 w\"\n", "field start: board \"10/10\": expected 10 ranks"},
		{"name = \"x\"\nbase = \"fbgc\"\n[pawns]\npromote_to = \"KQ\"\n", "field pawns.promote_to"},
	}
	for _, c := range cases {
		_, err := ParseVariant("x.toml", c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.text, err, c.want)
		}
	}
	if _, err := LoadVariant("fbgc+nosuch"); err == nil || !strings.Contains(err.Error(), "unknown option \"nosuch\"") {
		t.Errorf("unknown option: %v", err)
	}
}

func FuzzParseVariant(f *testing.F) {
	for _, name := range VariantNames() {
		src, _ := readVariant(name)
		f.Add(src.text)
	}
	f.Add("base = \"fbgc\"\nfiles = 16\nranks = 16\n")
	f.Fuzz(func(t *testing.T, text string) {
		v, err := ParseVariant("fuzz.toml", text)
		if err != nil {
			return
		}
		p := v.NewPosition()
		p.Perft(2)
	})
}
