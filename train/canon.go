package train

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"bomberzero/datasets"
)

// canonicalWindow draws training samples from a datasets.Window in an order
// of its positions fixed by their content alone. The window lists its
// positions in chunk order, which follows the chunks' creation times: a
// run killed and resumed, or one whose self-play workers finish in another
// order, writes the same games into other chunks at other times. Drawing
// index i of the content order instead makes the batches (and so the
// trained weights) depend only on which positions the window holds, the
// generator's state and the batch size.
type canonicalWindow struct {
	w     *datasets.Window
	order []int32 // order[i]: the window index of the i-th position in content order
}

// keyed is one window position's content hash and index.
type keyed struct {
	key uint64
	idx int32
}

// refresh orders the window's current positions by content: by a 64-bit
// FNV-1a hash of every field a chunk's row gives a sample, and equal hashes
// by the fields themselves, ShortValue (computed from the row's game)
// included (positions equal in every field give the same samples, so their
// order does not matter). ShortValue stays out of the hash, so that runs
// without the short-term head keep the order they had before it.
func (c *canonicalWindow) refresh() error {
	n := c.w.Len()
	if n > math.MaxInt32 {
		return fmt.Errorf("train: data window of %d positions, more than %d", n, math.MaxInt32)
	}
	keys := make([]keyed, n) // 16 bytes a position while sorting
	for i := range n {
		s := c.w.At(i)
		h := fnvString(fnvOffset, s.Position)
		h = fnvString(fnvWord(h, 0), s.Variant)
		for _, v := range []uint32{uint32(s.Ply), uint32(s.Repetitions), uint32(s.GameLength),
			math.Float32bits(s.Value), math.Float32bits(s.Result)} {
			h = fnvWord(h, v)
		}
		for k, m := range s.PolicyIndex {
			h = fnvWord(fnvWord(h, uint32(m)), math.Float32bits(s.Visits[k]))
		}
		keys[i] = keyed{key: h, idx: int32(i)}
	}
	slices.SortFunc(keys, func(a, b keyed) int {
		if r := cmp.Compare(a.key, b.key); r != 0 {
			return r
		}
		return compareSamples(c.w.At(int(a.idx)), c.w.At(int(b.idx)))
	})
	c.order = slices.Grow(c.order[:0], n)[:n]
	for i, k := range keys {
		c.order[i] = k.idx
	}
	return nil
}

// FNV-1a, 64 bits.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnvString adds the bytes of s to the FNV-1a hash h.
func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// fnvWord adds the four bytes of v, lowest first, to the FNV-1a hash h.
func fnvWord(h uint64, v uint32) uint64 {
	for range 4 {
		h = (h ^ uint64(v&0xff)) * fnvPrime
		v >>= 8
	}
	return h
}

// compareSamples orders two samples by their fields.
func compareSamples(a, b datasets.Sample) int {
	return cmp.Or(
		cmp.Compare(a.Position, b.Position),
		cmp.Compare(a.Variant, b.Variant),
		cmp.Compare(a.Ply, b.Ply),
		cmp.Compare(a.Repetitions, b.Repetitions),
		cmp.Compare(a.GameLength, b.GameLength),
		cmp.Compare(math.Float32bits(a.Value), math.Float32bits(b.Value)),
		cmp.Compare(math.Float32bits(a.Result), math.Float32bits(b.Result)),
		slices.Compare(a.PolicyIndex, b.PolicyIndex),
		slices.CompareFunc(a.Visits, b.Visits, func(x, y float32) int {
			return cmp.Compare(math.Float32bits(x), math.Float32bits(y))
		}),
		// Two games through one position give it the same row but may
		// give it different short-term targets.
		cmp.Compare(math.Float32bits(a.ShortValue), math.Float32bits(b.ShortValue)),
	)
}

// Len returns the number of positions ordered (the window's at the last
// refresh).
func (c *canonicalWindow) Len() int { return len(c.order) }

// Sample fills dst with positions drawn uniformly and independently (with
// replacement) in content order, with one rng.IntN per sample as
// datasets.Window.Sample draws them. It fails on an empty window.
func (c *canonicalWindow) Sample(rng *rand.Rand, dst []datasets.Sample) error {
	if len(c.order) == 0 {
		return fmt.Errorf("train: no positions to sample (no chunks yet, or none readable)")
	}
	for i := range dst {
		dst[i] = c.w.At(int(c.order[rng.IntN(len(c.order))]))
	}
	return nil
}
