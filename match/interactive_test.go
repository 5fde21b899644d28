package match

import (
	"bytes"
	"strings"
	"testing"

	"bomberzero/env"
	"bomberzero/mcts"
)

// firstMover is a Player that plays the first legal move: its replies are
// known, so a test knows the position after a takeback.
type firstMover struct{}

func (firstMover) Name() string { return "first" }
func (firstMover) Choose(p *env.Position) (env.Move, error) {
	return p.LegalMoves(nil)[0], nil
}

func TestInteractiveReadsHelpAndUndoAsCommandsNotMoves(t *testing.T) {
	v := mustVariant(t, "fbgc")
	for _, tc := range []struct {
		name  string
		human env.Color
		input string
		want  []string // in the output, in order
		moves int      // plies in the record
		lack  string   // never in the output
	}{
		{"help", env.White, "help\nquit\n", []string{`"undo" takes back`, `"help" shows this`, "Type a move"}, 0, "refused"},
		{"undo before any move", env.White, "undo\nquit\n", []string{"nothing to take back"}, 0, "refused"},
		{"undo takes back the pair", env.White, "e2-e4\nundo\nquit\n", []string{"you play e2-e4", "first plays", "took back your last move and the reply"}, 0, "refused"},
		{"undo as black keeps the agent's first move", env.Black, "e9-e7\nundo\nquit\n", []string{"first plays", "you play e9-e7", "took back"}, 1, "refused"},
		{"play on after undo", env.White, "e2-e4\nundo\nd2-d4\nquit\n", []string{"took back", "you play d2-d4"}, 2, "refused"},
	} {
		var out bytes.Buffer
		_, g, err := Interactive{Start: v.NewPosition(), Agent: firstMover{}, Human: tc.human}.RunGame(strings.NewReader(tc.input), &out)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		s := out.String()
		at := 0
		for _, w := range tc.want {
			i := strings.Index(s[at:], w)
			if i < 0 {
				t.Errorf("%s: output lacks %q after byte %d:\n%s", tc.name, w, at, s)
				break
			}
			at += i + len(w)
		}
		if strings.Contains(s, tc.lack) {
			t.Errorf("%s: output has %q:\n%s", tc.name, tc.lack, s)
		}
		if g.Plies != tc.moves || len(g.Moves) != tc.moves {
			t.Errorf("%s: record has %d plies %v, want %d", tc.name, g.Plies, g.Moves, tc.moves)
		}
	}
}

func TestSearchAnalysisGivesEachCandidateItsOwnValue(t *testing.T) {
	v := mustVariant(t, "fbgc")
	mk, err := Parse("material:200", v, Options{Models: SearchLoader(mcts.DefaultConfig(), 200, "")})
	if err != nil {
		t.Fatal(err)
	}
	p, err := mk.New(1)
	if err != nil {
		t.Fatal(err)
	}
	// White's rook takes a hanging queen with a1-a5; no other move wins it.
	pos, err := v.ParsePosition("k9/pp8/10/10/10/q9/10/10/10/R4K4 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.(Analyzer).Analyze(pos, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range c {
		if strings.Contains(x.Note, "root value") {
			t.Errorf("%s: note %q gives the root's value, not the move's", pos.FormatGC(x.Move), x.Note)
		}
	}
	if len(c) < 2 || pos.FormatGC(c[0].Move) != "a1-a5" || c[0].Score <= c[1].Score || c[0].Note == c[1].Note {
		t.Errorf("candidates %+v: want a1xa5 first with the highest value and each its own note", c)
	}
}
