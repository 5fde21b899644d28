package datasets

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// A Window's positions and RowSample of the chunk's full-search rows are
// the same samples, in the same order.
func TestRowSampleIsWhatTheWindowHandsTheTrainer(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 7))
	path := writeChunkAt(t, dir, time.Unix(1e9, 0), synthGames(rng, "g", 40))
	w, err := NewWindow(dir, WindowConfig{Size: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	c, err := ReadChunk(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []Sample
	for i := range c.Rows {
		if c.Rows[i].FullSearch {
			want = append(want, RowSample(&c.Rows[i]))
		}
	}
	if len(want) != w.Len() || len(want) == 0 {
		t.Fatalf("%d full-search rows, window holds %d", len(want), w.Len())
	}
	for i := range want {
		got := w.At(i)
		if len(got.PolicyIndex) == 0 {
			got.PolicyIndex, got.Visits = nil, nil
		}
		if !reflect.DeepEqual(got, want[i]) {
			t.Fatalf("position %d: window %+v, RowSample %+v", i, got, want[i])
		}
	}
}
