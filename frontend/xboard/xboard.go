// Package xboard speaks the Chess Engine Communication Protocol (CECP,
// version 2) of XBoard and WinBoard over package analysis: "variant"
// chooses any built-in variant, and for every one but orthodox chess it
// answers with XBoard 4.9's engine-defined-variant commands ("setup" with
// the board size, holdings and start position, and a "piece" line in
// Betza notation per piece XBoard does not know), so XBoard draws the
// 10x10 family and follows its moves. Moves are written in XBoard's
// coordinate form, extended for the family's moves (notation.go,
// docs/xboard.md).
package xboard

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"bomberzero/engine"
	"bomberzero/env"
	"bomberzero/frontend/session"
	"bomberzero/mcts"
)

// clock is the time control XBoard set: "level", "st", "sd", "time".
type clock struct {
	level   bool
	mps     int           // moves per session, 0 for the whole game
	base    time.Duration // the session's time
	inc     time.Duration
	perMove time.Duration // "st": exactly this per move
	left    time.Duration // "time": the engine's clock
	depth   int           // "sd": stop when the principal variation is this long
}

// played is one move of the game, with what takes it back.
type played struct {
	m env.Move
	u env.Undo
}

// cecpSession is one CECP session's state over the shared session. Only Run's
// goroutine changes it; a search goroutine reads the fields it was
// started with and reports back through the session (Session.Done).
type cecpSession struct {
	*session.Session

	history []played
	bad     string // why the last setboard was refused; moves are refused until a new position

	force     bool
	side      env.Color // the colour the engine plays when not in force mode
	analyzing bool
	play      bool // the running search is for a move to play, not analysis
	post      atomic.Bool

	clock  clock
	pongs  []string // pings answered after the move being thought about
	warned string   // the model spec last reported as unusable
}

// Run reads CECP commands from in and answers on out until "quit", the end
// of in, or ctx ends. Unknown commands are answered "Error (unknown
// command): ..." and illegal moves "Illegal move (reason): ...". Its
// searches derive from the match player's search of the embedded training
// defaults (session.DefaultSearch).
func Run(ctx context.Context, in io.Reader, out io.Writer) error {
	search, err := session.DefaultSearch()
	if err != nil {
		return fmt.Errorf("xboard: %w", err)
	}
	return RunWith(ctx, in, out, search)
}

// RunWith is Run with its searches derived from search (a training
// config's [selfplay] search).
func RunWith(ctx context.Context, in io.Reader, out io.Writer, search mcts.Config) error {
	s, err := session.New(out, search, Notation{})
	if err != nil {
		return fmt.Errorf("xboard: %w", err)
	}
	e := &cecpSession{Session: s, side: env.Black}
	defer e.stop()
	input := session.Read(in)
	defer input.Close()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-e.Done():
			e.finished(e.Stop())
		case line, ok := <-input.Lines:
			if !ok {
				if err := input.Err(); err != nil {
					return fmt.Errorf("xboard: reading commands: %w", err)
				}
				return nil
			}
			if e.command(line) {
				return nil
			}
		}
	}
}

// command carries out one command line; it returns true on "quit".
func (e *cecpSession) command(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	arg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))
	switch f[0] {
	case "xboard", "accepted", "rejected", "random", "computer", "name", "rating", "ics",
		"hard", "easy", "draw", "hint", "bk", ".", "otim", "egtpath", "pause", "resume":
		// Nothing to do: no pondering, book, draw offers or status lines;
		// the engine budgets from its own clock only.
	case "memory", "cores":
		// The engine's table in megabytes and its threads: the options Hash
		// and Threads, refused out of their range.
		name := map[string]string{"memory": "Hash", "cores": "Threads"}[f[0]]
		if err := e.Set(name, arg); err != nil {
			e.Send("Error (%v): %s", err, line)
		}
	case "protover":
		e.features()
	case "quit":
		return true
	case "new":
		e.stop()
		e.NewGame()
		e.force, e.side, e.clock.depth = false, env.Black, 0
		e.changeVariant("chess", line) // CECP: new is orthodox chess until "variant"
	case "variant":
		e.stop()
		name := arg
		if name == "normal" {
			name = "chess"
		}
		e.changeVariant(name, line)
	case "force":
		e.stop()
		e.force = true
	case "result":
		e.stop()
		e.force = true
	case "go":
		e.stop()
		e.force, e.side = false, e.Position().SideToMove()
		e.think()
	case "playother":
		e.stop()
		e.force, e.side = false, e.Position().SideToMove().Other()
	case "?":
		e.moveNow()
	case "ping":
		if e.Running() && e.play {
			e.pongs = append(e.pongs, arg) // CECP: after the move
		} else {
			e.Send("pong %s", arg)
		}
	case "post", "nopost":
		e.post.Store(f[0] == "post")
	case "setboard":
		e.stop()
		p, err := parsePosition(e.Variant(), arg)
		if err != nil {
			e.bad = err.Error()
			e.Send("Error (illegal position: %v): %s", err, line)
			e.Send("tellusererror Illegal position: %v", err)
			break
		}
		e.SetPosition(p)
		e.history, e.bad = nil, ""
		e.resume()
	case "usermove":
		e.userMove(arg, true)
	case "undo", "remove":
		e.stop()
		n := 1
		if f[0] == "remove" {
			n = 2
		}
		if len(e.history) < n || e.bad != "" {
			e.Send("Error (command not legal now): %s", line)
			break
		}
		for ; n > 0; n-- {
			last := e.history[len(e.history)-1]
			e.Position().UndoMove(last.u)
			e.history = e.history[:len(e.history)-1]
		}
		e.resume()
	case "analyze":
		e.stop()
		e.analyzing = true
		e.resume()
	case "exit":
		e.stop()
		e.analyzing = false
	case "level":
		if err := e.setLevel(f[1:]); err != nil {
			e.Send("Error (%v): %s", err, line)
		}
	case "st":
		s, err := strconv.ParseFloat(arg, 64)
		if err != nil || s <= 0 {
			e.Send("Error (want seconds per move): %s", line)
			break
		}
		e.clock.level, e.clock.perMove = false, time.Duration(s*float64(time.Second))
	case "sd":
		d, err := strconv.Atoi(arg)
		if err != nil || d < 1 {
			e.Send("Error (want a depth of 1 or more): %s", line)
			break
		}
		e.clock.depth = d
	case "time":
		cs, err := strconv.Atoi(arg)
		if err != nil {
			e.Send("Error (want centiseconds): %s", line)
			break
		}
		e.clock.left = time.Duration(cs) * 10 * time.Millisecond
	case "option":
		e.setOption(arg, line)
	case "d":
		// Not CECP: the position as bomberzero writes it, for people and tests.
		e.Send("# %s", e.Position())
	default:
		if looksLikeMove(f[0]) && len(f) == 1 {
			e.userMove(f[0], false)
			break
		}
		e.Send("Error (unknown command): %s", line)
	}
	return false
}

// features answers "protover 2".
func (e *cecpSession) features() {
	opts := session.Options()
	e.Send("feature myname=\"bomberzero\" variants=\"%s\" setboard=1 usermove=1 ping=1 playother=1 time=1 draw=0 "+
		"sigint=0 sigterm=0 san=0 colors=0 analyze=1 memory=1 smp=1 name=1 debug=1 reuse=1", strings.Join(variants(opts), ","))
	for _, l := range optionFeatures(opts) {
		e.Send("%s", l)
	}
	e.Send("feature done=1")
}

// variants lists the choices of the option XBoard sets with "variant",
// orthodox chess under XBoard's name for it, "normal", and first.
func variants(opts []session.Option) []string {
	names := []string{"normal"}
	for _, o := range opts {
		if o.XBoardCommand != "variant" {
			continue
		}
		for _, n := range o.Choices {
			if n != "chess" {
				names = append(names, n)
			}
		}
	}
	return names
}

// optionFeatures writes the "feature option" lines of "protover 2" for
// opts: each option XBoard sets with "option", by its name, type, default
// and range.
func optionFeatures(opts []session.Option) []string {
	var out []string
	for _, o := range opts {
		if o.XBoardCommand != "" {
			continue
		}
		var l string
		switch o.Kind {
		case session.Spin:
			l = fmt.Sprintf("%s -spin %s %d %d", o.Name, o.Default, o.Min, o.Max)
		case session.Combo:
			l = o.Name + " -combo"
			for i, c := range o.Choices {
				if i > 0 {
					l += " ///"
				}
				if c == o.Default {
					c = "*" + c
				}
				l += " " + c
			}
		default:
			l = fmt.Sprintf("%s -string %s", o.Name, o.Default)
		}
		out = append(out, fmt.Sprintf("feature option=%q", l))
	}
	return out
}

// setVariant sets a variant and its start position, with no history.
func (e *cecpSession) setVariant(name string) error {
	if err := e.SetVariant(name); err != nil {
		return err
	}
	e.history, e.bad = nil, ""
	return nil
}

// changeVariant sets a variant for the commands new and variant, tells
// XBoard about it (setup and piece lines) and resumes frontend.
func (e *cecpSession) changeVariant(name, line string) {
	if err := e.setVariant(name); err != nil {
		e.Send("Error (unknown variant: %v): %s", err, line)
		return
	}
	lines, err := Setup(e.Variant())
	if err != nil {
		e.Send("Error (%v): %s", err, line)
	}
	for _, l := range lines {
		e.Send("%s", l)
	}
	e.resume()
}

// setLevel reads "level MPS BASE INC"; BASE is minutes or minutes:seconds.
func (e *cecpSession) setLevel(f []string) error {
	if len(f) != 3 {
		return fmt.Errorf("want level MOVES MINUTES[:SECONDS] INCREMENT")
	}
	mps, err := strconv.Atoi(f[0])
	if err != nil || mps < 0 {
		return fmt.Errorf("moves per session %q", f[0])
	}
	// XBoard may append more after MIN[:SEC] ("25+5"); that is ignored.
	b := f[1]
	if i := strings.IndexFunc(b, func(r rune) bool { return (r < '0' || r > '9') && r != ':' }); i >= 0 {
		b = b[:i]
	}
	minutes, seconds, hasSec := strings.Cut(b, ":")
	m, err := strconv.Atoi(minutes)
	if err != nil {
		return fmt.Errorf("base time %q", f[1])
	}
	base := time.Duration(m) * time.Minute
	if hasSec {
		s, err := strconv.Atoi(seconds)
		if err != nil {
			return fmt.Errorf("base time %q", f[1])
		}
		base += time.Duration(s) * time.Second
	}
	inc, err := strconv.ParseFloat(f[2], 64)
	if err != nil || inc < 0 {
		return fmt.Errorf("increment %q", f[2])
	}
	e.clock.level, e.clock.perMove = true, 0
	e.clock.mps, e.clock.base, e.clock.left = mps, base, base
	e.clock.inc = time.Duration(inc * float64(time.Second))
	return nil
}

// setOption reads "NAME=VALUE" for the options the features offer.
func (e *cecpSession) setOption(arg, line string) {
	name, value, ok := strings.Cut(arg, "=")
	if !ok {
		e.Send("Error (want option NAME=VALUE): %s", line)
		return
	}
	name = strings.TrimSpace(name)
	if o, known := session.Lookup(name); known && o.XBoardCommand != "" {
		e.Send("Error (%s is set with %s, not option): %s", o.Name, o.XBoardCommand, line)
		return
	}
	if err := e.Set(name, strings.TrimSpace(value)); err != nil {
		e.Send("Error (%v): %s", err, line)
	}
}

// userMove plays a move of the opponent (or of either side in force and
// analyze mode), then thinks if it is the engine's turn. explicit says it
// came with "usermove"; a bare word that is no legal move is only an
// illegal move when it has a move's shape.
func (e *cecpSession) userMove(text string, explicit bool) {
	e.stop()
	if e.bad != "" {
		e.Send("Illegal move (no position: %s): %s", e.bad, text)
		return
	}
	if res, why := e.Position().Status(); res != env.Ongoing {
		e.Send("Illegal move (the game is over: %s): %s", why, text)
		return
	}
	m, err := e.ParseMove(e.Position(), text)
	if err != nil {
		if !explicit && !looksLikeMove(text) {
			e.Send("Error (unknown command): %s", text)
			return
		}
		e.Send("Illegal move (%v): %s", err, text)
		return
	}
	e.warnIfUnseen(m, text)
	e.push(m)
	if e.analyzing || e.force {
		e.resume()
		return
	}
	if e.reportEnd() {
		return
	}
	if e.Position().SideToMove() == e.side {
		e.think()
	}
}

// warnIfUnseen tells the user when a move XBoard sent changes more than
// XBoard's own board will show: a piece removed off the landing square
// sent without the leg through it, a promotion sent without its letter,
// or a king moved onto its own rook that XBoard castles otherwise.
func (e *cecpSession) warnIfUnseen(m env.Move, text string) {
	if knownToXBoard(e.Variant()) {
		return
	}
	if m.Kind() == env.Castle && !strings.Contains(text, ",") {
		// A king sent onto its own rook is castled by XBoard as in Chess960:
		// king to the c- or second-last file, rook beside it.
		g := e.Variant().Geo
		rf, rt := castleRook(e.Position(), m)
		if rf == m.To() {
			kf, rtf := 2, 3
			if g.File(m.To()) > g.File(m.From()) {
				kf, rtf = g.Files-2, g.Files-3
			}
			if kf != g.File(m.To()) || rtf != g.File(rt) {
				e.Send("telluser bomberzero read %s as %s: XBoard may place the king and rook elsewhere (enter it as %s)",
					text, e.FormatMove(e.Position(), m), e.FormatMove(e.Position(), m))
			}
		}
		return
	}
	if k := killSquare(e.Position(), m); k != env.NoSquare && !strings.Contains(text, ",") {
		c := coordsOf(e.Variant())
		e.Send("telluser bomberzero read %s as %s: it also removes the piece on %s, which XBoard may still show (enter such captures through the captured piece)",
			text, e.FormatMove(e.Position(), m), c.name(k))
	} else if s := promoSuffix(e.Position(), m); s != "" && !strings.HasSuffix(strings.ToLower(text), s) {
		e.Send("telluser bomberzero read %s as %s: the piece becomes %s, which XBoard may not show", text, e.FormatMove(e.Position(), m), strings.ToUpper(s))
	}
}

// push plays m on the game's position.
func (e *cecpSession) push(m env.Move) {
	u := e.Position().DoMove(m)
	e.history = append(e.history, played{m: m, u: u})
}

// reportEnd prints the result line when the game is over and says so.
func (e *cecpSession) reportEnd() bool {
	res, why := e.Position().Status()
	if res == env.Ongoing {
		return false
	}
	e.Send("%s {%s}", res, resultComment(res, why))
	return true
}

// resultComment is a result line's comment.
func resultComment(res env.Result, why env.Termination) string {
	winner := "White"
	if res == env.BlackWins {
		winner = "Black"
	}
	switch why {
	case env.Checkmate:
		return winner + " mates"
	case env.Scepter:
		return winner + "'s king reaches the scepter squares"
	case env.Stalemate:
		return "Stalemate"
	case env.Repetition:
		return "Draw by repetition"
	case env.FiftyMoves:
		return "Draw by 50-move rule"
	}
	return why.String()
}

// resume restarts analysis after the position changed in analyze mode.
func (e *cecpSession) resume() {
	if e.analyzing && e.bad == "" {
		e.start(false)
	}
}

// think starts a search for the engine's move, or prints the result when
// the game is over.
func (e *cecpSession) think() {
	if e.bad != "" {
		e.Send("Error (no position: %s): go", e.bad)
		return
	}
	if e.reportEnd() {
		return
	}
	e.start(true)
}

// stop ends a running search; its move, if any, is not played. Pings held
// back for it are answered.
func (e *cecpSession) stop() {
	e.Stop()
	e.flushPongs()
}

// moveNow ends the search for the engine's move and plays the best move
// found so far ("?"); it does nothing in analysis or when idle.
func (e *cecpSession) moveNow() {
	if !e.Running() || !e.play {
		return
	}
	e.finished(e.Stop())
}

// finished takes a search's result, once the session has let it go: a
// move to play, or the end of analysis.
func (e *cecpSession) finished(m env.Move) {
	if e.play && m != env.NoMove {
		text := e.FormatMove(e.Position(), m)
		e.push(m)
		e.Send("move %s", text)
		e.reportEnd()
	}
	e.play = false
	e.flushPongs()
}

func (e *cecpSession) flushPongs() {
	for _, p := range e.pongs {
		e.Send("pong %s", p)
	}
	e.pongs = nil
}

// limits returns a search's playouts and time, and the engine's limits:
// analysis until stopped, "st" as the time a move, "level" and "time" as
// the clock (with the moves to the next control), "sd" as the engine's
// depth, or with none of them the playouts (the model) or
// session.DefaultEngineNodes (the engine).
func (e *cecpSession) limits(play bool) session.Limits {
	lim := e.modelLimits(play)
	c := e.clock
	switch {
	case !play:
		lim.Engine = engine.Limits{Infinite: true}
	case c.perMove > 0:
		lim.Engine.MoveTime = max(c.perMove*95/100, time.Millisecond)
	case c.level:
		lim.Engine.Time, lim.Engine.Inc = max(c.left, time.Millisecond), c.inc
		if c.mps > 0 {
			lim.Engine.MovesToGo = c.mps - (e.Position().MoveNumber()-1)%c.mps
		}
	case c.depth == 0:
		lim.Engine.Nodes = session.DefaultEngineNodes
	}
	if play {
		lim.Engine.Depth = c.depth
	}
	return lim
}

// modelLimits returns a model search's playouts and time.
func (e *cecpSession) modelLimits(play bool) session.Limits {
	c := e.clock
	switch {
	case !play:
		return session.Limits{Start: 64, Limit: session.MaxPlayouts}
	case c.perMove > 0:
		// A little under the exact time, for the move to reach XBoard.
		return session.Limits{Start: 64, Limit: session.MaxPlayouts, Movetime: c.perMove * 95 / 100}
	case c.level:
		left := c.left
		if left <= 0 {
			left = time.Millisecond
		}
		var movetime time.Duration
		if c.mps > 0 {
			togo := c.mps - (e.Position().MoveNumber()-1)%c.mps
			movetime = left / time.Duration(togo)
		} else {
			movetime = left/40 + c.inc/2
		}
		return session.Limits{Start: 64, Limit: session.MaxPlayouts, Movetime: max(min(movetime, left*3/4), time.Millisecond)}
	}
	sims := e.Playouts()
	return session.Limits{Start: min(64, sims), Limit: sims}
}

// start runs a search of the current position in the background: for the
// engine's move (play) or analysis until stopped.
func (e *cecpSession) start(play bool) {
	lim := e.limits(play)
	pos, model, depth := e.Position().Clone(), e.Model(), e.clock.depth
	if !play {
		depth = 0
	}
	e.Start(func(ctx context.Context, stop context.CancelFunc) env.Move {
		return e.search(ctx, stop, pos, model, lim, depth)
	})
	e.play = play
}

// search runs the doubling search and returns the move it chose (NoMove
// when the game is over), posting a thinking line after each step.
func (e *cecpSession) search(ctx context.Context, stop context.CancelFunc, pos *env.Position, spec string, lim session.Limits, depth int) env.Move {
	m, err := e.Search(ctx, pos, spec, lim, func(i session.Info) {
		if e.post.Load() {
			e.Send("%d %d %d %d %s", i.Depth, score(i), i.Elapsed.Milliseconds()/10, i.Nodes, strings.Join(i.PV, " "))
		}
		if depth > 0 && !i.Engine && len(i.PV) >= depth {
			// The model's search has no depth: stop at a line this long (the
			// engine stops at the depth itself).
			stop()
		}
	})
	if err != nil && e.warned != spec {
		e.warned = spec
		e.Send("tellusererror bomberzero: %v; playing the first legal move", err)
	}
	return m
}

// score writes a search step's value as CECP asks: centipawns for the side
// to move, or 100000+N for a proven mate in N moves (-100000-N when
// mated).
func score(i session.Info) int {
	switch {
	case i.Mate > 0:
		return 100000 + i.Mate
	case i.Mate < 0:
		return -100000 + i.Mate
	}
	return i.Centipawns
}
