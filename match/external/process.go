package external

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// handshakeTimeout bounds the engine's answers to "uci" and "isready".
const handshakeTimeout = 10 * time.Second

// maxLine is the longest line read from an engine; a longer one ends the
// engine's output (and its game) rather than growing a buffer without end.
const maxLine = 1 << 16

// errHung is what an engine that does not answer in time is told it did.
var errHung = errors.New("hung")

// process is one running engine: its standard input, its output lines as
// they arrive, and the reason it ended once it has.
type process struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	done  chan struct{} // closed when the output ends
	stop  chan struct{} // closed by close: the output is read and dropped
	once  sync.Once     // close's work, once
	mu    sync.Mutex
	err   error // why the output ended, set before done is closed
	// options are the engine's option names, as its "option name" lines
	// give them (lower case), read during the handshake.
	options map[string]bool
}

// start runs the engine at path and completes the UCI handshake ("uci" up
// to "uciok"); the engine's options are recorded. ctx ends the process.
func start(ctx context.Context, path string) (*process, error) {
	exe, err := LookPath(path)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.WaitDelay = time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", path, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", path, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("engine %s: %w", path, err)
	}
	p := &process{cmd: cmd, in: in, lines: make(chan string, 256), done: make(chan struct{}), stop: make(chan struct{}), options: map[string]bool{}}
	go p.read(out)
	if err := p.send("uci"); err != nil {
		p.close()
		return nil, fmt.Errorf("engine %s: %w", path, err)
	}
	for {
		line, err := p.next(handshakeTimeout)
		if err != nil {
			p.close()
			return nil, fmt.Errorf("engine %s: no uciok after \"uci\": %w", path, err)
		}
		if line == "uciok" {
			return p, nil
		}
		if rest, ok := strings.CutPrefix(line, "option name "); ok {
			name, _, _ := strings.Cut(rest, " type ")
			p.options[strings.ToLower(strings.TrimSpace(name))] = true
		}
	}
}

// LookPath finds an engine's program: a name without "/" on PATH or in
// /usr/games (where Debian installs stockfish and fairy-stockfish, often
// not on PATH), a path as it is; either way it must be an executable file.
func LookPath(path string) (string, error) {
	exe, err := exec.LookPath(path)
	if err == nil {
		return exe, nil
	}
	if strings.Contains(path, "/") {
		return "", fmt.Errorf("engine %q: %w", path, err)
	}
	if exe, err2 := exec.LookPath("/usr/games/" + path); err2 == nil {
		return exe, nil
	}
	return "", fmt.Errorf("engine %q: not found on PATH or in /usr/games: %w", path, err)
}

// read passes the engine's output on line by line until it ends.
func (p *process) read(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 4096), maxLine)
	for sc.Scan() {
		select {
		case p.lines <- strings.TrimSpace(sc.Text()):
		case <-p.stop:
		}
	}
	err := sc.Err()
	if err == nil {
		err = p.cmd.Wait()
		if err == nil {
			err = errors.New("exited")
		} else {
			err = fmt.Errorf("exited: %w", err)
		}
	} else {
		err = fmt.Errorf("output unreadable: %w", err)
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	}
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
	close(p.done)
}

// alive reports whether the engine's output is still open: it has not
// exited.
func (p *process) alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// send writes one command line to the engine.
func (p *process) send(line string) error {
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		return fmt.Errorf("writing %q: %w", line, err)
	}
	return nil
}

// next returns the engine's next output line, or an error when the output
// has ended (the engine exited) or none came within wait (errHung).
func (p *process) next(wait time.Duration) (string, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case line := <-p.lines:
		return line, nil
	case <-p.done:
		// Lines sent before the end come first.
		select {
		case line := <-p.lines:
			return line, nil
		default:
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		return "", p.err
	case <-t.C:
		return "", fmt.Errorf("%w: no answer in %v", errHung, wait)
	}
}

// sync sends "isready" and waits for "readyok", dropping the lines before.
func (p *process) sync(wait time.Duration) error {
	if err := p.send("isready"); err != nil {
		return err
	}
	for {
		line, err := p.next(wait)
		if err != nil {
			return fmt.Errorf("no readyok after \"isready\": %w", err)
		}
		if line == "readyok" {
			return nil
		}
	}
}

// close asks the engine to quit, then ends it if it has not within a
// second.
func (p *process) close() {
	p.once.Do(func() {
		close(p.stop)
		_ = p.send("quit")
		_ = p.in.Close()
		select {
		case <-p.done:
		case <-time.After(time.Second):
			if p.cmd.Process != nil {
				_ = p.cmd.Process.Kill()
			}
			<-p.done
		}
	})
}
