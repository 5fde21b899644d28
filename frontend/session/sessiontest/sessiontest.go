// Package sessiontest drives an engine protocol in tests: a conversation
// over pipes with an engine run in the test's process (Start) or in a
// program of its own (New), its lines read as they come, as an operating
// system's pipe buffers them, so the engine never waits on the test.
package sessiontest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// Timeout is how long Until waits for its line.
const Timeout = 2 * time.Minute

// Conversation is one conversation with an engine.
type Conversation struct {
	t    testing.TB
	in   io.WriteCloser
	out  chan string
	quit chan struct{}
	// Seen holds every line Until read, in order; a test empties it to
	// look at what one command brought.
	Seen []string
}

// New talks to an engine that reads in and writes out; the test's cleanup
// stops reading out (closing in is the caller's).
func New(t testing.TB, in io.WriteCloser, out io.Reader) *Conversation {
	c := &Conversation{t: t, in: in, out: make(chan string, 1<<16), quit: make(chan struct{})}
	go func() {
		defer close(c.out)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case c.out <- sc.Text():
			case <-c.quit: // the test is over: drain the engine's output
			}
		}
	}()
	t.Cleanup(func() { close(c.quit) })
	return c
}

// Start runs an engine protocol (uci.Run, xboard.Run) over pipes; the
// test's cleanup closes its input and fails the test when run returns an
// error.
func Start(t testing.TB, run func(ctx context.Context, in io.Reader, out io.Writer) error) *Conversation {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(context.Background(), inR, outW); outW.Close() }()
	t.Cleanup(func() {
		inW.Close()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return New(t, inW, outR)
}

// Send writes one command line.
func (c *Conversation) Send(cmd string) {
	c.t.Helper()
	if _, err := fmt.Fprintln(c.in, cmd); err != nil {
		c.t.Fatal(err)
	}
}

// Until reads lines until one starts with prefix and returns it, keeping
// every line read in Seen; it fails the test when the engine ends first or
// no such line comes within Timeout.
func (c *Conversation) Until(prefix string) string {
	c.t.Helper()
	timeout := time.After(Timeout)
	for {
		select {
		case line, ok := <-c.out:
			if !ok {
				c.t.Fatalf("the engine ended before %q; it said:\n%s", prefix, strings.Join(c.Seen, "\n"))
			}
			c.Seen = append(c.Seen, line)
			if strings.HasPrefix(line, prefix) {
				return line
			}
		case <-timeout:
			c.t.Fatalf("no %q in %v; the engine said:\n%s", prefix, Timeout, strings.Join(c.Seen, "\n"))
		}
	}
}
