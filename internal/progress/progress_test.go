package progress

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A writer that is neither a terminal nor a file gets nothing; a file (a
// log) gets no bar, and no line for work shorter than LogInterval.
func TestNoBarWhenTheWriterIsNotATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	for _, tc := range []struct {
		name  string
		w     interface{ Write([]byte) (int, error) }
		isLog bool
	}{
		{"buffer", &buf, false},
		{"regular file", f, true},
		{"nil file", (*os.File)(nil), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if IsTerminal(tc.w) {
				t.Fatalf("IsTerminal(%s) = true", tc.name)
			}
			b := New(tc.w, 10, "games", "games")
			if (b != nil) != tc.isLog || (b != nil && b.pb != nil) {
				t.Fatalf("New on a %s = %+v; want log lines %v and never a drawn bar", tc.name, b, tc.isLog)
			}
			// A nil bar takes every call and draws nothing.
			b.Describe("x")
			b.Set(5)
			b.Finish()
			b.Stop()
			b.Clear()
			if p := Func(tc.w, "chunks", "chunks", 0); (p != nil) != tc.isLog {
				t.Errorf("Func on a %s returned a callback %v; want one only on a log", tc.name, p != nil)
			} else if p != nil {
				p(1, 2)
				p(2, 2)
			}
		})
	}
	if buf.Len() != 0 {
		t.Errorf("the buffer received %q; want nothing", buf.String())
	}
	if info, _ := f.Stat(); info.Size() != 0 {
		t.Errorf("the log file received %d bytes within a second; want none before LogInterval", info.Size())
	}
}

// On a log, a line at most once an interval, with count, share, rate and
// time left, and a closing line once any was written.
func TestLogGetsAPlainLineAtMostOnceAnInterval(t *testing.T) {
	var buf bytes.Buffer
	const every = 500 * time.Millisecond // long beside a preemption between two Sets on a loaded machine
	b := newLogBar(&buf, 10, "self-play", "games", every)
	b.Set(1)
	b.Set(2) // within the interval: no line
	if buf.Len() != 0 {
		t.Fatalf("a line before the interval: %q", buf.String())
	}
	time.Sleep(every + 10*time.Millisecond)
	b.Set(4)
	b.Set(5) // the interval starts again
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("lines %q; want exactly one", lines)
	}
	for _, want := range []string{"self-play: 4/10 games (40%)", "elapsed", "games/s", "left"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("line %q lacks %q", lines[0], want)
		}
	}
	if strings.ContainsAny(buf.String(), "\r\x1b") {
		t.Errorf("log line %q carries terminal control characters", buf.String())
	}
	b.Describe("gen 2 self-play")
	b.Finish()
	if last := buf.String()[strings.LastIndex(strings.TrimSuffix(buf.String(), "\n"), "\n")+1:]; !strings.HasPrefix(last, "gen 2 self-play: done at 10/10 games after") {
		t.Errorf("closing line %q", last)
	}
	// Work short enough to write no line writes no closing line either.
	var quiet bytes.Buffer
	s := newLogBar(&quiet, 3, "x", "", time.Hour)
	s.Set(3)
	s.Stop()
	s.Clear()
	if quiet.Len() != 0 {
		t.Errorf("short work wrote %q", quiet.String())
	}
}

func TestBarShowsCountRateAndTimeLeft(t *testing.T) {
	var buf bytes.Buffer
	b := newBar(&buf, 10, "self-play", "games")
	b.Set(3)
	time.Sleep(Throttle + 10*time.Millisecond) // past the throttle, so the next Set draws
	b.Set(4)
	out := buf.String()
	for _, want := range []string{"self-play", "4/10", "games/s", ":"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output %q lacks %q", out, want)
		}
	}
	b.Finish()
	if out := buf.String(); !strings.Contains(out, "10/10") || !strings.HasSuffix(out, "\n") {
		t.Errorf("finished bar %q: want 10/10 and an ended line", out)
	}
}

func TestFuncWaitsForTheMinimumAndClearsWhenDone(t *testing.T) {
	var buf bytes.Buffer
	p := newFunc(&buf, "reading chunks", "chunks", 20, newBar)
	for done := 1; done <= 5; done++ {
		p(done, 5) // under the minimum: no bar
	}
	if buf.Len() != 0 {
		t.Fatalf("a total under the minimum drew %q", buf.String())
	}
	for done := 1; done <= 25; done++ {
		p(done, 25)
	}
	out := buf.String()
	if !strings.Contains(out, "reading chunks") {
		t.Fatalf("output %q: want the bar", out)
	}
	// Clearing ends with a carriage return over blanks: nothing is left.
	if last := out[strings.LastIndex(strings.TrimRight(out, "\r"), "\r")+1:]; strings.TrimSpace(last) != "" {
		t.Errorf("after the last item the line still shows %q; want it erased", last)
	}
}

// TestResumedLogCountsOnlyThisRunsRate checks that a log bar told of the
// items done before its run (a resumed job) goes on counting from them
// while its rate, and so its time left, comes from this run's items alone.
func TestResumedLogCountsOnlyThisRunsRate(t *testing.T) {
	var buf bytes.Buffer
	b := newLogBar(&buf, 10000, "nnue worker", "games", time.Millisecond)
	b.ResumeFunc()(9000, 10000)
	if out := buf.String(); !strings.Contains(out, "nnue worker: resuming with 9000 of 10000 games done") {
		t.Fatalf("no resume line: %q", out)
	}
	const pause = 50 * time.Millisecond
	time.Sleep(pause)
	b.Set(9010)
	line := buf.String()[strings.Index(buf.String(), "\n")+1:]
	if !strings.Contains(line, "9010/10000 games") {
		t.Fatalf("progress line %q: want the count going on from 9000", line)
	}
	var rate float64
	i := strings.Index(line, "elapsed, ")
	if i < 0 {
		t.Fatalf("progress line %q has no rate", line)
	}
	if _, err := fmt.Sscanf(line[i+len("elapsed, "):], "%g games/s", &rate); err != nil {
		t.Fatalf("progress line %q: reading the rate: %v", line, err)
	}
	// 10 games in at least the pause: at most 200 a second. Counting the
	// 9,000 resumed games would give 180,000.
	if rate > 10/pause.Seconds()*1.01 {
		t.Errorf("rate %g games/s from %q: the resumed games were counted", rate, line)
	}
}

// TestResumedTerminalBarCountsTheRest checks that a terminal bar told of
// the items done before its run counts this run's items out of those left.
func TestResumedTerminalBarCountsTheRest(t *testing.T) {
	var buf bytes.Buffer
	b := newBar(&buf, 10000, "self-play", "games")
	b.Resume(9000)
	time.Sleep(Throttle + 10*time.Millisecond)
	b.Set(9004)
	out := buf.String()
	for _, want := range []string{"resuming with 9000 of 10000 games done", "4/1000"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output %q lacks %q", out, want)
		}
	}
}
