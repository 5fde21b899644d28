// Package progress draws the project's progress bars: one look (count,
// rate, time left), one redraw rate. When the writer is a file or a pipe
// rather than a terminal (a log: nohup, a batch job), it writes a plain
// line at most once a LogInterval instead of a bar, so that a person
// tailing the log sees the work move and the log stays short; any other
// writer gets nothing.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Throttle is the shortest time between two redraws of a bar.
const Throttle = 200 * time.Millisecond

// LogInterval is the shortest time between two progress lines written to
// a log (a file or pipe that is not a terminal). Work shorter than this
// writes none.
const LogInterval = time.Minute

// Bar is a progress bar counting items towards a total. A nil *Bar draws
// nothing, and all its methods may be called on it, so callers need no
// check of their own.
type Bar struct {
	pb   *progressbar.ProgressBar // on a terminal
	log  *logLines                // on a log
	w    io.Writer
	unit string // the terminal bar's unit, for Resume's line
	base int    // items done before this run (Resume): the terminal bar counts from it
}

// New returns a bar on w counting up to total items of unit ("games",
// "steps"; "" shows "it"), described by what, showing the count, the rate in unit/s, the
// elapsed time and the time left, redrawn at most once per Throttle. On a
// file or pipe that is not a terminal it writes the same figures as a
// plain line at most once a LogInterval; on any other writer it returns
// nil (no bar).
func New(w io.Writer, total int, what, unit string) *Bar {
	switch {
	case IsTerminal(w):
		return newBar(w, total, what, unit)
	case isLog(w):
		return newLogBar(w, total, what, unit, LogInterval)
	}
	return nil
}

// isLog reports whether w is an open file (a redirected output or pipe).
func isLog(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && f != nil
}

// logLines is a Bar's state on a log.
type logLines struct {
	mu          sync.Mutex
	total, done int
	base        int // items done before this run (Resume): not in the rate
	what, unit  string
	every       time.Duration
	start, last time.Time
	wrote       bool // a line has been written
}

// newLogBar is a bar that writes a line at most once every interval.
func newLogBar(w io.Writer, total int, what, unit string, every time.Duration) *Bar {
	if unit == "" {
		unit = "it"
	}
	now := time.Now()
	return &Bar{w: w, log: &logLines{total: total, what: what, unit: unit, every: every, start: now, last: now}}
}

// set records n items done and writes a line if the interval has passed.
func (l *logLines) set(w io.Writer, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done = n
	if now := time.Now(); now.Sub(l.last) >= l.every {
		l.last = now
		l.wrote = true
		fmt.Fprintln(w, l.line(now))
	}
}

// line describes the progress at now: count, share, rate, elapsed and
// time left, the rate of the items done since the bar began.
func (l *logLines) line(now time.Time) string {
	elapsed := now.Sub(l.start)
	s := fmt.Sprintf("%s: %d/%d %s", l.what, l.done, l.total, l.unit)
	if l.total > 0 {
		s += fmt.Sprintf(" (%.0f%%)", 100*float64(l.done)/float64(l.total))
	}
	s += fmt.Sprintf(", %s elapsed", elapsed.Round(time.Second))
	if l.done > l.base && elapsed > 0 {
		rate := float64(l.done-l.base) / elapsed.Seconds()
		s += fmt.Sprintf(", %.3g %s/s", rate, l.unit)
		if left := l.total - l.done; left > 0 {
			s += fmt.Sprintf(", about %s left", (time.Duration(float64(left)/rate) * time.Second).Round(time.Second))
		}
	}
	return s
}

// end writes the closing line, verb ("done", "stopped"), if the work was
// long enough to have written a line.
func (l *logLines) end(w io.Writer, verb string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wrote {
		fmt.Fprintf(w, "%s: %s at %d/%d %s after %s\n", l.what, verb, l.done, l.total, l.unit, time.Since(l.start).Round(time.Second))
		l.wrote = false
	}
}

// newBar is New without the terminal check.
func newBar(w io.Writer, total int, what, unit string) *Bar {
	if unit == "" {
		unit = "it"
	}
	return &Bar{w: w, unit: unit, pb: progressbar.NewOptions(total,
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
	switch {
	case b == nil:
	case b.log != nil:
		b.log.set(b.w, n)
	default:
		_ = b.pb.Set(max(n-b.base, 0))
	}
}

// Resume records that n items were done before this run began (a job
// resumed from what a killed run left), so that the rate and the time left
// count only the items this run does, and writes a line saying so when n
// is not 0. Call it before the first Set. On a log the count goes on from
// n; a terminal bar counts this run's items, out of those left.
func (b *Bar) Resume(n int) {
	if b == nil || n <= 0 {
		return
	}
	if b.log != nil {
		l := b.log
		l.mu.Lock()
		l.base, l.done = n, n
		fmt.Fprintf(b.w, "%s: resuming with %d of %d %s done\n", l.what, n, l.total, l.unit)
		l.mu.Unlock()
		return
	}
	st := b.pb.State()
	total := int(st.Max)
	fmt.Fprintf(b.w, "%s: resuming with %d of %d %s done; the bar counts the rest\n", st.Description, n, total, b.unit)
	b.base = n
	b.pb.ChangeMax(max(total-n, 1))
}

// ResumeFunc returns a progress callback, in the form the packages take
// (done, total), for a job that reports first, before any work, the items
// already done (a resumed run's): its first call is Resume, the later ones
// Set.
func (b *Bar) ResumeFunc() func(done, total int) {
	first := true
	return func(done, _ int) {
		if first {
			first = false
			b.Resume(done)
			return
		}
		b.Set(done)
	}
}

// Describe replaces the bar's description (what it counts, a live figure).
func (b *Bar) Describe(what string) {
	switch {
	case b == nil:
	case b.log != nil:
		b.log.mu.Lock()
		b.log.what = what
		b.log.mu.Unlock()
	default:
		b.pb.Describe(what)
	}
}

// Finish draws the bar complete and ends its line, leaving it on screen.
func (b *Bar) Finish() {
	switch {
	case b == nil:
	case b.log != nil:
		b.log.mu.Lock()
		b.log.done = b.log.total
		b.log.mu.Unlock()
		b.log.end(b.w, "done")
	default:
		_ = b.pb.Finish()
		fmt.Fprintln(b.w)
	}
}

// Stop ends the bar's line where it stands (an interrupted run), leaving
// it on screen.
func (b *Bar) Stop() {
	switch {
	case b == nil:
	case b.log != nil:
		b.log.end(b.w, "stopped")
	default:
		_ = b.pb.Exit()
		fmt.Fprintln(b.w)
	}
}

// Clear erases the bar, for bars that should leave no trace once done.
// On a log, whose lines cannot be erased, it writes the closing line of
// work long enough to have written any.
func (b *Bar) Clear() {
	switch {
	case b == nil:
	case b.log != nil:
		b.log.end(b.w, "done")
	default:
		_ = b.pb.Exit()
		_ = b.pb.Clear()
	}
}

// Func returns a progress callback, in the form the packages take
// (done, total), that draws a bar on w once a call brings a total of at
// least min items, and erases it when done reaches the total. On a file
// or pipe that is not a terminal its lines are New's; on any other writer
// it returns nil (no callback).
func Func(w io.Writer, what, unit string, min int) func(done, total int) {
	switch {
	case IsTerminal(w):
		return newFunc(w, what, unit, min, newBar)
	case isLog(w):
		return newFunc(w, what, unit, min, func(w io.Writer, total int, what, unit string) *Bar {
			return newLogBar(w, total, what, unit, LogInterval)
		})
	}
	return nil
}

// newFunc is Func with the bar that mk makes.
func newFunc(w io.Writer, what, unit string, min int, mk func(w io.Writer, total int, what, unit string) *Bar) func(done, total int) {
	var b *Bar
	return func(done, total int) {
		if total < min {
			return
		}
		if b == nil {
			b = mk(w, total, what, unit)
		}
		b.Set(done)
		if done >= total {
			b.Clear()
		}
	}
}
