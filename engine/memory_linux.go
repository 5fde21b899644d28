package engine

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// totalMemoryMB returns the machine's memory in megabytes, 0 if unknown.
func totalMemoryMB() int {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int(uint64(si.Totalram) * uint64(si.Unit) >> 20)
}

// adviseHugePages asks the kernel to back the size bytes at p with huge
// pages where transparent huge pages are on request (madvise mode, the
// common default): the table's random probes then miss the TLB far less
// often, as Stockfish's large-page table does. It is advice only; an
// error changes nothing but the speed.
func adviseHugePages(p unsafe.Pointer, size int) {
	_ = unix.Madvise(unsafe.Slice((*byte)(p), size), unix.MADV_HUGEPAGE)
}
