//go:build linux

package cputime

import (
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestProcessClockIsTheProcesssOwn checks the clock id Process reads (not
// its /proc fallback) against the kernel's clock of the calling process,
// and the fallback against it to a few ticks.
func TestProcessClockIsTheProcesssOwn(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	burn(t, 50*time.Millisecond)
	var a, b, own unix.Timespec
	if err := unix.ClockGettime(processClock(os.Getpid()), &a); err != nil {
		t.Fatalf("the CPU clock of process %d: %v", os.Getpid(), err)
	}
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &own); err != nil {
		t.Fatal(err)
	}
	if err := unix.ClockGettime(processClock(os.Getpid()), &b); err != nil {
		t.Fatal(err)
	}
	if own.Nano() < a.Nano() || own.Nano() > b.Nano() {
		t.Errorf("the process's own clock read %d ns between two readings of its clock by pid, %d and %d", own.Nano(), a.Nano(), b.Nano())
	}
	s, err := readProc("/proc/" + strconv.Itoa(os.Getpid()) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	ticks, err := parseStat(s)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Duration(b.Nano()) - ticks; d < -30*time.Millisecond || d > 30*time.Millisecond {
		t.Errorf("/proc/PID/stat says %v, the clock %v", ticks, time.Duration(b.Nano()))
	}
}
