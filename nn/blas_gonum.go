//go:build !openblas

package nn

// BLASName names the BLAS this build multiplies matrices with.
const BLASName = "gonum (pure Go)"

// BLASCore names the kernel family the BLAS chose for this processor; the
// pure-Go build has one.
func BLASCore() string { return "gonum" }

// tileForSerial says whether single-goroutine products must be cut into
// tiles to keep gonum from going parallel.
const tileForSerial = true

// SetBLASThreads is kept for callers written against an earlier nn.
//
// Deprecated: nn runs every product single-threaded on goroutines of its
// own (GOMAXPROCS of them in a training step, one per evaluator in
// inference), and keeps OpenBLAS at 1 thread so that no BLAS threads
// oversubscribe the cores; n is ignored. Bound nn's parallelism with
// GOMAXPROCS.
func SetBLASThreads(n int) {}
