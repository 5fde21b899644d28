package uci

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"bomberzero/env"
)

// infoField returns the word after key in a UCI info line, "" when none.
func infoField(line, key string) string {
	f := strings.Fields(line)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == key {
			return f[i+1]
		}
	}
	return ""
}

// checkLine fails the test when pv (the words after " pv " in line) is not
// a line of legal moves from p; it returns the first move.
func checkLine(t *testing.T, p *env.Position, line string) string {
	t.Helper()
	i := strings.Index(line, " pv ")
	if i < 0 {
		t.Fatalf("no pv in %q", line)
	}
	q := p.Clone()
	moves := strings.Fields(line[i+4:])
	for _, m := range moves {
		mv, err := uciMoves.ParseMove(q, m)
		if err != nil {
			t.Fatalf("pv move %s in %q: %v", m, line, err)
		}
		q.DoMove(mv)
	}
	if len(moves) == 0 {
		t.Fatalf("empty pv in %q", line)
	}
	return moves[0]
}

func TestEngineGoDepthReportsEveryIterationAndALegalMove(t *testing.T) {
	s := newSession(t)
	s.Send("uci")
	s.Until("uciok")
	for _, name := range []string{"Hash", "Threads", "MultiPV"} {
		if !strings.Contains(strings.Join(s.Seen, "\n"), "option name "+name+" type spin default ") {
			t.Errorf("no option %s:\n%s", name, strings.Join(s.Seen, "\n"))
		}
	}
	s.Send("setoption name Model value engine")
	s.Send("position startpos moves e2e4 e7e5")
	s.Seen = nil
	s.Send("go depth 4")
	best := strings.Fields(s.Until("bestmove"))[1]
	v, _ := env.LoadVariant("chess")
	p, err := env.PlayMoves(v.NewPosition(), "e2e4 e7e5")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := uciMoves.ParseMove(p, best); err != nil {
		t.Errorf("bestmove %s is not legal: %v", best, err)
	}
	var depths []int
	for _, l := range s.Seen {
		if !strings.HasPrefix(l, "info depth") {
			continue
		}
		d, _ := strconv.Atoi(infoField(l, "depth"))
		depths = append(depths, d)
		for _, key := range []string{"seldepth", "nodes", "nps", "hashfull", "time"} {
			if _, err := strconv.Atoi(infoField(l, key)); err != nil {
				t.Errorf("%s not a number in %q", key, l)
			}
		}
		if sc := infoField(l, "score"); sc != "cp" && sc != "mate" {
			t.Errorf("score %q in %q, want cp or mate", sc, l)
		}
		if infoField(l, "multipv") != "" {
			t.Errorf("multipv with MultiPV 1: %q", l)
		}
		checkLine(t, p, l)
	}
	if len(depths) != 4 {
		t.Fatalf("depths %v, want 1 to 4:\n%s", depths, strings.Join(s.Seen, "\n"))
	}
	for i, d := range depths {
		if d != i+1 {
			t.Errorf("depths %v, want 1, 2, 3, 4", depths)
			break
		}
	}
	s.Send("quit")
}

func TestEngineStopsAnInfiniteSearchAtOnce(t *testing.T) {
	s := newSession(t)
	s.Send("setoption name Model value engine")
	s.Send("position startpos")
	s.Send("go infinite")
	time.Sleep(300 * time.Millisecond)
	s.Seen = nil
	sent := time.Now()
	s.Send("stop")
	best := strings.Fields(s.Until("bestmove"))[1]
	// The engine stops within a few milliseconds (engine's
	// TestStopIsObeyedWithin50ms measures the search's own lag); the bound
	// here is for the session's path on a loaded machine under the race
	// detector, and an ignored stop never answers at all.
	d := time.Since(sent)
	if d > 2*time.Second {
		t.Errorf("bestmove %v after stop, want within 2s", d)
	}
	t.Logf("bestmove %v after stop", d)
	v, _ := env.LoadVariant("chess")
	if _, err := uciMoves.ParseMove(v.NewPosition(), best); err != nil {
		t.Errorf("bestmove %s is not legal: %v", best, err)
	}
	// Clock limits and movestogo end a search by themselves.
	s.Send("go wtime 2000 btime 2000 winc 10 binc 10 movestogo 20")
	s.Until("bestmove")
	s.Send("go movetime 50")
	s.Until("bestmove")
	// A clock already run out (as some GUIs send) is the least time, for
	// the engine and the model alike: a move at once, not a refusal.
	for _, model := range []string{"engine", "material"} {
		s.Send("setoption name Model value " + model)
		s.Seen = nil
		began := time.Now()
		s.Send("go wtime -20 btime 1000")
		s.Until("bestmove")
		if d := time.Since(began); d > 2*time.Second || strings.Contains(strings.Join(s.Seen, "\n"), "info string") {
			t.Errorf("%s: a run-out clock took %v: %q", model, d, s.Seen)
		}
	}
	s.Send("quit")
}

func TestEngineMultiPVGivesDistinctLines(t *testing.T) {
	s := newSession(t)
	s.Send("setoption name Model value engine")
	s.Send("setoption name MultiPV value 3")
	s.Send("position startpos")
	s.Seen = nil
	s.Send("go depth 3")
	s.Until("bestmove")
	v, _ := env.LoadVariant("chess")
	first := map[string]string{} // multipv rank: first move, at the last depth
	for _, l := range s.Seen {
		if strings.HasPrefix(l, "info depth 3 ") {
			first[infoField(l, "multipv")] = checkLine(t, v.NewPosition(), l)
		}
	}
	if len(first) != 3 || first["1"] == "" || first["2"] == "" || first["3"] == "" {
		t.Fatalf("lines at depth 3 by rank %v, want multipv 1, 2 and 3:\n%s", first, strings.Join(s.Seen, "\n"))
	}
	if first["1"] == first["2"] || first["1"] == first["3"] || first["2"] == first["3"] {
		t.Errorf("the three lines do not start with distinct moves: %v", first)
	}
	s.Send("quit")
}

func TestEngineOptionsOutOfRangeAreRefusedAndTheSessionKeepsWorking(t *testing.T) {
	s := newSession(t)
	s.Send("setoption name Model value engine")
	s.Send("setoption name MultiPV value 2")
	for _, c := range []struct{ name, value, want string }{
		{"Hash", "0", `Hash "0": want 1 to 4096`},
		{"Hash", "1000000", `Hash "1000000": want 1 to 4096`},
		{"Threads", "0", `Threads "0": want 1 to 256`},
		{"Threads", "999", `Threads "999": want 1 to 256`},
		{"MultiPV", "0", `MultiPV "0": want 1 to 256`},
		{"MultiPV", "many", `MultiPV "many": want 1 to 256`},
	} {
		s.Seen = nil
		s.Send("setoption name " + c.name + " value " + c.value)
		if l := s.Until("info string"); l != "info string "+c.want {
			t.Errorf("setoption %s %s: %q, want %q", c.name, c.value, l, "info string "+c.want)
		}
	}
	// Still MultiPV 2 and a working engine.
	s.Send("position startpos")
	s.Seen = nil
	s.Send("go depth 2")
	s.Until("bestmove")
	if !strings.Contains(strings.Join(s.Seen, "\n"), "info depth 2 seldepth") || !strings.Contains(strings.Join(s.Seen, "\n"), " multipv 2 ") {
		t.Errorf("after refused options, no depth-2 lines with multipv 2:\n%s", strings.Join(s.Seen, "\n"))
	}
	// A limit out of the engine's range is refused by name, and UCI still
	// gets its bestmove.
	s.Seen = nil
	s.Send("go depth 5000")
	s.Until("bestmove")
	if !strings.Contains(strings.Join(s.Seen, "\n"), "depth 5000: want 1 to") {
		t.Errorf("go depth 5000 not refused by name:\n%s", strings.Join(s.Seen, "\n"))
	}
	s.Send("setoption name Hash value 1")
	s.Send("setoption name Threads value 2")
	s.Send("ucinewgame")
	s.Send("position startpos moves d2d4")
	s.Send("go nodes 3000")
	s.Until("bestmove")
	s.Send("quit")
}
