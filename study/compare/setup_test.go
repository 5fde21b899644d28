package compare

import (
	"slices"
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

func TestResolveNamesTheDocumentedPiece(t *testing.T) {
	v := load(t, "fbgc") // FRNBQKBNRF on ranks 1 and 10, pawns on 2 and 9
	start := v.NewPosition()
	for _, c := range []struct {
		side env.Color
		what string
		want string
	}{
		{env.White, "Q", "e1"},
		{env.Black, "Q", "e10"},
		{env.White, "R", "b1"}, // lowest file first among the back rank's rooks
		{env.Black, "R", "b10"},
		{env.White, "F", "a1"},
		{env.White, "P", "a2"}, // nearest the back rank: rank 2 before anything higher
		{env.Black, "P", "a9"},
		{env.White, "i1", "i1"},
		{env.Black, "c9", "c9"},
	} {
		s, err := Removal{c.side, c.what}.Resolve(start)
		if err != nil {
			t.Errorf("%v without %s: %v", c.side, c.what, err)
			continue
		}
		if got := v.Geo.Name(s); got != c.want {
			t.Errorf("%v without %s resolved to %s, want %s", c.side, c.what, got, c.want)
		}
	}
}

func TestResolveRefusesWhatCannotBeRemoved(t *testing.T) {
	start := load(t, "fbgc").NewPosition()
	for _, c := range []struct {
		side env.Color
		what string
		want string
	}{
		{env.White, "K", "royal"},
		{env.White, "f1", "royal"},
		{env.White, "Z", "no piece with that letter"},
		{env.White, "e5", "empty"},
		{env.White, "e10", "other side's queen"},
		{env.Black, "zz9", "want a square"},
		{env.Black, "", "no piece named"},
	} {
		_, err := Removal{c.side, c.what}.Resolve(start)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v without %q: error %v, want one saying %q", c.side, c.what, err, c.want)
		}
	}
}

func TestWithoutRemovesExactlyThePiecesAndTheirCastlingRights(t *testing.T) {
	v := load(t, "fbgc")
	start := v.NewPosition()
	sq := func(n string) env.Square {
		s, err := v.Geo.ParseSquare(n)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, c := range []struct {
		squares []string
		rights  string
	}{
		{[]string{"e1", "a9"}, "KQkq"},
		{[]string{"b1"}, "Kkq"},  // White's queen-side rook
		{[]string{"i10"}, "KQq"}, // Black's king-side rook
		{[]string{"j1", "a10"}, "KQkq"},
	} {
		var ss []env.Square
		for _, n := range c.squares {
			ss = append(ss, sq(n))
		}
		p, err := Without(start, ss...)
		if err != nil {
			t.Fatalf("without %v: %v", c.squares, err)
		}
		if f := strings.Fields(p.String()); f[2] != c.rights {
			t.Errorf("without %v: castling %q, want %q", c.squares, f[2], c.rights)
		}
		for s := env.Square(0); int(s) < v.Geo.Cells(); s++ {
			if !v.Geo.IsReal(s) {
				continue
			}
			want := start.At(s)
			for _, r := range ss {
				if r == s {
					want = env.NoPiece
				}
			}
			if p.At(s) != want {
				t.Errorf("without %v: %s holds %v, want %v", c.squares, v.Geo.Name(s), p.At(s), want)
			}
		}
		if p.SideToMove() != env.White || len(p.LegalMoves(nil)) == 0 {
			t.Errorf("without %v: %s is not a playable start with White to move", c.squares, p)
		}
	}
}

func TestWithoutKeepsHolesAndHands(t *testing.T) {
	v := load(t, "birds-ninjas") // holes on ranks 0 and 11, ninja pawns in hand
	start := v.NewPosition()
	s, err := Removal{env.White, "Q"}.Resolve(start)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Without(start, s)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(start.String(), "FRNBQKBNRF", "FRNB1KBNRF", 1)
	if p.String() != want {
		t.Errorf("without the queen:\n got %s\nwant %s", p, want)
	}
}

func TestMirrorIsAnInvolutionOntoTheOtherSide(t *testing.T) {
	v := load(t, "fbgc")
	g := v.Geo
	for s := env.Square(0); int(s) < g.Cells(); s++ {
		if !g.IsReal(s) {
			continue
		}
		m := mirror(g, s)
		if mirror(g, m) != s || g.File(m) != g.File(s) {
			t.Fatalf("mirror(%s) = %s, mirror of that %s", g.Name(s), g.Name(m), g.Name(mirror(g, m)))
		}
	}
	if n := g.Name(mirror(g, must(g.ParseSquare("b1")))); n != "b10" {
		t.Errorf("mirror(b1) = %s, want b10", n)
	}
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}

func TestResolveAllNamesEveryPart(t *testing.T) {
	v := load(t, "chess")
	start := v.NewPosition()
	for _, c := range []struct {
		side env.Color
		what string
		want []string // squares, or nil for an error
		err  string
	}{
		{env.White, "Q", []string{"d1"}, ""},
		{env.White, "R+R", []string{"a1", "h1"}, ""}, // the second R resolves without the first
		{env.Black, "B+P", []string{"c8", "a7"}, ""},
		{env.Black, "N+N", []string{"b8", "g8"}, ""},
		{env.White, "a1+h1", []string{"a1", "h1"}, ""},
		{env.White, "R+R+R", nil, `part "R" of "R+R+R"`},
		{env.White, "a1+a1", nil, "empty"},
		{env.White, "Q+", nil, "no piece named"},
		{env.White, "Q+K", nil, "royal"},
	} {
		sq, err := Removal{c.side, c.what}.ResolveAll(start)
		if c.want == nil {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v without %q: error %v, want one saying %q", c.side, c.what, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v without %q: %v", c.side, c.what, err)
			continue
		}
		var got []string
		for _, s := range sq {
			got = append(got, v.Geo.Name(s))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%v without %q resolved to %v, want %v", c.side, c.what, got, c.want)
		}
	}
}
