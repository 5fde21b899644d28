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
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/frontend"
	"bomberzero/mcts"
	"bomberzero/setup"
)

// MaxSims bounds the playouts of one search (analysis included).
const MaxSims = 1 << 22

// defaultSims is a search's playouts when no time control is set.
const defaultSims = setup.DefaultSims

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

// job is a running search.
type job struct {
	cancel context.CancelFunc
	done   chan env.Move // the move chosen; NoMove when there is none
	play   bool          // a move to play, not analysis
}

// engine is one CECP session's state. Only Run's goroutine changes it;
// a search goroutine reads the fields it was started with and reports
// back through its job.
type engine struct {
	out   io.Writer
	outMu sync.Mutex
	base  mcts.Config // the base of every search (setup.AnalysisSearch)

	v       *env.Variant
	rules   *agent.Rules
	pos     *env.Position
	history []played
	bad     string // why the last setboard was refused; moves are refused until a new position

	force     bool
	side      env.Color // the colour the engine plays when not in force mode
	analyzing bool
	post      atomic.Bool

	model   string
	sims    int
	clock   clock
	pongs   []string // pings answered after the move being thought about
	job     *job
	loaded  *agent.Model
	loadKey string
	warned  string // the model spec last reported as unusable
}

func (e *engine) send(format string, args ...any) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format+"\n", args...)
}

// Run reads CECP commands from in and answers on out until "quit", the end
// of in, or ctx ends. Unknown commands are answered "Error (unknown
// command): ..." and illegal moves "Illegal move (reason): ...". Its
// searches derive from the match player's search of the embedded training
// defaults (setup.Config.PlayerSearch).
func Run(ctx context.Context, in io.Reader, out io.Writer) error {
	tc, err := setup.DefaultConfig("chess")
	if err != nil {
		return fmt.Errorf("xboard: %w", err)
	}
	return RunWith(ctx, in, out, tc.PlayerSearch())
}

// RunWith is Run with its searches derived from search (a training
// config's [selfplay] search).
func RunWith(ctx context.Context, in io.Reader, out io.Writer, search mcts.Config) error {
	e := &engine{out: out, base: search, model: "material", sims: defaultSims, side: env.Black}
	if err := e.setVariant("chess"); err != nil {
		return fmt.Errorf("xboard: %w", err)
	}
	defer e.stop()
	lines := make(chan string)
	errc := make(chan error, 1)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-quit:
				return
			}
		}
		errc <- sc.Err()
	}()
	for {
		var finished <-chan env.Move
		if e.job != nil {
			finished = e.job.done
		}
		select {
		case <-ctx.Done():
			return nil
		case m := <-finished:
			e.finished(m)
		case line, ok := <-lines:
			if !ok {
				if err := <-errc; err != nil {
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
func (e *engine) command(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	arg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))
	switch f[0] {
	case "xboard", "accepted", "rejected", "random", "computer", "name", "rating", "ics",
		"hard", "easy", "draw", "hint", "bk", ".", "otim", "cores", "memory", "egtpath", "pause", "resume":
		// Nothing to do: no pondering, book, draw offers or status lines.
	case "protover":
		e.features()
	case "quit":
		return true
	case "new":
		e.stop()
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
		e.force, e.side = false, e.pos.SideToMove()
		e.think()
	case "playother":
		e.stop()
		e.force, e.side = false, e.pos.SideToMove().Other()
	case "?":
		e.moveNow()
	case "ping":
		if e.job != nil && e.job.play {
			e.pongs = append(e.pongs, arg) // CECP: after the move
		} else {
			e.send("pong %s", arg)
		}
	case "post", "nopost":
		e.post.Store(f[0] == "post")
	case "setboard":
		e.stop()
		p, err := parsePosition(e.v, arg)
		if err != nil {
			e.bad = err.Error()
			e.send("Error (illegal position: %v): %s", err, line)
			e.send("tellusererror Illegal position: %v", err)
			break
		}
		e.pos, e.history, e.bad = p, nil, ""
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
			e.send("Error (command not legal now): %s", line)
			break
		}
		for ; n > 0; n-- {
			last := e.history[len(e.history)-1]
			e.pos.UndoMove(last.u)
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
			e.send("Error (%v): %s", err, line)
		}
	case "st":
		s, err := strconv.ParseFloat(arg, 64)
		if err != nil || s <= 0 {
			e.send("Error (want seconds per move): %s", line)
			break
		}
		e.clock.level, e.clock.perMove = false, time.Duration(s*float64(time.Second))
	case "sd":
		d, err := strconv.Atoi(arg)
		if err != nil || d < 1 {
			e.send("Error (want a depth of 1 or more): %s", line)
			break
		}
		e.clock.depth = d
	case "time":
		cs, err := strconv.Atoi(arg)
		if err != nil {
			e.send("Error (want centiseconds): %s", line)
			break
		}
		e.clock.left = time.Duration(cs) * 10 * time.Millisecond
	case "option":
		e.setOption(arg, line)
	case "d":
		// Not CECP: the position as bomberzero writes it, for people and tests.
		e.send("# %s", e.pos)
	default:
		if looksLikeMove(f[0]) && len(f) == 1 {
			e.userMove(f[0], false)
			break
		}
		e.send("Error (unknown command): %s", line)
	}
	return false
}

// features answers "protover 2".
func (e *engine) features() {
	names := []string{"normal"}
	for _, n := range env.VariantNames() {
		if n != "chess" {
			names = append(names, n)
		}
	}
	e.send("feature myname=\"bomberzero\" variants=\"%s\" setboard=1 usermove=1 ping=1 playother=1 time=1 draw=0 "+
		"sigint=0 sigterm=0 san=0 colors=0 analyze=1 memory=0 smp=0 name=1 debug=1 reuse=1", strings.Join(names, ","))
	e.send("feature option=\"Model -string material\"")
	e.send("feature option=\"Playouts -spin %d 1 %d\"", defaultSims, MaxSims)
	e.send("feature done=1")
}

// setVariant loads a variant and sets up its start position.
func (e *engine) setVariant(name string) error {
	v, err := env.LoadVariant(name)
	if err != nil {
		return err
	}
	e.v, e.pos, e.rules, e.history, e.bad = v, v.NewPosition(), agent.NewRules(v, 0), nil, ""
	return nil
}

// changeVariant sets a variant for the commands new and variant, tells
// XBoard about it (setup and piece lines) and resumes frontend.
func (e *engine) changeVariant(name, line string) {
	if err := e.setVariant(name); err != nil {
		e.send("Error (unknown variant: %v): %s", err, line)
		return
	}
	lines, err := Setup(e.v)
	if err != nil {
		e.send("Error (%v): %s", err, line)
	}
	for _, l := range lines {
		e.send("%s", l)
	}
	e.resume()
}

// setLevel reads "level MPS BASE INC"; BASE is minutes or minutes:seconds.
func (e *engine) setLevel(f []string) error {
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
func (e *engine) setOption(arg, line string) {
	name, value, ok := strings.Cut(arg, "=")
	if !ok {
		e.send("Error (want option NAME=VALUE): %s", line)
		return
	}
	switch strings.TrimSpace(name) {
	case "Model":
		value = strings.TrimSpace(value)
		if _, _, err := frontend.ParseModelSpec(value, e.sims); err != nil {
			e.send("Error (Model %q: %v): %s", value, err, line)
			return
		}
		e.model = value
	case "Playouts":
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || n < 1 || n > MaxSims {
			e.send("Error (Playouts: want 1 to %d): %s", MaxSims, line)
			return
		}
		e.sims = n
	default:
		e.send("Error (unknown option %q): %s", name, line)
	}
}

// userMove plays a move of the opponent (or of either side in force and
// analyze mode), then thinks if it is the engine's turn. explicit says it
// came with "usermove"; a bare word that is no legal move is only an
// illegal move when it has a move's shape.
func (e *engine) userMove(text string, explicit bool) {
	e.stop()
	if e.bad != "" {
		e.send("Illegal move (no position: %s): %s", e.bad, text)
		return
	}
	if res, why := e.pos.Status(); res != env.Ongoing {
		e.send("Illegal move (the game is over: %s): %s", why, text)
		return
	}
	m, err := ParseMove(e.pos, text)
	if err != nil {
		if !explicit && !looksLikeMove(text) {
			e.send("Error (unknown command): %s", text)
			return
		}
		e.send("Illegal move (%v): %s", err, text)
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
	if e.pos.SideToMove() == e.side {
		e.think()
	}
}

// warnIfUnseen tells the user when a move XBoard sent changes more than
// XBoard's own board will show: a piece removed off the landing square
// sent without the leg through it, a promotion sent without its letter,
// or a king moved onto its own rook that XBoard castles otherwise.
func (e *engine) warnIfUnseen(m env.Move, text string) {
	if knownToXBoard(e.v) {
		return
	}
	if m.Kind() == env.Castle && !strings.Contains(text, ",") {
		// A king sent onto its own rook is castled by XBoard as in Chess960:
		// king to the c- or second-last file, rook beside it.
		g := e.v.Geo
		rf, rt := castleRook(e.pos, m)
		if rf == m.To() {
			kf, rtf := 2, 3
			if g.File(m.To()) > g.File(m.From()) {
				kf, rtf = g.Files-2, g.Files-3
			}
			if kf != g.File(m.To()) || rtf != g.File(rt) {
				e.send("telluser bomberzero read %s as %s: XBoard may place the king and rook elsewhere (enter it as %s)",
					text, FormatMove(e.pos, m), FormatMove(e.pos, m))
			}
		}
		return
	}
	if k := killSquare(e.pos, m); k != env.NoSquare && !strings.Contains(text, ",") {
		c := coordsOf(e.v)
		e.send("telluser bomberzero read %s as %s: it also removes the piece on %s, which XBoard may still show (enter such captures through the captured piece)",
			text, FormatMove(e.pos, m), c.name(k))
	} else if s := promoSuffix(e.pos, m); s != "" && !strings.HasSuffix(strings.ToLower(text), s) {
		e.send("telluser bomberzero read %s as %s: the piece becomes %s, which XBoard may not show", text, FormatMove(e.pos, m), strings.ToUpper(s))
	}
}

// push plays m on the game's position.
func (e *engine) push(m env.Move) {
	u := e.pos.DoMove(m)
	e.history = append(e.history, played{m: m, u: u})
}

// reportEnd prints the result line when the game is over and says so.
func (e *engine) reportEnd() bool {
	res, why := e.pos.Status()
	if res == env.Ongoing {
		return false
	}
	e.send("%s {%s}", res, resultComment(res, why))
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
func (e *engine) resume() {
	if e.analyzing && e.bad == "" {
		e.start(false)
	}
}

// think starts a search for the engine's move, or prints the result when
// the game is over.
func (e *engine) think() {
	if e.bad != "" {
		e.send("Error (no position: %s): go", e.bad)
		return
	}
	if e.reportEnd() {
		return
	}
	e.start(true)
}

// stop ends a running search; its move, if any, is not played. Pings held
// back for it are answered.
func (e *engine) stop() {
	if e.job != nil {
		e.job.cancel()
		<-e.job.done
		e.job = nil
	}
	e.flushPongs()
}

// moveNow ends the search for the engine's move and plays the best move
// found so far ("?"); it does nothing in analysis or when idle.
func (e *engine) moveNow() {
	if e.job == nil || !e.job.play {
		return
	}
	e.job.cancel()
	e.finished(<-e.job.done)
}

// finished takes a search's result: a move to play, or the end of frontend.
func (e *engine) finished(m env.Move) {
	j := e.job
	e.job = nil
	if j.play && m != env.NoMove {
		text := FormatMove(e.pos, m)
		e.push(m)
		e.send("move %s", text)
		e.reportEnd()
	}
	e.flushPongs()
}

func (e *engine) flushPongs() {
	for _, p := range e.pongs {
		e.send("pong %s", p)
	}
	e.pongs = nil
}

// limits returns a search's first and last playout counts and its time.
func (e *engine) limits(play bool) (start, limit int, movetime time.Duration) {
	c := e.clock
	switch {
	case !play:
		return 64, MaxSims, 0
	case c.perMove > 0:
		// A little under the exact time, for the move to reach XBoard.
		return 64, MaxSims, c.perMove * 95 / 100
	case c.level:
		left := c.left
		if left <= 0 {
			left = time.Millisecond
		}
		if c.mps > 0 {
			togo := c.mps - (e.pos.MoveNumber()-1)%c.mps
			movetime = left / time.Duration(togo)
		} else {
			movetime = left/40 + c.inc/2
		}
		return 64, MaxSims, max(min(movetime, left*3/4), time.Millisecond)
	}
	return min(64, e.sims), e.sims, 0
}

// start runs a search of the current position in the background: for the
// engine's move (play) or analysis until stopped.
func (e *engine) start(play bool) {
	start, limit, movetime := e.limits(play)
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{cancel: cancel, done: make(chan env.Move, 1), play: play}
	e.job = j
	pos, model, sims, depth := e.pos.Clone(), e.model, e.sims, e.clock.depth
	if !play {
		depth = 0
	}
	go func() {
		defer cancel()
		j.done <- e.search(ctx, cancel, pos, model, sims, start, limit, movetime, depth)
	}()
}

// search runs the doubling search and returns the move it chose (NoMove
// when the game is over), posting a thinking line after each step.
func (e *engine) search(ctx context.Context, stop context.CancelFunc, pos *env.Position, spec string, sims, start, limit int, movetime time.Duration, depth int) env.Move {
	legal := pos.LegalMoves(nil)
	if res, _ := pos.StatusOf(len(legal)); res != env.Ongoing {
		return env.NoMove
	}
	name, _, err := frontend.ParseModelSpec(spec, sims)
	var model *agent.Model
	if err == nil {
		model, err = e.loadModel(name)
	}
	if err != nil {
		if e.warned != spec {
			e.warned = spec
			e.send("tellusererror bomberzero: model %q: %v; playing the first legal move", spec, err)
		}
		return legal[0]
	}
	var deadline time.Time
	if movetime > 0 {
		deadline = time.Now().Add(movetime)
	}
	cfg := setup.AnalysisSearch(e.base, start)
	cfg.Solver = true
	began := time.Now()
	rep, err := frontend.Deepen(ctx, pos, e.rules, model, cfg, 1, limit, deadline, func(r frontend.Report) {
		if e.post.Load() {
			e.send("%d %d %d %d %s", max(len(r.PV), 1), score(r), time.Since(began).Milliseconds()/10, r.Sims, line(pos, r.PV))
		}
		if depth > 0 && len(r.PV) >= depth {
			stop()
		}
	})
	if err != nil {
		// Stopped before the first search finished: any legal move.
		return legal[0]
	}
	return rep.BestMove
}

func (e *engine) loadModel(name string) (*agent.Model, error) {
	key := e.v.Name + "\x00" + name
	if e.loaded != nil && e.loadKey == key {
		return e.loaded, nil
	}
	m, err := frontend.LoadModel(name, e.rules)
	if err != nil {
		return nil, err
	}
	e.loaded, e.loadKey = m, key
	return m, nil
}

// score writes a report's value as CECP asks: centipawns for the side to
// move (frontend.Centipawns), or 100000+N for a proven mate in N moves
// (-100000-N when mated).
func score(r frontend.Report) int {
	if r.Proven && r.Value != 0 {
		n := max((len(r.PV)+1)/2, 1)
		if r.Value < 0 {
			return -100000 - n
		}
		return 100000 + n
	}
	return frontend.Centipawns(r.Value)
}

// line rewrites a principal variation (Game Courier text) in XBoard moves.
func line(pos *env.Position, pv []string) string {
	p := pos.Clone()
	out := make([]string, 0, len(pv))
	for _, t := range pv {
		m, err := p.ParseMove(t)
		if err != nil {
			break
		}
		out = append(out, FormatMove(p, m))
		p.DoMove(m)
	}
	return strings.Join(out, " ")
}
