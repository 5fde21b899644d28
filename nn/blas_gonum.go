//go:build !openblas

package nn

// BLASName names the BLAS this build multiplies matrices with.
const BLASName = "gonum (pure Go)"

// tileForSerial says whether single-goroutine products must be cut into
// tiles to keep gonum from going parallel.
const tileForSerial = true

// SetBLASThreads sets how many threads one BLAS call may use. gonum's
// pure-Go Sgemm splits large products over GOMAXPROCS goroutines on its own,
// so this build ignores n.
func SetBLASThreads(n int) {}
