// Package uci speaks the Universal Chess Interface, so that chess GUIs
// and tournament managers can run bomberzero as an engine: UCI_Variant
// chooses any built-in variant, "position" and "go" work as usual, and
// moves are written in the coordinate form UCI uses, extended for the
// family's moves it cannot hold (docs/uci.md).
package uci

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"bomberzero/env"
	"bomberzero/frontend/session"
	"bomberzero/mcts"
)

// uciSession is one UCI session: the shared session, driven by UCI's commands.
type uciSession struct {
	*session.Session
}

// Run reads UCI commands from in and answers on out until "quit", the end
// of in, or ctx ends. Unknown or malformed commands are answered with an
// "info string" line and otherwise ignored, as UCI asks. Its searches
// derive from the match player's search of the embedded training defaults
// (session.DefaultSearch).
func Run(ctx context.Context, in io.Reader, out io.Writer) error {
	search, err := session.DefaultSearch()
	if err != nil {
		return err
	}
	return RunWith(ctx, in, out, search)
}

// RunWith is Run with its searches derived from search (a training
// config's [selfplay] search).
func RunWith(ctx context.Context, in io.Reader, out io.Writer, search mcts.Config) error {
	s, err := session.New(out, search, env.UCI{})
	if err != nil {
		return err
	}
	e := &uciSession{s}
	defer e.Stop()
	input := session.Read(in)
	defer input.Close()
	for {
		var line string
		var ok bool
		select {
		case <-ctx.Done():
			return nil
		case line, ok = <-input.Lines:
		}
		if !ok {
			return input.Err()
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			e.Send("id name bomberzero")
			e.Send("id author the bomberzero authors")
			for _, l := range optionLines(session.Options()) {
				e.Send("%s", l)
			}
			e.Send("uciok")
		case "isready":
			e.Send("readyok")
		case "setoption":
			e.setOption(f[1:])
		case "ucinewgame":
			e.NewGame()
			e.SetPosition(e.Variant().NewPosition())
		case "position":
			e.Stop()
			if err := e.position(f[1:]); err != nil {
				e.Send("info string position refused: %v", err)
			}
		case "go":
			e.Stop()
			e.goSearch(f[1:])
		case "stop":
			e.Stop()
		case "quit":
			return nil
		case "d":
			e.Send("info string %s", e.Position())
		default:
			e.Send("info string unknown command %q", f[0])
		}
	}
}

// optionLines writes the "option" lines of "uci" for opts: each option by
// its UCI name, type, default and range.
func optionLines(opts []session.Option) []string {
	var out []string
	for _, o := range opts {
		name := o.Name
		if o.UCI != "" {
			name = o.UCI
		}
		l := fmt.Sprintf("option name %s type ", name)
		switch o.Kind {
		case session.Spin:
			l += fmt.Sprintf("spin default %s min %d max %d", o.Default, o.Min, o.Max)
		case session.Combo:
			l += "combo default " + o.Default
			for _, c := range o.Choices {
				l += " var " + c
			}
		default:
			l += "string default " + o.Default
		}
		out = append(out, l)
	}
	return out
}

// setOption reads "name N [value V]".
func (e *uciSession) setOption(f []string) {
	s := strings.Join(f, " ")
	s = strings.TrimPrefix(s, "name ")
	name, value, _ := strings.Cut(s, " value ")
	if err := e.Set(strings.TrimSpace(name), strings.TrimSpace(value)); err != nil {
		e.Send("info string %v", err)
	}
}

// position reads "startpos|fen TEXT [moves M...]"; on error the position
// is left as it was.
func (e *uciSession) position(f []string) error {
	v := e.Variant()
	var p *env.Position
	rest := f
	switch {
	case len(f) > 0 && f[0] == "startpos":
		p, rest = v.NewPosition(), f[1:]
	case len(f) > 0 && f[0] == "fen":
		i := 1
		for i < len(f) && f[i] != "moves" {
			i++
		}
		var err error
		if p, err = v.ParsePosition(strings.Join(f[1:i], " ")); err != nil {
			return err
		}
		rest = f[i:]
	default:
		return fmt.Errorf("want startpos or fen")
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return fmt.Errorf("unexpected %q", rest[0])
		}
		for _, t := range rest[1:] {
			m, err := e.ParseMove(p, t)
			if err != nil {
				return err
			}
			p.DoMove(m)
		}
	}
	e.SetPosition(p)
	return nil
}

// goSearch starts a search by "go" parameters; its bestmove line comes
// when it ends. The model's search reads nodes, movetime, the clock and
// infinite (its playouts); the engine's (Model engine) reads them all:
// depth, nodes, movetime, wtime, btime, winc, binc, movestogo, infinite.
// A malformed number is answered by an "info string" and ignored; one out
// of the engine's range by an "info string" and the first legal move.
func (e *uciSession) goSearch(f []string) {
	num := func(i int) int64 {
		if i+1 < len(f) {
			n, err := strconv.ParseInt(f[i+1], 10, 64)
			if err == nil {
				return n
			}
			e.Send("info string go %s %q: want a whole number", f[i], f[i+1])
		} else {
			e.Send("info string go %s: want a whole number after it", f[i])
		}
		return -1
	}
	sims := e.Playouts()
	lim := session.Limits{Start: min(64, sims), Limit: sims}
	var clock, inc [2]int64
	var movesToGo int64
	limited, infinite := false, false
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "depth":
			lim.Engine.Depth = int(min(max(num(i), -1), 1<<20))
			limited = true
		case "nodes":
			n := num(i)
			if n > 0 {
				lim.Limit, lim.Start = int(min(n, int64(session.MaxPlayouts))), int(min(n, 64))
			}
			lim.Engine.Nodes, limited = n, true
		case "movetime":
			n := num(i)
			if n > 0 {
				lim.Start, lim.Limit, lim.Movetime = 64, session.MaxPlayouts, time.Duration(n)*time.Millisecond
			}
			lim.Engine.MoveTime, limited = time.Duration(n)*time.Millisecond, true
		case "wtime", "btime", "winc", "binc":
			n := num(i)
			switch f[i] {
			case "wtime":
				clock[0] = n
			case "btime":
				clock[1] = n
			case "winc":
				inc[0] = n
			case "binc":
				inc[1] = n
			}
			lim.Limit, lim.Start = session.MaxPlayouts, 64
		case "movestogo":
			movesToGo = num(i)
		case "infinite":
			infinite, lim.Limit, lim.Start = true, session.MaxPlayouts, 64
		}
	}
	side := int(e.Position().SideToMove())
	if clock[side] < 0 {
		// A GUI may send a clock already run out: the least time.
		clock[side] = 1
	}
	if lim.Movetime == 0 && clock[side] > 0 {
		// A fortieth of the time left and half the increment, kept under
		// the time left (and a millisecond at least: never no limit).
		ms := clock[side]/40 + inc[side]/2
		lim.Movetime = max(time.Duration(min(ms, clock[side]*3/4))*time.Millisecond, time.Millisecond)
	}
	if clock[side] != 0 || inc[side] != 0 {
		c := session.EngineLimits(int(clock[side]), int(inc[side]), int(movesToGo))
		lim.Engine.Time, lim.Engine.Inc, lim.Engine.MovesToGo, limited = c.Time, c.Inc, c.MovesToGo, true
	}
	lim.Engine.Infinite = infinite
	if !limited && !infinite {
		lim.Engine.Nodes = session.DefaultEngineNodes
	}
	pos, model := e.Position().Clone(), e.Model()
	e.Start(func(ctx context.Context, _ context.CancelFunc) env.Move {
		best := e.search(ctx, pos, model, lim)
		if infinite {
			<-ctx.Done() // UCI: no bestmove before "stop"
		}
		e.Send("bestmove %s", best)
		return env.NoMove
	})
}

// search runs the search and returns the best move's text.
func (e *uciSession) search(ctx context.Context, pos *env.Position, model string, lim session.Limits) string {
	best, err := e.Search(ctx, pos, model, lim, func(i session.Info) {
		e.Send("%s", infoLine(i))
		if i.TreeFull {
			e.Send("info string the search tree is full (%d nodes, the config's selfplay.tree_memory_mb): this is the search's last line and its move the best move", i.TreeNodes)
		}
	})
	if err != nil {
		e.Send("info string %v; playing the first legal move", err)
	}
	if best == env.NoMove {
		return "0000"
	}
	return e.FormatMove(pos, best)
}

// infoLine writes a search step as UCI's "info" line: the engine's with
// seldepth, multipv (more than one line asked), nps and hashfull.
func infoLine(i session.Info) string {
	if !i.Engine {
		return fmt.Sprintf("info depth %d nodes %d time %d score %s pv %s", i.Depth, i.Nodes, i.Elapsed.Milliseconds(), score(i), strings.Join(i.PV, " "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d", i.Depth, i.SelDepth)
	if i.MultiPV > 0 {
		fmt.Fprintf(&b, " multipv %d", i.MultiPV)
	}
	fmt.Fprintf(&b, " score %s nodes %d nps %d hashfull %d time %d pv %s", score(i), i.Nodes, i.NPS, i.HashFull, i.Elapsed.Milliseconds(), strings.Join(i.PV, " "))
	return b.String()
}

// score writes a search step's value as UCI does: "mate N" (moves,
// negative when losing) for a proven result, else centipawns.
func score(i session.Info) string {
	if i.Mate != 0 {
		return fmt.Sprintf("mate %d", i.Mate)
	}
	return fmt.Sprintf("cp %d", i.Centipawns)
}
