package engine

import "syscall"

// totalMemoryMB returns the machine's memory in megabytes, 0 if unknown.
func totalMemoryMB() int {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int(uint64(si.Totalram) * uint64(si.Unit) >> 20)
}
