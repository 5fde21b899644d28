//go:build !linux

package engine

// totalMemoryMB returns the machine's memory in megabytes, 0 if unknown.
func totalMemoryMB() int { return 0 }
