package external

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"bomberzero/env"
	"bomberzero/match"
)

// fakeEnv names the variable that turns this test binary into a
// misbehaving UCI engine (fakeEngine) when the tests run it as one.
const fakeEnv = "BOMBERZERO_FAKE_UCI_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) != "" {
		fakeEngine(strings.TrimPrefix(filepath.Base(os.Args[0]), "fake-"))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine speaks enough UCI to pass the handshake, then misbehaves at
// its first "go" after the check's: "crash" exits, "hang" never answers,
// "illegal" sends a move that is not legal, "long" sends an endless line,
// "none" sends "bestmove (none)"; "play" answers every "go" with the first
// legal move of the position it was given. It answers "go depth 1" (the
// loader's check) with a legal chess move, so that it is accepted as a
// player.
func fakeEngine(mode string) {
	chess, err := env.LoadVariant("chess")
	if err != nil {
		os.Exit(2)
	}
	pos := chess.NewPosition()
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) { fmt.Fprintln(out, s); out.Flush() }
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			say("id name fake")
			say("option name Hash type spin default 16 min 1 max 1024")
			if mode != "nouciok" {
				say("uciok")
			}
		case "isready":
			say("readyok")
		case "quit":
			return
		case "position":
			pos = fakePosition(chess, f[1:])
		case "go":
			if len(f) == 3 && f[1] == "depth" && f[2] == "1" {
				say("bestmove e2e4")
				continue
			}
			switch mode {
			case "crash":
				os.Exit(3)
			case "hang":
				continue
			case "illegal":
				say("bestmove e2e5")
			case "long":
				say("info string " + strings.Repeat("x", 1<<17))
			case "none":
				say("bestmove (none)")
			case "play":
				if pos == nil {
					say("bestmove (none)")
					continue
				}
				moves := pos.LegalMoves(nil)
				say("bestmove " + env.UCI{}.FormatMove(pos, moves[0]))
			}
		}
	}
}

// fakePosition reads the arguments of a "position fen FEN [moves ...]"
// command, or returns nil.
func fakePosition(v *env.Variant, args []string) *env.Position {
	if len(args) < 2 || args[0] != "fen" {
		return nil
	}
	fen, moves, _ := strings.Cut(strings.Join(args[1:], " "), " moves ")
	pos, err := v.ParsePosition(fen)
	if err != nil {
		return nil
	}
	for _, text := range strings.Fields(moves) {
		m, err := env.UCI{}.ParseMove(pos, text)
		if err != nil {
			return nil
		}
		pos.DoMove(m)
	}
	return pos
}

// fake returns the config of this test binary run as a fake engine in
// mode: a link to it named fake-MODE, which fakeEngine reads.
func fake(t *testing.T, mode string, opts string) Config {
	t.Helper()
	t.Setenv(fakeEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "fake-"+mode)
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseSpec(link + ":" + opts)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestParseSpec(t *testing.T) {
	for _, c := range []struct {
		rest, want string // want: a fragment of the error, or "" for none
		check      func(Config) bool
	}{
		{"stockfish", "", func(c Config) bool {
			return c.Path == "stockfish" && c.MoveTime == 100*time.Millisecond && c.Grace == DefaultGrace
		}},
		{"stockfish:movetime=250", "", func(c Config) bool { return c.MoveTime == 250*time.Millisecond }},
		{"/x/y:movetime=1.5s,nodes=1000,depth=9", "", func(c Config) bool {
			return c.Path == "/x/y" && c.MoveTime == 1500*time.Millisecond && c.Nodes == 1000 && c.Depth == 9
		}},
		{"sf:nodes=5", "", func(c Config) bool { return c.MoveTime == 0 && c.Nodes == 5 }},
		{"sf:UCI_LimitStrength=true,UCI_Elo=1800,Threads=1", "", func(c Config) bool {
			return len(c.Options) == 3 && c.Options[1] == Option{"UCI_Elo", "1800"}
		}},
		{"sf:variant=grand,grace=0", "", func(c Config) bool { return c.Variant == "grand" && c.Grace == 0 }},
		{"", "no engine program", nil},
		{":movetime=5", "no engine program", nil},
		{"sf:movetime=0", "movetime", nil},
		{"sf:movetime=2h", "movetime", nil},
		{"sf:movetime=fast", "movetime", nil},
		{"sf:nodes=-1", "nodes", nil},
		{"sf:depth=1000", "depth", nil},
		{"sf:grace=-1s", "grace", nil},
		{"sf:Hash", "want KEY=VALUE", nil},
		{"sf:=3", "want KEY=VALUE", nil},
		{"sf:variant=a b", "variant", nil},
	} {
		cfg, err := ParseSpec(c.rest)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("ParseSpec(%q): %v", c.rest, err)
		case c.want == "" && !c.check(cfg):
			t.Errorf("ParseSpec(%q) = %+v", c.rest, cfg)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("ParseSpec(%q) error %v, want one naming %q", c.rest, err, c.want)
		}
	}
}

// TestMisbehavingEngineLosesTheGameNotTheMatch plays a fake engine that
// crashes, hangs, sends an illegal move, an endless line or no move against
// a random player: every game ends, by forfeit, lost by the engine, with the
// reason recorded, and the match completes.
func TestMisbehavingEngineLosesTheGameNotTheMatch(t *testing.T) {
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ mode, reason string }{
		{"crash", "exited"},
		{"hang", "hung"},
		{"illegal", `illegal move "e2e5"`},
		{"long", "unreadable"},
		{"none", "no move"},
	} {
		t.Run(c.mode, func(t *testing.T) {
			cfg := fake(t, c.mode, "movetime=50,grace=200ms")
			eng, err := NewMaker(context.Background(), "uci:fake-"+c.mode, cfg, v)
			if err != nil {
				t.Fatalf("the fake engine fails the loader's check: %v", err)
			}
			rnd, err := match.Parse("random", v, match.Options{})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			res, err := match.Run(context.Background(), match.Config{A: eng, B: rnd, Games: 2, Start: v.NewPosition(), MaxPlies: 40, Workers: 1, KeepGames: true})
			if err != nil {
				t.Fatalf("the match failed: %v", err)
			}
			if res.Total.Losses != 2 || res.Reasons[env.Forfeit] != 2 {
				t.Fatalf("engine's record %+v, endings %v: want two losses by forfeit", res.Total, res.Reasons)
			}
			for _, g := range res.Records {
				if !strings.Contains(g.Reason, c.reason) || !strings.Contains(g.Reason, "uci:fake-"+c.mode) {
					t.Errorf("game %d's reason %q does not name the engine and %q", g.Index, g.Reason, c.reason)
				}
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("two forfeited games took %v", d)
			}
		})
	}
}

func TestLoaderRefusesWhatTheEngineCannotDo(t *testing.T) {
	chess, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	fbgc, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  Config
		v    *env.Variant
		want string
	}{
		{"unknown option", fake(t, "hang", "NoSuchOption=1"), chess, `no UCI option "NoSuchOption"`},
		{"a variant a chess engine lacks", fake(t, "hang", ""), fbgc, "no UCI_Variant option"},
		{"no uciok", fake(t, "nouciok", ""), chess, "no uciok"},
		{"no program", Config{Path: "/nonexistent/engine", MoveTime: time.Millisecond}, chess, "/nonexistent/engine"},
		{"no program on PATH", Config{Path: "no-such-engine-bz", MoveTime: time.Millisecond}, chess, "not found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := NewMaker(context.Background(), "uci:x", c.cfg, c.v)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("NewMaker: %v, want an error naming %q", err, c.want)
			}
			if d := time.Since(start); d > 2*handshakeTimeout {
				t.Errorf("refusal took %v", d)
			}
		})
	}
}

// TestStopIsObeyedWhenTheContextEnds: a search of a hung engine returns
// the context's error soon after the context ends, not at its deadline.
func TestStopIsObeyedWhenTheContextEnds(t *testing.T) {
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	cfg := fake(t, "hang", "movetime=60000")
	p := &Player{spec: "uci:fake", cfg: cfg, v: v}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = p.ChooseContext(ctx, v.NewPosition())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ChooseContext: %v, want the context's error", err)
	}
	// The context ends at 200 ms; the engine is then given stopWait to
	// answer "stop", which the hung fake never does.
	if d := time.Since(start); d > 200*time.Millisecond+stopWait+500*time.Millisecond {
		t.Errorf("returned after %v", d)
	}
}

// TestStockfishPlaysLegalGames plays real Stockfish (Debian's package)
// against alpha-beta: every move it sends is checked by PlayGame against
// bomberzero's rules, no game is forfeited, and the game's moves follow
// the position (the engine is told the game move by move).
func TestStockfishPlaysLegalGames(t *testing.T) {
	if _, err := LookPath("stockfish"); err != nil {
		t.Skip("no stockfish on PATH or in /usr/games (scripts/test.sh installs it)")
	}
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	opt := match.Options{Engines: Loader(context.Background())}
	sf, err := match.Parse("uci:stockfish:nodes=2000,Threads=1,Hash=1", v, opt)
	if err != nil {
		t.Fatal(err)
	}
	ab, err := match.Parse("alphabeta:1", v, opt)
	if err != nil {
		t.Fatal(err)
	}
	res, err := match.Run(context.Background(), match.Config{A: sf, B: ab, Games: 2, Start: v.NewPosition(), MaxPlies: 300, Workers: 1, KeepGames: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Reasons[env.Forfeit] != 0 {
		t.Fatalf("forfeits: %+v", res.Records)
	}
	// Stockfish at 2,000 nodes against a one-ply material player.
	if res.Total.Wins < 1 {
		t.Errorf("stockfish won no game against alphabeta:1: %+v", res.Total)
	}
	// A spec whose option the engine lacks is refused before the match.
	if _, err := match.Parse("uci:stockfish:NoSuchOption=1", v, opt); err == nil || !strings.Contains(err.Error(), "NoSuchOption") {
		t.Errorf("unknown option: %v", err)
	}
}

// TestStockfishMovesAreTimedByItsProcess checks that an outside engine's
// side is measured by its own process's CPU time (all its threads: the
// search runs on one beside the one reading commands), non-zero for real
// searches, and not more than the wall time of its moves on one thread.
func TestStockfishMovesAreTimedByItsProcess(t *testing.T) {
	if _, err := LookPath("stockfish"); err != nil {
		t.Skip("no stockfish on PATH or in /usr/games (scripts/test.sh installs it)")
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "windows" {
		t.Skip("another process's CPU time is read on Linux and Windows only")
	}
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	opt := match.Options{Engines: Loader(context.Background())}
	sf, err := match.Parse("uci:stockfish:nodes=20000,Threads=1,Hash=1", v, opt)
	if err != nil {
		t.Fatal(err)
	}
	ab, err := match.Parse("alphabeta:1", v, opt)
	if err != nil {
		t.Fatal(err)
	}
	res, err := match.Run(context.Background(), match.Config{A: sf, B: ab, Games: 2, Start: v.NewPosition(), MaxPlies: 24, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	a := res.ATimes
	t.Logf("stockfish: %s", a)
	if a.Meter != string(match.MeterEngine) || a.Plies == 0 || a.CPUPlies != a.Plies {
		t.Fatalf("stockfish's side %+v: want every move measured by %q", a, match.MeterEngine)
	}
	// 20,000 nodes take Stockfish milliseconds of CPU, whatever the load;
	// its one search thread cannot use more CPU than the wall time of the
	// move, whose clock is read outside the CPU readings.
	if a.CPUMeanMS <= 0 || a.CPUMedianMS <= 0.5 {
		t.Errorf("stockfish's moves were measured at %.2f ms of CPU (median %.2f)", a.CPUMeanMS, a.CPUMedianMS)
	}
	if a.CPUMeanMS > 1.05*a.WallMeanMS+1 {
		t.Errorf("stockfish with one thread used %.2f ms of CPU a move in %.2f ms of wall time", a.CPUMeanMS, a.WallMeanMS)
	}
}

// TestFinishedGamesLeaveTheirEngineToTheNext checks the pool of a Maker:
// the next game takes the process of a game that ended in order, a
// forfeited game's process is ended and not kept, and a kept process that
// waits longer than its pool's keep is ended.
func TestFinishedGamesLeaveTheirEngineToTheNext(t *testing.T) {
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	play := func(m match.Maker) *Player {
		t.Helper()
		pl, err := m.New(0)
		if err != nil {
			t.Fatal(err)
		}
		p := pl.(*Player)
		pos := v.NewPosition()
		for range 4 {
			mv, err := p.ChooseContext(ctx, pos)
			if err != nil {
				t.Fatalf("ply %d: %v", pos.Ply(), err)
			}
			pos.DoMove(mv)
		}
		return p
	}
	m, err := NewMaker(ctx, "uci:fake-play", fake(t, "play", "nodes=1"), v)
	if err != nil {
		t.Fatal(err)
	}
	first := play(m)
	proc := first.proc
	first.Close()
	if !proc.alive() || len(first.pool.idle) != 1 {
		t.Fatalf("after a game in order: alive %v, %d kept, want the process kept", proc.alive(), len(first.pool.idle))
	}
	second := play(m)
	if second.proc != proc {
		t.Errorf("the second game started its own process instead of the kept one")
	}
	second.Close()

	bad, err := NewMaker(ctx, "uci:fake-illegal", fake(t, "illegal", "nodes=1"), v)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := bad.New(0)
	if err != nil {
		t.Fatal(err)
	}
	p := pl.(*Player)
	if _, err := p.ChooseContext(ctx, v.NewPosition()); err == nil {
		t.Fatal("the illegal fake's move was accepted")
	}
	p.Close()
	if n := len(p.pool.idle); n != 0 {
		t.Errorf("a forfeited game's process was kept (%d kept)", n)
	}

	q := &pool{keep: 20 * time.Millisecond}
	proc = play(m).proc
	q.put(proc)
	deadline := time.Now().Add(5 * time.Second)
	for proc.alive() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if proc.alive() || q.get() != nil {
		t.Errorf("a process kept past its pool's keep is still running or still kept")
	}
}

// TestStockfishReusedPlaysAsFresh plays the same line twice on one kept
// Stockfish process and once on a fresh one, at a node limit: "ucinewgame"
// clears what the engine learnt in the game before, so the three lines
// agree move for move (the paired studies rely on it).
func TestStockfishReusedPlaysAsFresh(t *testing.T) {
	if _, err := LookPath("stockfish"); err != nil {
		t.Skip("no stockfish on PATH or in /usr/games (scripts/test.sh installs it)")
	}
	v, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cfg, err := ParseSpec("stockfish:nodes=3000,Threads=1,Hash=1")
	if err != nil {
		t.Fatal(err)
	}
	line := func(m match.Maker) (string, *process) {
		pl, err := m.New(0)
		if err != nil {
			t.Fatal(err)
		}
		p := pl.(*Player)
		defer p.Close()
		pos := v.NewPosition()
		var moves []string
		for range 16 {
			mv, err := p.ChooseContext(ctx, pos)
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, env.UCI{}.FormatMove(pos, mv))
			pos.DoMove(mv)
		}
		return strings.Join(moves, " "), p.proc
	}
	m, err := NewMaker(ctx, "uci:stockfish", cfg, v)
	if err != nil {
		t.Fatal(err)
	}
	a, procA := line(m)
	b, procB := line(m)
	if procA != procB {
		t.Errorf("the second line did not reuse the first's process")
	}
	fresh, err := NewMaker(ctx, "uci:stockfish", cfg, v)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := line(fresh)
	if a != b || a != c {
		t.Errorf("the same line differs:\nfirst  %s\nreused %s\nfresh  %s", a, b, c)
	}
}
