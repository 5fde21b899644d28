package cputime

import (
	"testing"
	"time"
)

func TestSecondsGrowWithWorkAndNotWithSleep(t *testing.T) {
	t0 := Seconds()
	if t0 <= 0 {
		t.Fatalf("Seconds() = %v at the start of a test; want the positive time the process has used", t0)
	}
	x := uint64(1)
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	t1 := Seconds()
	if t1 <= t0 {
		t.Fatalf("50 ms of work moved the CPU time from %v to %v (x=%d)", t0, t1, x)
	}
	time.Sleep(100 * time.Millisecond)
	if t2 := Seconds(); t2-t1 > 0.08 {
		t.Errorf("a 100 ms sleep used %.3f s of CPU", t2-t1)
	}
}
