package cputime

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// burn spins until the calling thread has used d of CPU time.
func burn(t *testing.T, d time.Duration) {
	t.Helper()
	t0, err := Thread()
	if err != nil {
		t.Fatal(err)
	}
	x := uint64(1)
	for {
		for range 10000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		now, err := Thread()
		if err != nil {
			t.Fatal(err)
		}
		if now-t0 >= d {
			break
		}
	}
	if x == 0 {
		t.Log("unlikely")
	}
}

func TestThreadCountsOnlyTheCallingThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, err := Thread(); !errors.Is(err, ErrUnsupported) {
			t.Fatalf("Thread() on %s: error %v, want ErrUnsupported", runtime.GOOS, err)
		}
		t.Skip("the thread clock is read on Linux only")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, err := Thread()
	if err != nil {
		t.Fatal(err)
	}
	// Another goroutine's work, on another thread, is not this thread's.
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		burn(t, 100*time.Millisecond)
		close(done)
	}()
	<-done
	t1, err := Thread()
	if err != nil {
		t.Fatal(err)
	}
	if t1-t0 > 50*time.Millisecond {
		t.Errorf("this thread used %v while it waited for another's 100 ms of work", t1-t0)
	}
	burn(t, 100*time.Millisecond)
	t2, _ := Thread()
	if d := t2 - t1; d < 100*time.Millisecond || d > 150*time.Millisecond {
		t.Errorf("burning 100 ms of CPU moved the thread's clock by %v", d)
	}
}

func TestProcessAgreesWithSeconds(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "windows" {
		t.Skip("another process's CPU time is read on Linux and Windows only")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, err := Process(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	s0 := Seconds()
	burn(t, 200*time.Millisecond)
	after, err := Process(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	s1 := Seconds()
	// Other goroutines of the test binary may add a little on both
	// clocks (and the /proc fallback is good to a 10 ms tick at each end).
	if d := after - before; d < 180*time.Millisecond {
		t.Errorf("Process moved by %v over 200 ms of this thread's work", d)
	}
	if d, s := (after - before).Seconds(), s1-s0; d > s+0.03 || d < s-0.03 {
		t.Errorf("Process moved by %.3f s, Seconds by %.3f s over the same work", d, s)
	}
	if _, err := Process(0); err == nil {
		t.Error("Process(0) gave no error")
	}
}

func TestLoadAverage(t *testing.T) {
	l, err := LoadAverage()
	if runtime.GOOS != "linux" {
		if !errors.Is(err, ErrUnsupported) {
			t.Fatalf("LoadAverage on %s: error %v, want ErrUnsupported", runtime.GOOS, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if l.One < 0 || l.Five < 0 || l.Fifteen < 0 {
		t.Errorf("LoadAverage() = %+v, want three numbers from 0", l)
	}
}

func TestParseLoad(t *testing.T) {
	for _, c := range []struct {
		text string
		want Load
		err  string
	}{
		{"0.79 1.51 2.03 1/412 12345\n", Load{0.79, 1.51, 2.03}, ""},
		{"12.00 8.5 3", Load{12, 8.5, 3}, ""},
		{"0.79 1.51", Load{}, "three load averages"},
		{"0.79 x 2.03 1/2 3", Load{}, "field 2"},
		{"-1 0 0", Load{}, "field 1"},
	} {
		got, err := parseLoad(c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseLoad(%q): error %v, want one saying %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("parseLoad(%q) = %+v, %v; want %+v", c.text, got, err, c.want)
		}
	}
	if s := (Load{0.5, 1, 12.25}).String(); s != "0.50, 1.00, 12.25" {
		t.Errorf("Load.String() = %q", s)
	}
}

func TestParseStat(t *testing.T) {
	// Fields 3 to 15 after the name: state ppid pgrp session tty tpgid
	// flags minflt cminflt majflt cmajflt utime stime.
	tail := " S 1 2 3 0 -1 4194304 100 0 0 0 250 30 0 0 20 0 1 0"
	for _, c := range []struct {
		text string
		want time.Duration
		err  string
	}{
		{"4242 (stockfish)" + tail, 2800 * time.Millisecond, ""},
		{"7 (a (b) c)" + tail, 2800 * time.Millisecond, ""},
		{"7 (sf" + tail, 0, "no \")\""},
		{"7 (sf) S 1 2 3", 0, "fields after the name"},
		{"7 (sf) S 1 2 3 0 -1 4194304 100 0 0 0 x 30", 0, "field 14"},
	} {
		got, err := parseStat(c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseStat(%q): error %v, want one saying %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("parseStat(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
	}
}
