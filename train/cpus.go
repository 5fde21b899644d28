package train

import "runtime"

// runtimeCPUs is the number of cores the run may use.
func runtimeCPUs() int { return runtime.GOMAXPROCS(0) }
