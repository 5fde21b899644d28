//go:build openblas

package nn

/*
#cgo LDFLAGS: -lopenblas
void openblas_set_num_threads(int num_threads);
*/
import "C"

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/netlib/blas/netlib"
)

// BLASName names the BLAS this build multiplies matrices with.
const BLASName = "OpenBLAS (cgo)"

// tileForSerial is false: OpenBLAS threading is set by SetBLASThreads.
const tileForSerial = false

func init() {
	blas32.Use(netlib.Implementation{})
}

// SetBLASThreads sets how many threads one OpenBLAS call may use: 1 when
// each core runs its own evaluator, the number of cores for one big
// training step. The setting is process-wide.
func SetBLASThreads(n int) {
	if n < 1 {
		n = 1
	}
	C.openblas_set_num_threads(C.int(n))
}
