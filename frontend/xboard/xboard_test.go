package xboard

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"bomberzero/env"
	"bomberzero/frontend/session/sessiontest"
)

// conversation is a CECP conversation with an engine over pipes, with
// CECP's ping and pong to read up to.
type conversation struct {
	*sessiontest.Conversation
	t *testing.T
}

// sync sends a ping and reads up to its pong, returning the lines before it.
func (s *conversation) sync(n int) []string {
	s.t.Helper()
	s.Seen = nil
	s.Send(fmt.Sprintf("ping %d", n))
	s.Until(fmt.Sprintf("pong %d", n))
	return s.Seen[:len(s.Seen)-1]
}

// newSession starts an engine; the cleanup checks that it ends without error.
func newSession(t *testing.T) *conversation {
	return &conversation{Conversation: sessiontest.Start(t, Run), t: t}
}

// thinking is CECP's thinking output: ply score time nodes pv.
var thinking = regexp.MustCompile(`^(\d+) (-?\d+) (\d+) (\d+) (.*)$`)

// checkPV fails unless every thinking line among lines has a pv of legal
// moves from p, and returns how many there were.
func checkPV(t *testing.T, p *env.Position, lines []string) int {
	t.Helper()
	n := 0
	for _, l := range lines {
		m := thinking.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n++
		q := p.Clone()
		for _, text := range strings.Fields(m[5]) {
			mv, err := ParseMove(q, text)
			if err != nil {
				t.Fatalf("pv move %s in %q is not legal in %s: %v", text, l, q, err)
			}
			q.DoMove(mv)
		}
		if strings.TrimSpace(m[5]) == "" {
			t.Errorf("thinking line %q has no pv", l)
		}
	}
	return n
}

func TestXBoardSession(t *testing.T) {
	s := newSession(t)
	s.Send("xboard")
	s.Send("protover 2")
	s.Until("feature done=1")
	features := strings.Join(s.Seen, "\n")
	for _, f := range []string{`myname="bomberzero"`, "setboard=1", "usermove=1", "ping=1", "sigint=0", "sigterm=0",
		"san=0", "colors=0", "analyze=1", "memory=1", "smp=1", "name=1", "debug=1", `option="Model -string engine"`} {
		if !strings.Contains(features, f) {
			t.Errorf("the features lack %s:\n%s", f, features)
		}
	}
	vars := regexp.MustCompile(`variants="([^"]*)"`).FindStringSubmatch(features)
	if vars == nil {
		t.Fatalf("no variants feature:\n%s", features)
	}
	offered := map[string]bool{}
	for _, n := range strings.Split(vars[1], ",") {
		offered[n] = true
	}
	if !offered["normal"] {
		t.Errorf("variants %q lack normal (orthodox chess)", vars[1])
	}
	for _, n := range env.VariantNames() {
		if n != "chess" && !offered[n] {
			t.Errorf("variants %q lack %s", vars[1], n)
		}
	}
	s.Send("accepted setboard") // XBoard's answers to features are ignored
	if got := s.sync(1); len(got) != 0 {
		t.Errorf("before pong 1: %q, want nothing", got)
	}
	s.Send("option Playouts=100")

	// Orthodox chess: after new the engine plays Black and answers a move.
	s.Send("new")
	s.Send("usermove e2e4")
	reply := strings.TrimPrefix(s.Until("move "), "move ")
	chess, _ := env.LoadVariant("chess")
	p, err := env.PlayMoves(chess.NewPosition(), "e2e4")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMove(p, reply)
	if err != nil {
		t.Fatalf("the engine answered e2e4 with %q, not a legal move: %v", reply, err)
	}
	p.DoMove(m)
	// go: the engine takes White and moves.
	s.Send("force")
	s.Send("usermove d2d4")
	p.DoMove(mustParse(t, p, "d2d4"))
	s.Send("go")
	reply = strings.TrimPrefix(s.Until("move "), "move ")
	if _, err := ParseMove(p, reply); err != nil {
		t.Fatalf("go answered %q, not a legal move of %s: %v", reply, p, err)
	}

	// playother: the engine takes the side not on move and answers its move.
	s.Send("new")
	s.Send("force")
	s.Send("usermove e2e4")
	s.Send("playother")
	if got := s.sync(10); len(got) != 0 {
		t.Errorf("after playother, with the opponent on move: %q, want nothing", got)
	}
	s.Send("usermove e7e5")
	reply = strings.TrimPrefix(s.Until("move "), "move ")
	p, _ = env.PlayMoves(chess.NewPosition(), "e2e4 e7e5")
	if _, err := ParseMove(p, reply); err != nil {
		t.Errorf("playother then e7e5: the engine (White) answered %q: %v", reply, err)
	}
	// remove takes back two moves, undo one.
	s.Send("force")
	s.Send("remove")
	if got := s.syncAfter("d", 11); len(got) != 1 || !strings.Contains(got[0], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b") {
		t.Errorf("after remove: %q, want the position after e2e4", got)
	}
	s.Send("undo")
	if got := s.syncAfter("d", 12); len(got) != 1 || !strings.Contains(got[0], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w") {
		t.Errorf("after undo: %q, want the start", got)
	}
	// An illegal move is refused and the position kept.
	s.Send("new")
	s.Send("force")
	if got := strings.Join(s.syncAfter("usermove e2e5", 2), "\n"); !strings.HasPrefix(got, "Illegal move (") || !strings.HasSuffix(got, "): e2e5") {
		t.Errorf("e2e5 from the start: %q, want Illegal move (reason): e2e5", got)
	}
	if got := s.syncAfter("d", 3); len(got) != 1 || !strings.Contains(got[0], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w") {
		t.Errorf("after the illegal move: %q, want the start position", got)
	}

	// A malformed position is refused with an Error line, and moves with it.
	got := s.syncAfter("setboard rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4)
	if len(got) == 0 || !strings.HasPrefix(got[0], "Error (") || !strings.Contains(got[0], "setboard") {
		t.Errorf("a 9-file rank: %q, want Error (...): setboard ...", got)
	}
	if got := strings.Join(s.syncAfter("usermove e2e4", 5), "\n"); !strings.HasPrefix(got, "Illegal move (") {
		t.Errorf("a move after a refused position: %q, want Illegal move", got)
	}

	// FBGC: the variant command answers with XBoard's setup and piece lines.
	got = s.syncAfter("variant fbgc", 6)
	fbgc, _ := env.LoadVariant("fbgc")
	want := []string{
		"setup (PNBRQ............FKpnbrq............fk) 10x10+0_fairy " + fbgc.NewPosition().String(),
		"piece F& mRcafmRDcafmcW",
		"piece K KirjO1irjO2irjO3iljO1iljO2iljO3iljO4",
		"piece k KiljO1iljO2iljO3irjO1irjO2irjO3irjO4",
		"piece P& fmWfceFifmW3",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("variant fbgc said:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasSuffix(got[0], " frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF w KQkq - 0 1") {
		t.Errorf("the setup FEN is not fbgc's start: %s", got[0])
	}
	// XBoard numbers a 10-rank board's ranks from 0: e1e3 is fbgc's e2-e4.
	s.Send("force")
	s.Send("usermove e1e3")
	if got := s.syncAfter("d", 7); len(got) != 1 || !strings.Contains(got[0], "/4P5/10/PPPP1PPPPP/") {
		t.Errorf("after usermove e1e3: %q, want the e-pawn on fbgc's e4", got)
	}

	// A fly-over read from its plain from-to is played, with a word that
	// XBoard's board may still show the piece flown over; its two legs
	// are played without one.
	s.Send("setboard k9/10/10/10/10/3p6/10/10/10/3F2K3 w - - 0 1")
	if got := strings.Join(s.syncAfter("usermove d0d5", 14), "\n"); !strings.HasPrefix(got, "telluser ") || !strings.Contains(got, "d4") {
		t.Errorf("a plain fly-over: %q, want a telluser naming d4", got)
	}
	s.Send("setboard k9/10/10/10/10/3p6/10/10/10/3F2K3 w - - 0 1")
	if got := s.syncAfter("usermove d0d4,d4d5", 15); len(got) != 0 {
		t.Errorf("a two-leg fly-over: %q, want nothing", got)
	}
	if got := s.syncAfter("d", 16); len(got) != 1 || !strings.Contains(got[0], "k9/10/10/10/3F6/10/10/10/10/6K3 b") {
		t.Errorf("after the fly-over: %q, want the pawn gone and the bomber on fbgc's d6", got)
	}

	// The king sent onto its own b-file rook: XBoard would castle it as in
	// Chess960 (king c0, rook d0), so the user is told; onto the i-file
	// rook XBoard agrees with the rules (king i0, rook h0).
	s.Send("setboard 5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1")
	if got := strings.Join(s.syncAfter("usermove f0b0", 17), "\n"); !strings.HasPrefix(got, "telluser ") {
		t.Errorf("the king onto the b-file rook: %q, want a telluser", got)
	}
	s.Send("setboard 5k4/10/10/10/10/10/10/10/10/1R3K2R1 w KQ - 0 1")
	if got := s.syncAfter("usermove f0i0", 18); len(got) != 0 {
		t.Errorf("the king onto the i-file rook: %q, want nothing", got)
	}

	// FBGC's mate in one (as uci_test): found, scored as a mate, the result sent.
	s.Send("setboard k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1")
	s.Send("option Playouts=500")
	s.Send("post")
	s.Seen = nil
	s.Send("go")
	if l := s.Until("move "); l != "move e0e9" {
		t.Errorf("mate in one: %s, want move e0e9 (fbgc's e1-e10)", l)
	}
	if l := s.Until("1-0"); l != "1-0 {White mates}" {
		t.Errorf("after the mate: %q", l)
	}
	if !strings.Contains(strings.Join(s.Seen, "\n"), " 100001 ") {
		t.Errorf("no mate score (100001) in the thinking:\n%s", strings.Join(s.Seen, "\n"))
	}

	// Analysis: thinking lines with legal pvs until exit.
	s.Send("new")
	s.Send("variant fbgc")
	s.Send("force")
	s.Send("usermove e1e3")
	s.Send("post")
	s.Send("analyze")
	s.Seen = nil
	for {
		l := s.Until("")
		if thinking.MatchString(l) {
			break
		}
	}
	analysed := s.Seen
	s.Send("exit")
	lines := s.sync(8)
	start, err := env.PlayMoves(fbgc.NewPosition(), "e2-e4")
	if err != nil {
		t.Fatal(err)
	}
	if n := checkPV(t, start, append(analysed, lines...)); n == 0 {
		t.Errorf("no thinking lines in analysis")
	}
	// After exit the engine is idle: nothing more comes before a pong.
	if got := s.sync(9); len(got) != 0 {
		t.Errorf("after exit: %q, want nothing", got)
	}
	// A ping while the engine thinks is answered after its move.
	s.Send("new")
	s.Send("st 1")
	s.Send("go")
	got = s.syncAfter("ping 13", 13)
	if len(got) == 0 || !strings.HasPrefix(got[len(got)-1], "move ") {
		t.Errorf("ping during the search: %q before the pong, want the move last", got)
	}
	// ? plays at once: a 30-second search ends in well under that.
	s.Send("force")
	s.Send("st 30")
	began := time.Now()
	s.Send("go")
	s.Send("?")
	s.Until("move ")
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("? took %v to move in a 30 s search", d)
	}
	s.Send("quit")
}

// syncAfter sends cmd and returns what the engine says before pong n.
func (s *conversation) syncAfter(cmd string, n int) []string {
	s.t.Helper()
	s.Seen = nil
	s.Send(cmd)
	s.Send(fmt.Sprintf("ping %d", n))
	s.Until(fmt.Sprintf("pong %d", n))
	return s.Seen[:len(s.Seen)-1]
}

func mustParse(t *testing.T, p *env.Position, text string) env.Move {
	t.Helper()
	m, err := ParseMove(p, text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMalformedCommandsAreAnsweredNotFatal(t *testing.T) {
	s := newSession(t)
	s.Send("xboard")
	s.Send("protover 2")
	s.Until("feature done=1")
	for i, c := range []struct{ cmd, want string }{
		{"frobnicate", "Error (unknown command): frobnicate"},
		{"variant nosuch", "Error (unknown variant"},
		{"variant", "Error (unknown variant"},
		{"level 40 5", "Error (want level"},
		{"level x 5 0", "Error (moves per session"},
		{"level 40 5:xx 0", "Error (base time"},
		{"level 40 5 -1", "Error (increment"},
		{"st", "Error (want seconds"},
		{"st -3", "Error (want seconds"},
		{"sd 0", "Error (want a depth"},
		{"time soon", "Error (want centiseconds"},
		{"option Playouts=0", "Error (Playouts"},
		{"option Model=", "Error (Model"},
		{"option Colour=red", "Error (unknown option"},
		{"option", "Error (want option"},
		{"undo", "Error (command not legal now): undo"},
		{"remove", "Error (command not legal now): remove"},
		{"usermove", "Illegal move ("},
		{"usermove e2", "Illegal move ("},
		{"usermove P@", "Illegal move ("},
		{"e9e1", "Illegal move ("}, // a bare move
		{"setboard", "Error (illegal position"},
		{"setboard 8/8/8/8/8/8/8/8 w - - 0 1", "Error (illegal position"},
	} {
		got := s.syncAfter(c.cmd, 100+i)
		if len(got) == 0 || !strings.HasPrefix(got[0], c.want) {
			t.Errorf("%q: %q, want a line starting %q", c.cmd, got, c.want)
		}
	}
	s.Send("quit")
}
