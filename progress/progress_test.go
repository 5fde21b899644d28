package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNoBarWhenTheWriterIsNotATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	for _, tc := range []struct {
		name string
		w    interface{ Write([]byte) (int, error) }
	}{
		{"buffer", &buf},
		{"regular file", f},
		{"nil file", (*os.File)(nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if IsTerminal(tc.w) {
				t.Fatalf("IsTerminal(%s) = true", tc.name)
			}
			b := New(tc.w, 10, "games", "games")
			if b != nil {
				t.Fatalf("New on a %s = %v; want no bar", tc.name, b)
			}
			// A nil bar takes every call and draws nothing.
			b.Describe("x")
			b.Set(5)
			b.Finish()
			b.Stop()
			b.Clear()
			if p := Func(tc.w, "chunks", "chunks", 0); p != nil {
				t.Errorf("Func on a %s returned a callback; want nil", tc.name)
			}
		})
	}
	if buf.Len() != 0 {
		t.Errorf("the buffer received %q; want nothing", buf.String())
	}
	if info, _ := f.Stat(); info.Size() != 0 {
		t.Errorf("the log file received %d bytes; want none", info.Size())
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
	p := newFunc(&buf, "reading chunks", "chunks", 20)
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
