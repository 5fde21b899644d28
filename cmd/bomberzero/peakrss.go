package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
)

// peakRSS returns this process's peak resident memory in bytes (VmHWM of
// /proc/self/status), and false where the system does not say (not
// Linux). Unlike getrusage's ru_maxrss, which Linux carries across execve
// (a child started by a large process reports its parent's size), VmHWM
// belongs to the process's own address space.
func peakRSS() (int64, bool) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "VmHWM: %d kB", &kb); err == nil && kb > 0 {
			return kb << 10, true
		}
	}
	return 0, false
}
