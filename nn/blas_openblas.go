//go:build openblas

package nn

/*
#cgo LDFLAGS: -lopenblas
void openblas_set_num_threads(int num_threads);
char* openblas_get_corename(void);
*/
import "C"

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/netlib/blas/netlib"
)

// BLASName names the BLAS this build multiplies matrices with.
const BLASName = "OpenBLAS (cgo)"

// BLASCore names the kernel family the BLAS chose for this processor.
// OpenBLAS picks it from cpuid at load time; on processors its build does
// not recognise it falls back to a generic kernel (e.g. "Prescott", SSE3
// only) that can be several times slower: override it with the environment
// variable OPENBLAS_CORETYPE (e.g. SkylakeX on an AVX-512 machine) before
// the program starts (docs/BENCHMARKS.md).
func BLASCore() string { return C.GoString(C.openblas_get_corename()) }

// ExactRows reports whether this build's inference gives each position
// the same output bits whatever the batch it is evaluated in. OpenBLAS
// promises nothing of the kind (its kernels and their summation order may
// change with a product's shape), so this build says no.
func ExactRows() bool { return false }

// tileForSerial is false: OpenBLAS runs single-threaded and takes products whole.
const tileForSerial = false

func init() {
	blas32.Use(netlib.Implementation{})
	// Every product runs on one goroutine (see blas.go): OpenBLAS's own
	// threads would only spin beside Go's.
	C.openblas_set_num_threads(1)
}

// SetBLASThreads is kept for callers written against an earlier nn.
//
// Deprecated: nn runs every product single-threaded on goroutines of its
// own (GOMAXPROCS of them in a training step, one per evaluator in
// inference), and keeps OpenBLAS at 1 thread so that no BLAS threads
// oversubscribe the cores; n is ignored. Bound nn's parallelism with
// GOMAXPROCS.
func SetBLASThreads(n int) {}
