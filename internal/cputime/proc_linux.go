//go:build linux

package cputime

import (
	"fmt"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

func threadTime() (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, fmt.Errorf("cputime: the thread's clock: %w", err)
	}
	return time.Duration(ts.Nano()), nil
}

// processClock is the id of the CPU-time clock of process pid, all its
// threads (those that have exited too) together, as glibc's
// clock_getcpuclockid makes it: the complement of the pid shifted left by
// three, with CPUCLOCK_SCHED (2), a nanosecond count of the scheduler's.
func processClock(pid int) int32 { return int32(^uint32(pid)<<3 | 2) }

func processTime(pid int) (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(processClock(pid), &ts); err == nil {
		return time.Duration(ts.Nano()), nil
	}
	// A kernel that refuses the clock still writes /proc, in ticks.
	s, err := readProc("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseStat(s)
}

func loadAverage() (Load, error) {
	s, err := readProc("/proc/loadavg")
	if err != nil {
		return Load{}, err
	}
	return parseLoad(s)
}
