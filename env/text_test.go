package env

import (
	"strings"
	"testing"
)

func TestPositionTextErrorsSayWhere(t *testing.T) {
	v := mustLoad(t, "birds-ninjas")
	start := v.StartFEN
	cases := []struct{ text, want string }{
		{"", "expected 2 to 6 fields"},
		{strings.Replace(start, "****gg****", "****gg***", 1), "rank 11"},
		{strings.Replace(start, "****gg****", "g***gg****", 1), "a11, which is a hole"},
		{strings.Replace(start, "****gg****", "10", 1), "a11 is a hole"},
		{strings.Replace(start, "frnbqkbnrf", "frnbqxbnrf", 1), "'x' is not a piece"},
		{strings.Replace(start, "frnbqkbnrf", "frnbqqbnrf", 1), "no black king"},
		{strings.Replace(start, " w ", " x ", 1), "side \"x\""},
		{strings.Replace(start, "KQkq", "KQkqX", 1), "castling"},
		{strings.Replace(start, "[JJJJjjjj]", "[JJJJjjjjQ]", 1), "cannot be in hand"},
		{strings.Replace(start, " - 0 1", " e3 0 1", 1), "en passant"},
		{strings.Replace(start, " 0 1", " -4 1", 1), "half-move clock"},
	}
	for _, c := range cases {
		_, err := v.ParsePosition(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to say %q", c.text, err, c.want)
		}
	}
}

func TestMoveTextSyntaxes(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p := v.NewPosition()
	for _, c := range []struct{ text, canonical string }{
		{"f2-f5", "f2f5"}, {"f2f5", "f2f5"}, {"c1-d3", "c1d3"}, {"a1-a3", "a1a3"},
	} {
		m, err := p.ParseMove(c.text)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.FormatMove(m); got != c.canonical {
			t.Errorf("%s: canonical %s, want %s", c.text, got, c.canonical)
		}
	}
	q, err := v.ParsePosition("k9/4P5/10/10/10/10/10/10/10/5K4 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"e9-e10;Q-e10", "e9e10=Q", "e9-e10;q-e10"} {
		m, err := q.ParseMove(text)
		if err != nil || m.Promotion() != v.PieceByLetter('Q') {
			t.Errorf("%s: %v %v", text, m, err)
		}
	}
	bad := []struct{ text, want string }{
		{"e9-e10", "promotion piece missing"},
		{"e9-e10;K-e10", "not a piece this move can promote to"},
		{"e9-e11", "expected a square"},
		{"e2-e4", "no piece on e2"},
		{"a10-a9", "is black's"},
		{"f1-f3", "cannot move to f3"},
		{"e9-e10;Q-e10;a1-", "does not remove"},
		{"zz", "expected"},
	}
	for _, c := range bad {
		_, err := q.ParseMove(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to say %q", c.text, err, c.want)
		}
		// The caller names the text; an error that names it too reads
		// "move "x": move "x": ..." wherever it is shown (issue 33).
		if err != nil && strings.Contains(err.Error(), "move \""+c.text) {
			t.Errorf("%q: error %q names the move itself: the caller does", c.text, err)
		}
	}
	r, _ := v.ParsePosition("5k4/10/10/10/10/5r4/10/10/10/4K5 w - - 0 1")
	if _, err := r.ParseMove("e1-f1"); err == nil || !strings.Contains(err.Error(), "leaves the king in check") {
		t.Errorf("e1-f1 into check: %v", err)
	}
}

func FuzzParsePosition(f *testing.F) {
	names := []string{"fbgc", "birds-ninjas", "claustrophobia", "hangars"}
	vs := make([]*Variant, len(names))
	for i, n := range names {
		vs[i] = mustLoad(f, n)
		f.Add(uint8(i), vs[i].StartFEN)
	}
	f.Add(uint8(1), "****gg****/frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPP1PPPPP/FRNBQKBNRF/****GG****[JJJJjjjj] b KQkq e3e4 0 1")
	f.Add(uint8(2), "ffnggk*/pppppmn/5**/5**/5**/5**/PPPPPMN/FFNGGK* w - - 0 1")
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		v := vs[int(which)%len(vs)]
		p, err := v.ParsePosition(text)
		if err != nil {
			return
		}
		out := p.String()
		q, err := v.ParsePosition(out)
		if err != nil || q.String() != out {
			t.Fatalf("%q: written %q does not read back: %v", text, out, err)
		}
		p.Perft(2)
		p.Status()
	})
}

func FuzzParseMove(f *testing.F) {
	v := mustLoad(f, "birds-ninjas+insane-knight")
	p, err := v.ParsePosition("****gg****/frnbqkbnrf/ppppp1pppp/10/10/3N6/10/10/10/PPPP1PPPPP/FR3KBNRF/****GG****[JJJJjjjj] w KQkq - 0 1")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"f2-f5", "f2f5", "~P-e2", "~P-e2;e2-e5", "J@e2e4", "f1-b1;b1-c1", "b1-c1;f1-b1", "f1c1O", "a3-a8;a6-", "e9-e10;Q-e10", "e9e10=Q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := p.ParseMove(text)
		if err != nil {
			return
		}
		for _, s := range []string{p.FormatMove(m), p.FormatGC(m)} {
			if back, err := p.ParseMove(s); err != nil || back != m {
				t.Fatalf("%q: %s reads back as %v, %v", text, s, back, err)
			}
		}
	})
}
