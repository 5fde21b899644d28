//go:build !unix

package nn

// maxRSSMB returns 0: this system has no getrusage, and the benchmark's
// peak memory is left out.
func maxRSSMB() float64 { return 0 }
