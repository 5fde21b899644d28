// Package cputime reads CPU time: the process's own (Seconds), the clock of
// the benchmarks' per-CPU-second figures, which stay steadier than
// wall-clock rates on a shared machine; the calling thread's (Thread), which
// times one move of a player that computes on one goroutine; another
// process's (Process), which times an outside engine; and the machine's load
// averages (LoadAverage), which a strength figure states beside its CPU
// times.
package cputime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"bomberzero/internal/readfile"
)

// ErrUnsupported is wrapped by the errors of the readings this system
// cannot give (the thread clock on Windows, /proc readings off Linux).
var ErrUnsupported = errors.New("not available on this system")

// Seconds returns the user and system CPU time this process has used so far,
// all threads together, or 0 where the system cannot say. Differences of two
// readings time a stretch of work.
func Seconds() float64 { return processSeconds() }

// Thread returns the user and system CPU time the calling OS thread has used
// so far. The difference of two readings is the CPU time of the work between
// them only when the goroutine stays on one thread, so lock it there first
// (runtime.LockOSThread): a locked thread runs no other goroutine.
func Thread() (time.Duration, error) { return threadTime() }

// Process returns the user and system CPU time the process pid has used so
// far, all its threads together, those that have exited too. On Linux it
// reads the process's CPU-time clock (clock_getcpuclockid's), to the
// nanosecond, and falls back to /proc/PID/stat, in clock ticks of 10 ms,
// where the kernel refuses it; on Windows GetProcessTimes.
func Process(pid int) (time.Duration, error) {
	if pid <= 0 {
		return 0, fmt.Errorf("cputime: process id %d: want a positive id", pid)
	}
	return processTime(pid)
}

// Load is the machine's load average: the mean number of runnable (and, on
// Linux, uninterruptible) tasks over the last 1, 5 and 15 minutes.
type Load struct {
	One     float64 `json:"1m"`
	Five    float64 `json:"5m"`
	Fifteen float64 `json:"15m"`
}

// String writes the load as uptime does, "1.52, 1.20, 0.98".
func (l Load) String() string { return fmt.Sprintf("%.2f, %.2f, %.2f", l.One, l.Five, l.Fifteen) }

// procLimit bounds the reads of /proc files, a few hundred bytes each.
const procLimit = 4096

// LoadAverage returns the machine's load average (Linux: /proc/loadavg).
func LoadAverage() (Load, error) { return loadAverage() }

// parseLoad reads the first three fields of /proc/loadavg, as
// "0.79 1.51 2.03 1/412 12345".
func parseLoad(text string) (Load, error) {
	f := strings.Fields(text)
	if len(f) < 3 {
		return Load{}, fmt.Errorf("cputime: /proc/loadavg %q: want three load averages", text)
	}
	var v [3]float64
	for i := range v {
		x, err := strconv.ParseFloat(f[i], 64)
		if err != nil || x < 0 {
			return Load{}, fmt.Errorf("cputime: /proc/loadavg field %d %q: want a load average, a number from 0", i+1, f[i])
		}
		v[i] = x
	}
	return Load{One: v[0], Five: v[1], Fifteen: v[2]}, nil
}

// ticksPerSecond is Linux's USER_HZ, the unit of /proc's CPU times: 100 on
// every architecture Go supports (the kernel's HZ may differ; what /proc
// writes is scaled to USER_HZ).
const ticksPerSecond = 100

// parseStat reads the user and system times (fields 14 and 15) of a
// /proc/PID/stat line. The command name (field 2) is in parentheses and may
// hold spaces and parentheses itself, so the fields are counted after its
// last ")".
func parseStat(text string) (time.Duration, error) {
	i := strings.LastIndexByte(text, ')')
	if i < 0 {
		return 0, fmt.Errorf("cputime: stat line %.40q: no \")\" closing the command name", text)
	}
	f := strings.Fields(text[i+1:])
	// After the name come state (field 3) up to stime (field 15).
	const utime, stime = 14 - 3, 15 - 3
	if len(f) <= stime {
		return 0, fmt.Errorf("cputime: stat line %.40q: %d fields after the name, want at least %d", text, len(f), stime+1)
	}
	var ticks uint64
	for _, k := range []int{utime, stime} {
		n, err := strconv.ParseUint(f[k], 10, 63)
		if err != nil {
			return 0, fmt.Errorf("cputime: stat field %d %q: want a count of clock ticks", k+3, f[k])
		}
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / ticksPerSecond), nil
}

// readProc reads a small /proc file.
func readProc(path string) (string, error) {
	b, err := readfile.Regular(path, procLimit)
	if err != nil {
		return "", fmt.Errorf("cputime: %w", err)
	}
	return string(b), nil
}
