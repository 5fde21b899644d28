package external

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"bomberzero/env"
	"bomberzero/internal/cputime"
	"bomberzero/match"
)

// stopWait is how long an engine told "stop" may take to send its move;
// pollInterval how often a waiting player looks at its context.
const (
	stopWait     = time.Second
	pollInterval = 50 * time.Millisecond
)

// Player is one outside engine playing one game: it starts its process at
// its first move (or takes the process of one of its Maker's finished
// games, told "ucinewgame"), sends the game's moves since the position it first saw,
// and checks each move the engine sends against bomberzero's rules. Every
// failure of the engine is a *match.ForfeitError.
type Player struct {
	spec string
	cfg  Config
	v    *env.Variant
	proc *process
	// pool keeps the process for the Maker's next game when the game ends
	// with the engine in order (nil: the process is ended); clean says it
	// is: its last search ended with a legal move.
	pool  *pool
	clean bool
	// base is the position the engine was given as a FEN, moves the moves
	// played from it in UCI text, last the position after the newest of
	// them (nil before the first move).
	base  string
	moves []string
	last  *env.Position
	// moveCPU is the engine process's CPU time over its last move, or
	// cpuErr why it could not be read.
	moveCPU time.Duration
	cpuErr  error
}

var _ match.SelfTimed = (*Player)(nil)

// NewMaker returns the match.Maker of cfg's engine playing variant v, after
// checking that the engine starts, accepts every option of cfg and answers
// v's start position with a legal move; spec is the player's name.
func NewMaker(ctx context.Context, spec string, cfg Config, v *env.Variant) (match.Maker, error) {
	if err := Check(ctx, cfg, v); err != nil {
		return match.Maker{}, err
	}
	kept := &pool{}
	return match.Maker{Spec: spec, New: func(uint64) (match.Player, error) {
		return &Player{spec: spec, cfg: cfg, v: v, pool: kept}, nil
	}}, nil
}

// Check starts cfg's engine once for variant v and plays one depth-1 search
// of v's start position: the engine must finish the handshake, know every
// option cfg sets (and UCI_Variant, for a variant other than chess) and
// answer with a legal move. The engine is closed again.
func Check(ctx context.Context, cfg Config, v *env.Variant) error {
	p := &Player{spec: Prefix + cfg.Path, cfg: cfg, v: v}
	p.cfg.MoveTime, p.cfg.Nodes, p.cfg.Depth = 0, 0, 1
	if err := p.launch(ctx); err != nil {
		return err
	}
	defer p.Close()
	if _, err := p.ChooseContext(ctx, v.NewPosition()); err != nil {
		if fe := (*match.ForfeitError)(nil); errors.As(err, &fe) {
			err = errors.New(fe.Reason)
		}
		return fmt.Errorf("the start position of %s, searched to depth 1: %w", v.Name, err)
	}
	return nil
}

// launch starts the engine and sets it up for a new game of p.v.
func (p *Player) launch(ctx context.Context) error {
	proc, err := start(ctx, p.cfg.Path)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		proc.close()
		return fmt.Errorf("engine %s: %w", p.cfg.Path, err)
	}
	for _, o := range p.cfg.Options {
		if !proc.options[strings.ToLower(o.Name)] {
			return fail(fmt.Errorf("no UCI option %q (the engine lists %d options)", o.Name, len(proc.options)))
		}
		if err := proc.send("setoption name " + o.Name + " value " + o.Value); err != nil {
			return fail(err)
		}
	}
	variant := p.cfg.Variant
	if variant == "" {
		variant = p.v.Name
	}
	if variant != "chess" {
		if !proc.options["uci_variant"] {
			return fail(fmt.Errorf("variant %s: the engine has no UCI_Variant option (it plays only chess)", variant))
		}
		if err := proc.send("setoption name UCI_Variant value " + variant); err != nil {
			return fail(err)
		}
	}
	if err := proc.send("ucinewgame"); err != nil {
		return fail(err)
	}
	if err := proc.sync(handshakeTimeout); err != nil {
		return fail(err)
	}
	p.proc = proc
	return nil
}

// Name returns the player's spec.
func (p *Player) Name() string { return p.spec }

// Choose returns the engine's move in pos.
func (p *Player) Choose(pos *env.Position) (env.Move, error) {
	return p.ChooseContext(context.Background(), pos)
}

// ChooseContext returns the engine's move in pos. The engine forfeits
// (*match.ForfeitError) when it will not start, exits, sends no best move
// within its limit and grace, or sends a move that is not legal in pos.
// When ctx ends the engine is told to stop and ctx's error is returned.
func (p *Player) ChooseContext(ctx context.Context, pos *env.Position) (env.Move, error) {
	if p.proc == nil && p.pool != nil {
		p.reuse()
	}
	if p.proc == nil {
		if err := p.launch(ctx); err != nil {
			if ctx.Err() != nil {
				// The match was stopped while the engine started (its
				// handshake outlasted the context): not the engine's fault.
				return env.NoMove, ctx.Err()
			}
			return env.NoMove, &match.ForfeitError{Reason: err.Error()}
		}
	}
	p.follow(pos)
	p.clean = false
	pid := p.proc.cmd.Process.Pid
	cpu0, cpuErr := cputime.Process(pid)
	p.moveCPU, p.cpuErr = 0, errNoMove
	cmd := "position fen " + p.base
	if len(p.moves) > 0 {
		cmd += " moves " + strings.Join(p.moves, " ")
	}
	if err := p.proc.send(cmd); err != nil {
		return env.NoMove, p.forfeit(err)
	}
	if err := p.proc.send(p.cfg.goCommand()); err != nil {
		return env.NoMove, p.forfeit(err)
	}
	text, err := p.bestMove(ctx)
	if cpuErr == nil {
		var cpu1 time.Duration
		cpu1, cpuErr = cputime.Process(pid)
		p.moveCPU = cpu1 - cpu0
	}
	p.cpuErr = cpuErr
	if err != nil {
		if ctx.Err() != nil {
			return env.NoMove, ctx.Err()
		}
		return env.NoMove, p.forfeit(err)
	}
	m, err := env.UCI{}.ParseMove(pos, text)
	if err != nil {
		return env.NoMove, p.forfeit(fmt.Errorf("illegal move %q in %s: %w", text, pos, err))
	}
	p.last = pos.Clone()
	p.last.DoMove(m)
	p.moves = append(p.moves, env.UCI{}.FormatMove(pos, m))
	p.clean = true
	return m, nil
}

// reuse takes a kept process of the Maker's finished games, if one is
// running, and starts a new game on it ("ucinewgame", then "isready"); a
// process that does not answer is ended and the game starts its own.
func (p *Player) reuse() {
	for proc := p.pool.get(); proc != nil; proc = p.pool.get() {
		if proc.send("ucinewgame") == nil && proc.sync(handshakeTimeout) == nil {
			p.proc = proc
			return
		}
		proc.close()
	}
}

// follow brings base and moves up to pos: the move that leads from the
// last position to pos is appended when there is one; otherwise pos becomes
// the new base.
func (p *Player) follow(pos *env.Position) {
	if p.last != nil {
		want := pos.String()
		if p.last.String() == want {
			return
		}
		for _, m := range p.last.LegalMoves(nil) {
			u := p.last.DoMove(m)
			same := p.last.Hash() == pos.Hash() && p.last.String() == want
			p.last.UndoMove(u)
			if same {
				p.moves = append(p.moves, env.UCI{}.FormatMove(p.last, m))
				p.last.DoMove(m)
				return
			}
		}
	}
	p.base, p.moves, p.last = pos.String(), nil, pos.Clone()
}

// bestMove reads the engine's output up to its "bestmove" line and returns
// the move's text. Past the deadline, or when ctx ends, the engine is told
// to stop and given stopWait more; ctx is looked at every pollInterval.
func (p *Player) bestMove(ctx context.Context) (string, error) {
	deadline := time.Now().Add(p.cfg.deadline())
	stopped := false
	for {
		if !stopped && (ctx.Err() != nil || !time.Now().Before(deadline)) {
			stopped = true
			if err := p.proc.send("stop"); err != nil {
				return "", err
			}
			deadline = time.Now().Add(stopWait)
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return "", fmt.Errorf("%w: no bestmove within %v past its limit, nor %v after \"stop\"", errHung, p.cfg.Grace, stopWait)
		}
		line, err := p.proc.next(min(wait, pollInterval))
		if errors.Is(err, errHung) {
			continue
		}
		if err != nil {
			return "", err
		}
		if rest, ok := strings.CutPrefix(line, "bestmove"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 || f[0] == "(none)" || f[0] == "0000" {
				return "", fmt.Errorf("no move (%q)", line)
			}
			return f[0], nil
		}
	}
}

// errNoMove is MoveCPU's error before the player's first move.
var errNoMove = errors.New("no move measured yet")

// MoveCPU returns the CPU time the engine's process (all its threads) used
// from the "position" command of its last move to its "bestmove" answer,
// read from the process's CPU-time clock (cputime.Process).
func (p *Player) MoveCPU() (time.Duration, error) { return p.moveCPU, p.cpuErr }

// forfeit ends the engine and wraps err as the game's forfeit.
func (p *Player) forfeit(err error) error {
	p.clean = false
	p.Close()
	return &match.ForfeitError{Reason: fmt.Sprintf("engine %s: %v", p.cfg.Path, err)}
}

// Close ends the engine's process, if it runs, or keeps it for the Maker's
// next game when the engine's last search ended in order. The match runner
// calls it when the game is over.
func (p *Player) Close() error {
	if p.proc != nil {
		if p.clean && p.pool != nil {
			p.pool.put(p.proc)
		} else {
			p.proc.close()
		}
		p.proc = nil
	}
	return nil
}
