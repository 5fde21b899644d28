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

func processTime(pid int) (time.Duration, error) {
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
