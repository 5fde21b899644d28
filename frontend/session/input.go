package session

import (
	"bufio"
	"io"
)

// Input is the command lines of a protocol, read on a goroutine of their
// own so that the protocol's loop can wait on a line and on a search at
// once.
type Input struct {
	// Lines carries each line read; it is closed at the end of the input
	// or when reading fails (Err).
	Lines <-chan string
	errc  chan error
	quit  chan struct{}
}

// Read starts reading lines (of at most 1 MiB) from in.
func Read(in io.Reader) *Input {
	lines := make(chan string)
	i := &Input{Lines: lines, errc: make(chan error, 1), quit: make(chan struct{})}
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-i.quit:
				return
			}
		}
		i.errc <- sc.Err()
	}()
	return i
}

// Err returns the error that ended the input, nil at its end; call it once
// Lines is closed.
func (i *Input) Err() error { return <-i.errc }

// Close stops reading: the goroutine ends once its reader returns the
// line it is reading.
func (i *Input) Close() { close(i.quit) }
