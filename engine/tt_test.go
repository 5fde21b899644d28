package engine

import (
	"strings"
	"testing"
	"unsafe"

	"bomberzero/env"
)

func TestMateScoresRoundTripThroughTheTableAtAnyPly(t *testing.T) {
	tt, err := NewTT(1)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		score int32
		ply   int
	}{
		{"mate in 3 found at ply 5", mateIn(5 + 5), 5},
		{"mated at ply 9 seen from ply 2", matedIn(9), 2},
		{"mate at the node itself", mateIn(7), 7},
		{"plain score", 137, 11},
		{"negative plain score", -MateBound + 1, 40},
	}
	for i, c := range cases {
		key := uint64(0x9e3779b97f4a7c15) * uint64(i+1)
		m := env.Move(0x123456 + i)
		tt.Store(key, m, toTT(c.score, c.ply), 6, BoundExact)
		got, ok := tt.Probe(key)
		if !ok {
			t.Fatalf("%s: stored entry not found", c.name)
		}
		if s := fromTT(got.Score, c.ply); s != c.score || got.Move != m || got.Depth != 6 || got.Bound != BoundExact {
			t.Errorf("%s: read back score %d move %#x depth %d bound %d, want %d %#x 6 exact", c.name, s, got.Move, got.Depth, got.Bound, c.score, m)
		}
		// The same mate read at another ply is as far from the node.
		if IsMate(c.score) {
			if s := fromTT(got.Score, c.ply+4); s-c.score != map[bool]int32{true: -4, false: 4}[c.score > 0] {
				t.Errorf("%s: read 4 plies deeper as %d, want %d moved 4 plies toward the root's view", c.name, s, c.score)
			}
		}
	}
}

func TestTableKeepsDeepEntriesAndAgesOldSearches(t *testing.T) {
	tt, _ := NewTT(1)
	// Five keys that share a bucket: the bucket is chosen by the high bits.
	base := uint64(0x1234) << 48
	keys := []uint64{base | 1, base | 2, base | 3, base | 4, base | 5}
	for i, k := range keys[:4] {
		tt.Store(k, env.Move(i+1), 10, 10-i, BoundLower) // depths 10, 9, 8, 7
	}
	tt.Store(keys[4], env.Move(9), 10, 1, BoundLower)
	if _, ok := tt.Probe(keys[3]); ok {
		t.Errorf("the shallowest entry (depth 7) was kept; the new one should replace it")
	}
	if _, ok := tt.Probe(keys[0]); !ok {
		t.Errorf("the deepest entry was replaced")
	}
	// A shallower result of the same position does not overwrite a deep one
	// of this search, unless exact.
	tt.Store(keys[0], env.Move(7), 20, 3, BoundUpper)
	if got, _ := tt.Probe(keys[0]); got.Depth != 10 {
		t.Errorf("depth-3 bound replaced the depth-10 entry: depth %d", got.Depth)
	}
	// After enough new searches the old deep entries give way.
	for range 3 {
		tt.NewSearch()
	}
	tt.Store(base|6, env.Move(6), 0, 1, BoundLower)
	if _, ok := tt.Probe(base | 6); !ok {
		t.Errorf("a new search's entry could not replace entries three searches old")
	}
	if hf := tt.HashFull(); hf < 0 || hf > 1000 {
		t.Errorf("hashfull %d outside 0-1000", hf)
	}
}

func TestTableSizeOutOfRangeIsRefused(t *testing.T) {
	for _, mb := range []int{0, -1, MaxHashMB + 1} {
		if _, err := NewTT(mb); err == nil {
			t.Errorf("hash %d MB accepted", mb)
		}
	}
}

func TestTableLargerThanHalfTheMemoryIsRefused(t *testing.T) {
	total := totalMemoryMB()
	if total == 0 {
		t.Skip("the machine's memory is unknown here")
	}
	if total/2+1 > MaxHashMB {
		t.Skipf("%d MB of memory: half of it is above MaxHashMB", total)
	}
	_, err := NewTT(total/2 + 1)
	if err == nil || !strings.Contains(err.Error(), "memory") {
		t.Errorf("hash %d MB on a %d MB machine: error %v, want one about memory", total/2+1, total, err)
	}
}

func TestClearEmptiesEveryEntryAndTheGeneration(t *testing.T) {
	tt, err := NewTT(1)
	if err != nil {
		t.Fatal(err)
	}
	tt.NewSearch()
	keys := make([]uint64, 2000)
	for i := range keys {
		keys[i] = uint64(0x9e3779b97f4a7c15) * uint64(i+1)
		tt.Store(keys[i], env.Move(i+1), int32(i), 3, BoundLower)
	}
	if tt.HashFull() == 0 {
		t.Fatal("HashFull is 0 after 2000 stores")
	}
	tt.Clear()
	for _, k := range keys {
		if p, ok := tt.Probe(k); ok {
			t.Fatalf("key %#x still found after Clear: %+v", k, p)
		}
	}
	if tt.gen != 0 {
		t.Errorf("generation %d after Clear, want 0", tt.gen)
	}
	for i := range tt.buckets {
		for j := range tt.buckets[i] {
			if tt.buckets[i][j].key.Load() != 0 || tt.buckets[i][j].data.Load() != 0 {
				t.Fatalf("bucket %d entry %d not zero after Clear", i, j)
			}
		}
	}
}

func TestTableOfAHugePageOrMoreStartsOnAHugePageBoundary(t *testing.T) {
	for _, mb := range []int{1, 2, 3, 16} {
		tt, err := NewTT(mb)
		if err != nil {
			t.Fatal(err)
		}
		if want := mb << 20 / bucketBytes; len(tt.buckets) != want || cap(tt.buckets) != want {
			t.Errorf("%d MB: %d buckets (capacity %d), want %d", mb, len(tt.buckets), cap(tt.buckets), want)
		}
		addr := uintptr(unsafe.Pointer(&tt.buckets[0]))
		if mb<<20 >= hugePage && addr%hugePage != 0 {
			t.Errorf("%d MB: table at %#x, not on a %d-byte boundary", mb, addr, hugePage)
		}
		// The whole table is usable: the largest keys fall in the last bucket.
		key := ^uint64(0) - 12345
		if tt.bucket(key) != &tt.buckets[len(tt.buckets)-1] {
			t.Fatalf("%d MB: key %#x is not in the last bucket", mb, key)
		}
		tt.Prefetch(key)
		tt.Store(key, env.Move(7), 5, 2, BoundExact)
		if p, ok := tt.Probe(key); !ok || p.Move != env.Move(7) {
			t.Errorf("%d MB: the last bucket's entry did not round-trip: %+v %v", mb, p, ok)
		}
	}
}
