//go:build amd64 && !purego

package engine

// prefetch asks the processor to bring the cache line at p into its
// caches (PREFETCHT0) and returns at once; it never faults.
//
//go:noescape
func prefetch(p *[bucketSize]entry)
