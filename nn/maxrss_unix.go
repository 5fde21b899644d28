//go:build unix

package nn

import "syscall"

// maxRSSMB returns the process's peak resident memory in MiB (getrusage's
// ru_maxrss, KiB on Linux), or 0 where the system cannot say.
func maxRSSMB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024
}
