//go:build !linux && !windows

package cputime

import (
	"fmt"
	"time"
)

func threadTime() (time.Duration, error) {
	return 0, fmt.Errorf("cputime: a thread's CPU time: %w", ErrUnsupported)
}

func processTime(pid int) (time.Duration, error) {
	return 0, fmt.Errorf("cputime: the CPU time of process %d: %w", pid, ErrUnsupported)
}

func loadAverage() (Load, error) {
	return Load{}, fmt.Errorf("cputime: the load average: %w", ErrUnsupported)
}
