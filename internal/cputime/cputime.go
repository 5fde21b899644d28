// Package cputime reads the CPU time the process has used, the clock of the
// benchmarks' per-CPU-second figures, which stay steadier than wall-clock
// rates on a shared machine.
package cputime

// Seconds returns the user and system CPU time this process has used so far,
// all threads together, or 0 where the system cannot say. Differences of two
// readings time a stretch of work.
func Seconds() float64 { return processSeconds() }
