package nn

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// forEach calls f(0), ..., f(n-1): spread over GOMAXPROCS goroutines when
// par is set (training, where one step owns the machine), in order on the
// calling goroutine otherwise (inference, where each core runs its own
// evaluator and nothing may allocate).
func forEach(par bool, n int, f func(i int)) {
	workers := min(maxProcs(), n)
	if !par || workers <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// forEachWorker calls f(worker, i) for i = 0, ..., n-1 over at most
// min(GOMAXPROCS, maxWorkers) goroutines, worker being the calling
// goroutine's index (below that bound): for work that needs scratch memory
// of its own per goroutine.
func forEachWorker(n, maxWorkers int, f func(worker, i int)) {
	workers := min(maxProcs(), n, maxWorkers)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(0, i)
		}
		return
	}
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(w, i)
			}
		}()
	}
	wg.Wait()
}

// maxProcs is the number of goroutines parallel work is spread over.
func maxProcs() int { return runtime.GOMAXPROCS(0) }
