//go:build unix

package gemm

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time so far: benchmarks report
// rates per CPU-second beside wall-clock ones, which other load on a shared
// machine skews less.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
