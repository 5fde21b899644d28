package engine

import (
	"fmt"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"bomberzero/env"
)

// Bound says what a stored score is: exact, or only a bound on the true one.
type Bound uint8

// The bounds: a search that failed low gives an upper bound, one that
// failed high a lower bound.
const (
	BoundNone Bound = iota
	BoundUpper
	BoundLower
	BoundExact
)

// bucketSize is the number of entries one key may land in: four 16-byte
// entries, one cache line.
const bucketSize = 4

// MaxHashMB bounds the table's size.
const MaxHashMB = 1 << 16

// DefaultHashMB is the table's size in megabytes where nothing sets it: an
// engine's Options, the engine protocols' Hash option, the web analysis.
const DefaultHashMB = 16

// entry is one stored search result. Its two words are read and written
// atomically, and key holds the position's key XORed with data, so a read
// that races with a write of another thread is detected as a miss
// (Hyatt's lockless hashing) and the table needs no lock.
type entry struct {
	key  atomic.Uint64
	data atomic.Uint64
}

// The fields packed into an entry's data word.
const (
	moveBits  = 24
	scoreBits = 16
	depthBits = 8
	genBits   = 6
	boundBits = 2

	scoreShift = moveBits
	depthShift = scoreShift + scoreBits
	genShift   = depthShift + depthBits
	boundShift = genShift + genBits

	genMask = 1<<genBits - 1
)

// TT is the transposition table: buckets of entries indexed by the
// position's Zobrist key, shared by every thread of a search. Replacement
// prefers to keep deep results of the current search: a new result goes to
// the entry of the same position if there is one, otherwise over the
// bucket's entry of least depth, counting an entry of an earlier search
// (an older generation) as eight plies shallower per search it is old.
type TT struct {
	buckets [][bucketSize]entry
	gen     uint8
}

// Probe is what the table holds about a position.
type Probe struct {
	Move  env.Move
	Score int32 // relative to the node, as stored (read it through fromTT)
	Depth int
	Bound Bound
}

// NewTT returns a table of mb megabytes: 1 to MaxHashMB, and at most half
// of the machine's memory where it is known (a larger table would end the
// process, not return an error).
func NewTT(mb int) (*TT, error) {
	if mb < 1 || mb > MaxHashMB {
		return nil, fmt.Errorf("hash %d MB: want 1 to %d", mb, MaxHashMB)
	}
	if total := totalMemoryMB(); total > 0 && mb > total/2 {
		return nil, fmt.Errorf("hash %d MB: more than half of this machine's %d MB of memory; want at most %d", mb, total, total/2)
	}
	return &TT{buckets: newBuckets(mb << 20 / bucketBytes)}, nil
}

// bucketBytes is the size of a bucket: one cache line.
const bucketBytes = bucketSize * int(unsafe.Sizeof(entry{}))

// hugePage is the size of a transparent huge page on amd64 and arm64.
const hugePage = 2 << 20

// newBuckets returns n zeroed buckets; a table of at least a huge page
// starts on a huge-page boundary and is advised to be backed by huge pages.
func newBuckets(n int) [][bucketSize]entry {
	if n*bucketBytes < hugePage {
		return make([][bucketSize]entry, n)
	}
	raw := make([][bucketSize]entry, n+hugePage/bucketBytes)
	skip := (hugePage - int(uintptr(unsafe.Pointer(&raw[0]))%hugePage)) % hugePage / bucketBytes
	b := raw[skip : skip+n : skip+n]
	adviseHugePages(unsafe.Pointer(&b[0]), n*bucketBytes)
	return b
}

// NewSearch starts a new generation: entries stored before it age.
func (t *TT) NewSearch() { t.gen = (t.gen + 1) & genMask }

// Clear empties the table. No search may be running: the table is
// zeroed as plain memory (the runtime's memclr, several times faster than
// an atomic store per word), which only a table no thread reads allows.
func (t *TT) Clear() {
	clear(t.buckets)
	t.gen = 0
}

// bucket returns the bucket of key: the high bits of key times the bucket
// count, so every bucket is reached whatever the count.
func (t *TT) bucket(key uint64) *[bucketSize]entry {
	hi, _ := bits.Mul64(key, uint64(len(t.buckets)))
	return &t.buckets[hi]
}

// Prefetch starts bringing key's bucket into the cache, so that a probe
// made a little later (the child node's, after the move that made key)
// does not wait on main memory: Stockfish's prefetch after a move.
func (t *TT) Prefetch(key uint64) { prefetch(t.bucket(key)) }

func pack(m env.Move, score int32, depth int, b Bound, gen uint8) uint64 {
	return uint64(m)&(1<<moveBits-1) |
		uint64(uint16(int16(score)))<<scoreShift |
		uint64(uint8(depth+1))<<depthShift |
		uint64(gen&genMask)<<genShift |
		uint64(b)<<boundShift
}

func unpack(d uint64) Probe {
	return Probe{
		Move:  env.Move(d & (1<<moveBits - 1)),
		Score: int32(int16(d >> scoreShift)),
		Depth: int(uint8(d>>depthShift)) - 1,
		Bound: Bound(d >> boundShift & 3),
	}
}

// Probe returns what the table holds about the position of key, and
// whether it holds anything.
func (t *TT) Probe(key uint64) (Probe, bool) {
	b := t.bucket(key)
	for i := range b {
		d := b[i].data.Load()
		if b[i].key.Load()^d == key && d != 0 {
			return unpack(d), true
		}
	}
	return Probe{}, false
}

// Store records a search result of the position of key: its best move
// (NoMove keeps the stored one), its score relative to the node (toTT),
// the depth searched (0 for quiescence) and the bound.
func (t *TT) Store(key uint64, m env.Move, score int32, depth int, bound Bound) {
	b := t.bucket(key)
	gen := t.gen
	victim := -1
	worst := 1 << 30
	for i := range b {
		d := b[i].data.Load()
		if d == 0 || b[i].key.Load()^d == key {
			if d != 0 {
				old := unpack(d)
				if m == env.NoMove {
					m = old.Move
				}
				// Keep a deeper result of the same position unless the
				// new one is exact or the old one is from an earlier search.
				if bound != BoundExact && old.Depth > depth+2 && uint8(d>>genShift&genMask) == gen {
					return
				}
			}
			victim = i
			break
		}
		age := int((gen - uint8(d>>genShift)) & genMask)
		if w := unpack(d).Depth - 8*age; w < worst {
			worst, victim = w, i
		}
	}
	d := pack(m, score, depth, bound, gen)
	b[victim].data.Store(d)
	b[victim].key.Store(key ^ d)
}

// HashFull returns the permille of entries the current search has
// written, sampled over the first thousand buckets.
func (t *TT) HashFull() int {
	n := min(1000, len(t.buckets))
	used := 0
	for i := 0; i < n; i++ {
		for j := range t.buckets[i] {
			d := t.buckets[i][j].data.Load()
			if d != 0 && uint8(d>>genShift&genMask) == t.gen {
				used++
			}
		}
	}
	return used * 1000 / (n * bucketSize)
}
