package nn

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// forEach calls f(0), ..., f(n-1) spread over GOMAXPROCS goroutines
// (training, where one step owns the machine; inference runs on its
// caller's goroutine and never calls it).
func forEach(n int, f func(i int)) {
	workers := min(maxProcs(), n)
	if workers <= 1 {
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

// forRanges cuts [0, n) into min(GOMAXPROCS, maxWorkers, n) contiguous
// ranges of nearly equal length, calls f(worker, lo, hi) for each on a
// goroutine of its own (the caller's when there is one range), and returns
// the number of ranges. The same n, bound and GOMAXPROCS give the same
// ranges, so results gathered per worker do not depend on scheduling.
func forRanges(n, maxWorkers int, f func(worker, lo, hi int)) int {
	workers := max(1, min(maxProcs(), maxWorkers, n))
	if workers == 1 {
		f(0, 0, n)
		return 1
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w, w*n/workers, (w+1)*n/workers)
		}()
	}
	wg.Wait()
	return workers
}

// maxProcs is the number of goroutines parallel work is spread over.
func maxProcs() int { return runtime.GOMAXPROCS(0) }
