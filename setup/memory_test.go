package setup

import (
	"testing"

	"bomberzero/eval"
)

// TestMemoryTotalFollowsGOGC: the live data of self-play or evaluation
// and what is always held are multiplied by the heap's growth between
// collections, 1+GOGC/100 (2 unset); the runtime is not, nor the held
// data beside a training step's peak; bomberzero selfplay's check uses the same
// model.
func TestMemoryTotalFollowsGOGC(t *testing.T) {
	c, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	c.SelfPlay.Workers = 2
	shape := eval.Shape{Channels: 40, Height: 10, Width: 10, PolicySize: 4000}
	for _, tc := range []struct {
		gogc string
		gc   float64
	}{{"", 2}, {"off", 2}, {"50", 1.5}, {"300", 4}} {
		t.Setenv("GOGC", tc.gogc)
		m := c.MemoryBytes(shape)
		if m.GC != tc.gc {
			t.Errorf("GOGC=%q: headroom %v, want %v", tc.gogc, m.GC, tc.gc)
		}
		held := m.Program + m.Weights + m.Window
		if want := m.Runtime + max(held+m.Training, tc.gc*(held+max(m.SelfPlay, m.Eval))); m.Total() != want {
			t.Errorf("GOGC=%q: total %v, want %v", tc.gogc, m.Total(), want)
		}
		if sp, want := SelfPlayPeak(&c.SelfPlay.Settings), m.Runtime+tc.gc*(m.Program+c.SelfPlay.MemoryBytes()); sp != want {
			t.Errorf("GOGC=%q: selfplay's peak %v, want %v", tc.gogc, sp, want)
		}
	}
	if m := (Memory{Runtime: 1, Weights: 2}); m.Total() != 3 {
		t.Errorf("a Memory without GC headroom totals %v, want its parts' sum 3", m.Total())
	}
}
