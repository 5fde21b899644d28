// Package uci speaks the Universal Chess Interface, so that chess GUIs
// and tournament managers can run bomberzero as an engine: UCI_Variant
// chooses any built-in variant, "position" and "go" work as usual, and
// moves are written in the coordinate form UCI uses, extended for the
// family's moves it cannot hold (docs/uci.md).
package uci

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"bomberzero/agent"
	"bomberzero/env"
	"bomberzero/frontend"
	"bomberzero/mcts"
	"bomberzero/setup"
)

// MaxSims bounds the playouts of one search ("go infinite" included).
const MaxSims = 1 << 22

// engine is one UCI session's state.
type engine struct {
	out     io.Writer
	outMu   sync.Mutex
	variant string
	model   string
	sims    int
	base    mcts.Config // the base of every search (setup.AnalysisSearch)
	pos     *env.Position
	rules   *agent.Rules
	loaded  *agent.Model
	loadKey string

	stop context.CancelFunc // the running search's, nil when idle
	done chan struct{}
}

func (e *engine) send(format string, args ...any) {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	fmt.Fprintf(e.out, format+"\n", args...)
}

// Run reads UCI commands from in and answers on out until "quit", the end
// of in, or ctx ends. Unknown or malformed commands are answered with an
// "info string" line and otherwise ignored, as UCI asks. Its searches
// derive from the match player's search of the embedded training defaults
// (setup.Config.PlayerSearch).
func Run(ctx context.Context, in io.Reader, out io.Writer) error {
	tc, err := setup.DefaultConfig("chess")
	if err != nil {
		return err
	}
	return RunWith(ctx, in, out, tc.PlayerSearch())
}

// RunWith is Run with its searches derived from search (a training
// config's [selfplay] search).
func RunWith(ctx context.Context, in io.Reader, out io.Writer, search mcts.Config) error {
	e := &engine{out: out, variant: "chess", model: "material", sims: setup.DefaultSims, base: search}
	if err := e.setVariant("chess"); err != nil {
		return err
	}
	defer e.halt()
	lines := make(chan string)
	errc := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		errc <- sc.Err()
		close(lines)
	}()
	for {
		var line string
		var ok bool
		select {
		case <-ctx.Done():
			return nil
		case line, ok = <-lines:
		}
		if !ok {
			return <-errc
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			e.send("id name bomberzero")
			e.send("id author the bomberzero authors")
			e.send("option name UCI_Variant type combo default chess%s", varList())
			e.send("option name Model type string default material")
			e.send("option name Playouts type spin default %d min 1 max %d", setup.DefaultSims, MaxSims)
			e.send("uciok")
		case "isready":
			e.send("readyok")
		case "setoption":
			e.setOption(f[1:])
		case "ucinewgame":
			e.halt()
			e.pos = e.pos.Variant().NewPosition()
		case "position":
			e.halt()
			if err := e.position(f[1:]); err != nil {
				e.send("info string position refused: %v", err)
			}
		case "go":
			e.halt()
			e.goSearch(f[1:])
		case "stop":
			e.halt()
		case "quit":
			return nil
		case "d":
			e.send("info string %s", e.pos)
		default:
			e.send("info string unknown command %q", f[0])
		}
	}
}

func varList() string {
	var b strings.Builder
	for _, n := range env.VariantNames() {
		b.WriteString(" var " + n)
	}
	return b.String()
}

func (e *engine) setVariant(name string) error {
	v, err := env.LoadVariant(name)
	if err != nil {
		return err
	}
	e.variant, e.pos, e.rules = name, v.NewPosition(), agent.NewRules(v, 0)
	return nil
}

// setOption reads "name N [value V]".
func (e *engine) setOption(f []string) {
	s := strings.Join(f, " ")
	s = strings.TrimPrefix(s, "name ")
	name, value, _ := strings.Cut(s, " value ")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	switch strings.ToLower(name) {
	case "uci_variant":
		e.halt()
		if err := e.setVariant(value); err != nil {
			e.send("info string UCI_Variant %q: %v", value, err)
		}
	case "model":
		e.model = value
	case "playouts":
		if n, err := strconv.Atoi(value); err == nil && n >= 1 && n <= MaxSims {
			e.sims = n
		} else {
			e.send("info string Playouts %q: want 1 to %d", value, MaxSims)
		}
	default:
		e.send("info string unknown option %q", name)
	}
}

// position reads "startpos|fen TEXT [moves M...]"; on error the position
// is left as it was.
func (e *engine) position(f []string) error {
	v := e.pos.Variant()
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
			m, err := ParseMove(p, t)
			if err != nil {
				return err
			}
			p.DoMove(m)
		}
	}
	e.pos = p
	return nil
}

// goSearch starts a search by "go" parameters; its bestmove line comes
// when it ends.
func (e *engine) goSearch(f []string) {
	num := func(i int) int {
		if i+1 < len(f) {
			if n, err := strconv.Atoi(f[i+1]); err == nil {
				return n
			}
		}
		return -1
	}
	limit, start := e.sims, min(64, e.sims)
	var movetime time.Duration
	var clock [2]int
	var inc [2]int
	infinite := false
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "nodes":
			if n := num(i); n > 0 {
				limit, start = min(n, MaxSims), min(n, 64)
			}
		case "movetime":
			if n := num(i); n > 0 {
				movetime, limit, start = time.Duration(n)*time.Millisecond, MaxSims, 64
			}
		case "wtime", "btime", "winc", "binc":
			n := max(num(i), 0)
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
			limit, start = MaxSims, 64
		case "infinite":
			infinite, limit, start = true, MaxSims, 64
		}
	}
	side := int(e.pos.SideToMove())
	if movetime == 0 && clock[side] > 0 {
		// A fortieth of the time left and half the increment, kept under
		// the time left.
		ms := clock[side]/40 + inc[side]/2
		movetime = time.Duration(min(ms, clock[side]*3/4)) * time.Millisecond
	}
	pos, model := e.pos.Clone(), e.model
	ctx, cancel := context.WithCancel(context.Background())
	e.stop, e.done = cancel, make(chan struct{})
	done := e.done
	go func() {
		defer close(done)
		defer cancel()
		best := e.search(ctx, pos, model, start, limit, movetime)
		if infinite {
			<-ctx.Done() // UCI: no bestmove before "stop"
		}
		e.send("bestmove %s", best)
	}()
}

// search runs the deepening search and returns the best move's text.
func (e *engine) search(ctx context.Context, pos *env.Position, modelSpec string, start, limit int, movetime time.Duration) string {
	legal := pos.LegalMoves(nil)
	if res, _ := pos.StatusOf(len(legal)); res != env.Ongoing {
		return "0000"
	}
	name, _, err := frontend.ParseModelSpec(modelSpec, e.sims)
	var model *agent.Model
	if err == nil {
		model, err = e.loadModel(name)
	}
	if err != nil {
		e.send("info string model %q: %v; playing the first legal move", modelSpec, err)
		return FormatMove(pos, legal[0])
	}
	var deadline time.Time
	if movetime > 0 {
		deadline = time.Now().Add(movetime)
	}
	cfg := setup.AnalysisSearch(e.base, start)
	cfg.Solver = true
	began := time.Now()
	rep, err := frontend.Deepen(ctx, pos, e.rules, model, cfg, 1, limit, deadline, func(r frontend.Report) {
		e.send("info depth %d nodes %d time %d score %s pv %s", max(len(r.PV), 1), r.Sims, time.Since(began).Milliseconds(), score(r), uciLine(pos, r.PV))
	})
	if err != nil {
		// Stopped before the first search finished: any legal move.
		return FormatMove(pos, legal[0])
	}
	return FormatMove(pos, rep.BestMove)
}

func (e *engine) loadModel(name string) (*agent.Model, error) {
	key := e.variant + "\x00" + name
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

// halt stops a running search and waits for its bestmove line.
func (e *engine) halt() {
	if e.stop != nil {
		e.stop()
		<-e.done
		e.stop, e.done = nil, nil
	}
}

// score writes a report's value as UCI does: "mate N" (moves, negative
// when losing) for a proven result, else centipawns by lc0's mapping
// (frontend.Centipawns).
func score(r frontend.Report) string {
	if r.Proven && r.Value != 0 {
		n := (len(r.PV) + 1) / 2
		if r.Value < 0 {
			return fmt.Sprintf("mate -%d", max(n, 1))
		}
		return fmt.Sprintf("mate %d", max(n, 1))
	}
	return fmt.Sprintf("cp %d", frontend.Centipawns(r.Value))
}

// uciLine rewrites a principal variation (Game Courier text) in UCI moves.
func uciLine(pos *env.Position, pv []string) string {
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

// FormatMove writes legal move m of p in UCI's coordinate form, extended
// for the family (docs/uci.md): from and to squares ("e2e4", "e9e10"), a
// promotion as a lower-case letter ("e9e10q"), castling as the king's
// from and to squares (with "O" after them when a king step has the same
// squares), a drop as LETTER@SQUARE ("J@e2") and a drop with a push as
// LETTER@SQUARE then the push's end ("J@e2e4"). A double capture or a
// fly-over needs no more: the removed pieces follow from the position.
func FormatMove(p *env.Position, m env.Move) string {
	g := p.Variant().Geo
	switch m.Kind() {
	case env.Drop:
		return p.FormatMove(m)
	case env.Castle:
		s := g.Name(m.From()) + g.Name(m.To())
		for _, o := range p.LegalMoves(nil) {
			if o != m && o.From() == m.From() && o.To() == m.To() {
				return s + "O"
			}
		}
		return s
	}
	s := g.Name(m.From()) + g.Name(m.To())
	if t := m.Promotion(); t != 0 {
		s += strings.ToLower(string(p.Variant().Pieces[t].Letter))
	}
	return s
}

// ParseMove reads a move in the UCI form FormatMove writes (or the
// canonical or Game Courier text of docs/notation.md) and returns the
// legal move of p it names.
func ParseMove(p *env.Position, text string) (env.Move, error) {
	for _, m := range p.LegalMoves(nil) {
		if FormatMove(p, m) == text {
			return m, nil
		}
	}
	m, err := p.ParseMove(text)
	if err != nil {
		return env.NoMove, fmt.Errorf("move %q: %w", text, err)
	}
	return m, nil
}
