package record

import (
	"strings"
	"testing"

	"bomberzero/env"
)

func TestFormatParseReplayRoundTrip(t *testing.T) {
	// A game from a non-standard start, played by random legal moves of
	// every kind: the record's tags come back, and replaying it from
	// its own Variant and FEN tags reaches the same position.
	for _, variant := range []string{"fbgc", "birds-ninjas", "claustrophobia", "chess"} {
		v, err := env.LoadVariant(variant)
		if err != nil {
			t.Fatal(err)
		}
		start := v.NewPosition()
		first := start.LegalMoves(nil)[0]
		start.DoMove(first)
		start, err = v.ParsePosition(start.String())
		if err != nil {
			t.Fatal(err)
		}
		p := start.Clone()
		var moves []string
		for i := 0; i < 60; i++ {
			if res, _ := p.Status(); res != env.Ongoing {
				break
			}
			ms := p.LegalMoves(nil)
			m := ms[(i*7919)%len(ms)]
			moves = append(moves, p.FormatGC(m))
			p.DoMove(m)
		}
		res, why := p.Status()
		g := New("test", start, "random", "greedy", res, why, moves)
		text := g.Format()
		back, err := Parse(text)
		if err != nil {
			t.Fatalf("%s: %v\n%s", variant, err, text)
		}
		for _, tag := range []string{"Variant", "White", "Black", "Result", "FEN", "Plies"} {
			if back.Get(tag) != g.Get(tag) || g.Get(tag) == "" {
				t.Errorf("%s: tag %s: wrote %q, read %q", variant, tag, g.Get(tag), back.Get(tag))
			}
		}
		if strings.Join(back.Moves, " ") != strings.Join(moves, " ") {
			t.Errorf("%s: moves changed:\n%v\n%v", variant, moves, back.Moves)
		}
		st, err := back.Start("none")
		if err != nil {
			t.Fatal(err)
		}
		end, err := env.Replay(st, text)
		if err != nil {
			t.Fatalf("%s: %v", variant, err)
		}
		if end.String() != p.String() {
			t.Errorf("%s: replay reached %s, want %s", variant, end, p)
		}
	}
}

func TestParseRefusesBadTags(t *testing.T) {
	for _, text := range []string{"[Variant fbgc]\n1. e2-e4", "[Variant \"fbgc\"\n", "[ \"x\"]", "[X \"unterminated]"} {
		if _, err := Parse(text); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("%q: got %v, want an error naming line 1", text, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("[Variant \"fbgc\"]\n[Result \"1-0\"]\n\n1. e2-e4 e9-e7 1-0\n")
	f.Add("[X \"\\\"q\\\"\"]")
	f.Fuzz(func(t *testing.T, text string) {
		g, err := Parse(text)
		if err != nil {
			return
		}
		back, err := Parse(g.Format())
		if err != nil {
			t.Fatalf("reading back %q: %v", g.Format(), err)
		}
		if len(back.Tags) != len(g.Tags) {
			t.Fatalf("tags %v became %v", g.Tags, back.Tags)
		}
		for i := range g.Tags {
			if back.Tags[i] != g.Tags[i] {
				t.Fatalf("tag %v became %v", g.Tags[i], back.Tags[i])
			}
		}
	})
}
