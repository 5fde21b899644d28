//go:build !unix

package gemm

import "time"

// cpuTime is unknown here: the per-CPU-second rate is not reported.
func cpuTime() time.Duration { return 0 }
