package uci

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"bomberzero/env"
	"bomberzero/frontend/session"
	"bomberzero/frontend/session/sessiontest"
)

// uciMoves is the notation of the moves UCI sends and reads.
var uciMoves env.UCI

// newSession starts a UCI engine; the cleanup checks that it ends without
// error.
func newSession(t *testing.T) *sessiontest.Conversation { return sessiontest.Start(t, Run) }

func TestUCISession(t *testing.T) {
	s := newSession(t)
	s.Send("uci")
	s.Until("uciok")
	opts := strings.Join(s.Seen, "\n")
	for _, n := range env.VariantNames() {
		if !strings.Contains(opts, " var "+n) {
			t.Errorf("UCI_Variant does not offer %s:\n%s", n, opts)
		}
	}
	s.Send("isready")
	s.Until("readyok")

	// Orthodox chess: a legal reply after moves in coordinate form, with
	// info lines carrying nodes, score and a legal pv.
	s.Send("ucinewgame")
	s.Send("position startpos moves e2e4 e7e5 g1f3")
	s.Seen = nil
	s.Send("go nodes 200")
	best := strings.Fields(s.Until("bestmove"))[1]
	v, _ := env.LoadVariant("chess")
	p, err := env.PlayMoves(v.NewPosition(), "e2e4 e7e5 g1f3")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := uciMoves.ParseMove(p, best); err != nil {
		t.Errorf("bestmove %s is not legal: %v", best, err)
	}
	infos := 0
	for _, l := range s.Seen {
		if strings.HasPrefix(l, "info depth") {
			infos++
			f := strings.Fields(l)
			if !strings.Contains(l, " nodes ") || !strings.Contains(l, " score ") {
				t.Errorf("info line %q lacks nodes or score", l)
			}
			i := strings.Index(l, " pv ")
			q := p.Clone()
			for _, m := range strings.Fields(l[i+4:]) {
				mv, err := uciMoves.ParseMove(q, m)
				if err != nil {
					t.Fatalf("pv move %s in %q: %v", m, l, err)
				}
				q.DoMove(mv)
			}
			_ = f
		}
	}
	if infos < 2 {
		t.Errorf("%d info lines for a doubling search to 200 nodes, want several:\n%s", infos, strings.Join(s.Seen, "\n"))
	}

	// A promotion in UCI's form.
	s.Send("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8q h7g6")
	s.Send("d")
	if l := s.Until("info string"); !strings.Contains(l, "Q7/8/6k1") {
		t.Errorf("after a7a8q: %s", l)
	}

	// FBGC: a mate in one found and scored as a mate, in 10x10 squares.
	s.Send("setoption name UCI_Variant value fbgc")
	s.Send("position fen k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1")
	s.Seen = nil
	s.Send("go nodes 500")
	if l := s.Until("bestmove"); l != "bestmove e1e10" {
		t.Errorf("mate in one: %s", l)
	}
	if !strings.Contains(strings.Join(s.Seen, "\n"), "score mate 1") {
		t.Errorf("no mate score:\n%s", strings.Join(s.Seen, "\n"))
	}

	// Birds and Ninjas: a drop with a push in the extended form.
	s.Send("setoption name UCI_Variant value birds-ninjas")
	s.Send("position startpos moves e2e4 e9e7 J@e2e3")
	s.Send("d")
	if l := s.Until("info string"); !strings.Contains(l, "[JJJjjjj]") {
		t.Errorf("after the drop J@e2e3: %s", l)
	}
	s.Send("position startpos moves e2e4 e9e7 J@d2")
	// Refused, the move named once (the error prefix was doubled).
	if l := s.Until("info string"); !strings.Contains(l, "refused") || strings.Count(l, "J@d2") != 1 {
		t.Errorf("an illegal drop was not refused naming it once: %s", l)
	}

	// go infinite runs until stop, then answers bestmove.
	s.Send("position startpos")
	s.Send("go infinite")
	time.Sleep(200 * time.Millisecond)
	s.Send("stop")
	s.Until("bestmove")
	s.Send("isready")
	s.Until("readyok")
	s.Send("quit")
}

// TestMatchAgainstStockfish plays a short real match on orthodox chess
// against Debian's stockfish at its lowest level (Skill Level 0, 1 node a
// move), both engines driven over UCI, every move checked legal, and
// reports the score: bomberzero with the material model at 300 playouts
// and with the alpha-beta engine at 3000 nodes.
func TestMatchAgainstStockfish(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup []string
		goCmd string
		games int
	}{
		{"material, 300 playouts", []string{"setoption name Playouts value 300"}, "go nodes 300", 4},
		{"engine, 3000 nodes", []string{"setoption name Model value engine"}, "go nodes 3000", 2},
	} {
		t.Run(c.name, func(t *testing.T) { playStockfish(t, c.name, c.setup, c.goCmd, c.games) })
	}
}

// playStockfish plays games against stockfish, bomberzero set up by the
// setoption lines setup and searching by goCmd.
func playStockfish(t *testing.T, name string, setup []string, goCmd string, games int) {
	path, err := exec.LookPath("stockfish")
	if err != nil {
		if path, err = exec.LookPath("/usr/games/stockfish"); err != nil {
			t.Skip("no stockfish on PATH (scripts/test.sh installs it)")
		}
	}
	if testing.Short() {
		t.Skip("-short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path)
	sfIn, _ := cmd.StdinPipe()
	sfOut, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer sfIn.Close()
	sf := sessiontest.New(t, sfIn, sfOut)
	sf.Send("uci")
	sf.Until("uciok")
	sf.Send("setoption name Skill Level value 0")
	sf.Send("isready")
	sf.Until("readyok")
	bz := newSession(t)
	bz.Send("uci")
	bz.Until("uciok")
	for _, l := range setup {
		bz.Send(l)
	}

	v, _ := env.LoadVariant("chess")
	const maxPlies = 200
	var score float64
	for g := 0; g < games; g++ {
		pos := v.NewPosition()
		var moves []string
		bzWhite := g%2 == 0
		res, why := env.Ongoing, env.NotOver
		for ply := 0; ; ply++ {
			if res, why = pos.Status(); res != env.Ongoing {
				break
			}
			if ply >= maxPlies {
				res, why = env.Draw, env.LengthCap
				break
			}
			e, cmd := sf, "go nodes 1"
			if (pos.SideToMove() == env.White) == bzWhite {
				e, cmd = bz, goCmd
			}
			e.Send("position startpos moves " + strings.Join(moves, " "))
			e.Seen = nil
			e.Send(cmd)
			best := strings.Fields(e.Until("bestmove"))[1]
			m, err := uciMoves.ParseMove(pos, best)
			if err != nil {
				t.Fatalf("game %d ply %d: %s played %q, illegal in %s: %v", g, ply, map[bool]string{true: "bomberzero", false: "stockfish"}[e == bz], best, pos, err)
			}
			moves = append(moves, best)
			pos.DoMove(m)
		}
		pts := 0.5
		switch {
		case res == env.WhiteWins && bzWhite, res == env.BlackWins && !bzWhite:
			pts = 1
		case res != env.Draw:
			pts = 0
		}
		score += pts
		t.Logf("game %d: bomberzero (%s) with %s: %s by %s in %d plies", g+1, name, map[bool]string{true: "White", false: "Black"}[bzWhite], res, why, len(moves))
	}
	t.Logf("bomberzero (%s) scored %.1f of %d against stockfish (Skill Level 0, 1 node)", name, score, games)
}

// TestGoInfiniteStopsGrowingAtTheTreeBudget: with the material model under
// a 1 MiB tree (tree_memory_mb = 1), go infinite searches until its tree is
// full, says so, then waits for stop and answers a legal move at once.
func TestGoInfiniteStopsGrowingAtTheTreeBudget(t *testing.T) {
	base, err := session.DefaultSearch()
	if err != nil {
		t.Fatal(err)
	}
	base.TreeMemoryMB = 1
	s := sessiontest.Start(t, func(ctx context.Context, in io.Reader, out io.Writer) error {
		return RunWith(ctx, in, out, base)
	})
	s.Send("uci")
	s.Until("uciok")
	s.Send("setoption name Model value material")
	s.Send("position startpos")
	s.Send("go infinite")
	full := s.Until("info string the search tree is full")
	var nodes int
	if _, err := fmt.Sscanf(full, "info string the search tree is full (%d nodes", &nodes); err != nil || nodes > base.NodeBudget()+8*256 {
		t.Errorf("%q: want the tree's size within its budget %d", full, base.NodeBudget())
	}
	time.Sleep(100 * time.Millisecond)
	began := time.Now()
	s.Send("stop")
	l := s.Until("bestmove")
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("stop answered after %v", d)
	}
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := uciMoves.ParseMove(v.NewPosition(), strings.Fields(l)[1]); err != nil {
		t.Errorf("%q: %v", l, err)
	}
	s.Send("quit")
}
