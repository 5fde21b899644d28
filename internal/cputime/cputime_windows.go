//go:build windows

package cputime

import "golang.org/x/sys/windows"

func processSeconds() float64 {
	var creation, exit, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &creation, &exit, &kernel, &user); err != nil {
		return 0
	}
	// A Filetime here is a duration in 100-nanosecond ticks.
	ticks := func(t windows.Filetime) uint64 { return uint64(t.HighDateTime)<<32 | uint64(t.LowDateTime) }
	return float64(ticks(kernel)+ticks(user)) * 100e-9
}
