package mcts

import "fmt"

// Cache is a fixed-size evaluation cache keyed by position hash: for each
// position it keeps the evaluator's value and its priors over the legal
// moves (in LegalMoves order). It is direct mapped (a new entry replaces
// the one in its slot) and never allocates after NewCache. A Cache is not
// safe for concurrent use.
type Cache struct {
	shift    uint
	maxMoves int
	keys     []uint64
	counts   []int32 // legal moves of the entry; 0 marks an empty slot
	values   []float32
	priors   []float32 // maxMoves per entry
	hits     uint64
	misses   uint64
}

// NewCache returns a cache with room for entries positions (rounded up to a
// power of two) of at most maxMoves legal moves each.
func NewCache(entries, maxMoves int) (*Cache, error) {
	if entries < 1 || maxMoves < 1 {
		return nil, fmt.Errorf("mcts: cache of %d entries of %d moves: want both >= 1", entries, maxMoves)
	}
	size, bits := 1, uint(0)
	for size < entries {
		size, bits = size*2, bits+1
	}
	return &Cache{
		shift:    64 - bits,
		maxMoves: maxMoves,
		keys:     make([]uint64, size),
		counts:   make([]int32, size),
		values:   make([]float32, size),
		priors:   make([]float32, size*maxMoves),
	}, nil
}

// slot maps a hash to its entry (Fibonacci hashing, so that weak low bits
// do not matter).
func (c *Cache) slot(hash uint64) int {
	if c.shift == 64 {
		return 0
	}
	return int((hash * 0x9E3779B97F4A7C15) >> c.shift)
}

// Get returns the value and priors stored for the position with this hash
// and n legal moves. The priors alias the cache's storage and stay valid
// until the next Put.
func (c *Cache) Get(hash uint64, n int) (value float32, priors []float32, ok bool) {
	s := c.slot(hash)
	if c.counts[s] == 0 || c.keys[s] != hash || int(c.counts[s]) != n {
		c.misses++
		return 0, nil, false
	}
	c.hits++
	off := s * c.maxMoves
	return c.values[s], c.priors[off : off+n], true
}

// Put stores the value and priors of the position with this hash; a
// position with no moves or more than the cache's maxMoves is not stored.
func (c *Cache) Put(hash uint64, value float32, priors []float32) {
	n := len(priors)
	if n == 0 || n > c.maxMoves {
		return
	}
	s := c.slot(hash)
	c.keys[s], c.counts[s], c.values[s] = hash, int32(n), value
	copy(c.priors[s*c.maxMoves:], priors)
}

// Stats returns the number of hits and misses of Get so far.
func (c *Cache) Stats() (hits, misses uint64) { return c.hits, c.misses }
