//go:build windows

package cputime

import (
	"fmt"
	"time"

	"golang.org/x/sys/windows"
)

func processSeconds() float64 {
	t, err := handleTimes(windows.CurrentProcess())
	if err != nil {
		return 0
	}
	return t.Seconds()
}

// handleTimes returns the kernel and user time of the process behind h.
func handleTimes(h windows.Handle) (time.Duration, error) {
	var creation, exit, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &creation, &exit, &kernel, &user); err != nil {
		return 0, err
	}
	// A Filetime here is a duration in 100-nanosecond ticks.
	ticks := func(t windows.Filetime) uint64 { return uint64(t.HighDateTime)<<32 | uint64(t.LowDateTime) }
	return time.Duration(ticks(kernel)+ticks(user)) * 100, nil
}

func threadTime() (time.Duration, error) {
	return 0, fmt.Errorf("cputime: a thread's CPU time: %w", ErrUnsupported)
}

func processTime(pid int) (time.Duration, error) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0, fmt.Errorf("cputime: opening process %d: %w", pid, err)
	}
	defer windows.CloseHandle(h)
	t, err := handleTimes(h)
	if err != nil {
		return 0, fmt.Errorf("cputime: the CPU time of process %d: %w", pid, err)
	}
	return t, nil
}

func loadAverage() (Load, error) {
	return Load{}, fmt.Errorf("cputime: the load average: %w", ErrUnsupported)
}
