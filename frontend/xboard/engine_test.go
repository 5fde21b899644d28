package xboard

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"bomberzero/env"
)

func TestXBoardDrivesTheEngine(t *testing.T) {
	s := newSession(t)
	s.Send("xboard")
	s.Send("protover 2")
	s.Until("feature done=1")
	s.Send("new")
	s.Send("option Model=engine")
	s.Send("memory 32")
	s.Send("cores 2")
	s.Send("post")
	s.Send("sd 3")
	s.Send("force")
	s.Send("usermove e2e4")
	s.Seen = nil
	s.Send("go")
	reply := s.Until("move ")
	v, _ := env.LoadVariant("chess")
	p, err := env.PlayMoves(v.NewPosition(), "e2e4")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseMove(p, strings.TrimPrefix(reply, "move ")); err != nil {
		t.Errorf("%s: not legal: %v", reply, err)
	}
	if n := checkPV(t, p, s.Seen); n != 3 {
		t.Errorf("%d thinking lines for sd 3, want one a ply:\n%s", n, strings.Join(s.Seen, "\n"))
	}
	for i, l := range s.Seen[:3] {
		m := thinking.FindStringSubmatch(l)
		if m == nil || m[1] != strconv.Itoa(i+1) {
			t.Errorf("thinking line %d %q: want ply %d", i, l, i+1)
		}
	}

	// Out-of-range memory and cores are refused naming the option.
	for _, c := range []struct{ cmd, want string }{
		{"memory 0", `Error (Hash "0": want 1 to 4096): memory 0`},
		{"memory 100000", `Error (Hash "100000": want 1 to 4096): memory 100000`},
		{"cores 0", `Error (Threads "0": want 1 to 256): cores 0`},
		{"option MultiPV=0", `Error (MultiPV "0": want 1 to 256): option MultiPV=0`},
		{"option Hash=8", `Error (Hash is set with memory, not option): option Hash=8`},
	} {
		if got := s.syncAfter(c.cmd, 1); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %q, want %q", c.cmd, got, c.want)
		}
	}

	// st: a time a move, kept.
	s.Send("new")
	s.Send("option Model=engine")
	s.Send("st 0.2")
	s.Send("force")
	s.Send("usermove d2d4")
	began := time.Now()
	s.Send("go")
	s.Seen = nil
	s.Until("move ")
	if d := time.Since(began); d > 2*time.Second || d < 100*time.Millisecond {
		t.Errorf("st 0.2 took %v: %q", d, s.Seen)
	}

	// level and time: a clock the engine budgets from.
	s.Send("new")
	s.Send("option Model=engine")
	s.Send("level 40 0:30 0")
	s.Send("time 3000")
	s.Send("otim 3000")
	s.Send("usermove e2e4")
	began = time.Now()
	s.Seen = nil
	reply = s.Until("move ")
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("30 s for 40 moves took %v for one", d)
	}
	q, err := env.PlayMoves(v.NewPosition(), "e2e4")
	if err != nil {
		t.Fatal(err)
	}
	q.DoMove(mustParse(t, q, strings.TrimPrefix(reply, "move ")))

	// Analysis runs until exit, posting its lines.
	s.Send("force")
	s.Send("analyze")
	time.Sleep(300 * time.Millisecond)
	s.Send("exit")
	if n := checkPV(t, q, s.sync(2)); n == 0 {
		t.Errorf("no thinking lines in analysis")
	}
	s.Send("quit")
}
