//go:build !linux

package engine

import "unsafe"

// totalMemoryMB returns the machine's memory in megabytes, 0 if unknown.
func totalMemoryMB() int { return 0 }

// adviseHugePages does nothing where the kernel takes no such advice.
func adviseHugePages(unsafe.Pointer, int) {}
