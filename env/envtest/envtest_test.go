package envtest

import (
	"testing"

	"bomberzero/env"
)

func TestReverseRank(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"10", "10"},
		{"frnbqkbnrf", "frnbkqbnrf"},
		{"3P6", "6P3"},
		{"p8P", "P8p"},
		{"2p", "p2"},
	} {
		if got := reverseRank(c.in); got != c.want {
			t.Errorf("reverseRank(%q) = %q; want %q", c.in, got, c.want)
		}
	}
}

// Reflecting twice gives the position back, castling rights and the en
// passant square aside.
func TestReflectFilesTwiceIsTheSameBoard(t *testing.T) {
	for _, name := range []string{"fbgc", "chess", "birds-ninjas"} {
		v, err := env.LoadVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		pos := v.NewPosition()
		moves := pos.LegalMoves(nil)
		pos.DoMove(moves[len(moves)-1])
		once := ReflectFiles(t, pos)
		twice := ReflectFiles(t, once)
		for s := range v.Geo.Cells() {
			sq := env.Square(s)
			f, r := s%v.Geo.Files, s/v.Geo.Files
			if pos.At(sq) != twice.At(sq) || pos.At(sq) != once.At(env.Square(r*v.Geo.Files+v.Geo.Files-1-f)) {
				t.Fatalf("%s: square %s: %v, reflected %v, twice %v", name, v.Geo.Name(sq), pos.At(sq), once.At(env.Square(r*v.Geo.Files+v.Geo.Files-1-f)), twice.At(sq))
			}
		}
	}
}
