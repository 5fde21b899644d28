// Package progress draws the project's progress bars: one look (count,
// rate, time left), one redraw rate, and no bar at all when the writer is
// not a terminal, so that logs and redirected output stay clean.
package progress

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Throttle is the shortest time between two redraws of a bar.
const Throttle = 200 * time.Millisecond

// Bar is a progress bar counting items towards a total. A nil *Bar draws
// nothing, and all its methods may be called on it, so callers need no
// check of their own.
type Bar struct {
	pb *progressbar.ProgressBar
	w  io.Writer
}

// New returns a bar on w counting up to total items of unit ("games",
// "steps"; "" shows "it"), described by what, showing the count, the rate in unit/s, the
// elapsed time and the time left, redrawn at most once per Throttle. It
// returns nil (no bar) unless w is a terminal.
func New(w io.Writer, total int, what, unit string) *Bar {
	if !IsTerminal(w) {
		return nil
	}
	return newBar(w, total, what, unit)
}

// newBar is New without the terminal check.
func newBar(w io.Writer, total int, what, unit string) *Bar {
	if unit == "" {
		unit = "it"
	}
	return &Bar{w: w, pb: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(unit),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionThrottle(Throttle),
	)}
}

// IsTerminal reports whether w is a file open on a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && f != nil && term.IsTerminal(int(f.Fd()))
}

// Set moves the bar to n items done.
func (b *Bar) Set(n int) {
	if b != nil {
		_ = b.pb.Set(n)
	}
}

// Describe replaces the bar's description (what it counts, a live figure).
func (b *Bar) Describe(what string) {
	if b != nil {
		b.pb.Describe(what)
	}
}

// Finish draws the bar complete and ends its line, leaving it on screen.
func (b *Bar) Finish() {
	if b != nil {
		_ = b.pb.Finish()
		fmt.Fprintln(b.w)
	}
}

// Stop ends the bar's line where it stands (an interrupted run), leaving
// it on screen.
func (b *Bar) Stop() {
	if b != nil {
		_ = b.pb.Exit()
		fmt.Fprintln(b.w)
	}
}

// Clear erases the bar, for bars that should leave no trace once done.
func (b *Bar) Clear() {
	if b != nil {
		_ = b.pb.Exit()
		_ = b.pb.Clear()
	}
}

// Func returns a progress callback, in the form the packages take
// (done, total), that draws a bar on w once a call brings a total of at
// least min items, and erases it when done reaches the total. It returns
// nil (no callback) unless w is a terminal.
func Func(w io.Writer, what, unit string, min int) func(done, total int) {
	if !IsTerminal(w) {
		return nil
	}
	return newFunc(w, what, unit, min)
}

// newFunc is Func without the terminal check.
func newFunc(w io.Writer, what, unit string, min int) func(done, total int) {
	var b *Bar
	return func(done, total int) {
		if total < min {
			return
		}
		if b == nil {
			b = newBar(w, total, what, unit)
		}
		b.Set(done)
		if done >= total {
			b.Clear()
		}
	}
}
