//go:build nnbench

package mcts

import (
	"testing"
	"time"

	"bomberzero/eval"
	"bomberzero/nn"
)

// BenchmarkNetRatio measures, in one run, the network alone on full batches
// of 64 positions and the whole search (same network, same batch size, 64
// wide games of branching 32), and reports playouts/s over
// net_positions/s: 1 would mean the search costs nothing on top of the
// network. Build tag nnbench keeps the network out
// of the ordinary test build:
//
//	go test -tags nnbench -run XXX -bench NetRatio -benchtime 8x ./mcts
func BenchmarkNetRatio(b *testing.B) {
	cfg := nn.DefaultConfig(wideShape.Channels, wideShape.Height, wideShape.Width,
		wideShape.PolicySize/(wideShape.Height*wideShape.Width))
	net, err := nn.New(cfg, 1)
	if err != nil {
		b.Fatal(err)
	}
	ev, err := nn.NewEvaluator(net.Fold(), 64)
	if err != nil {
		b.Fatal(err)
	}
	if err := ev.Warm(); err != nil {
		b.Fatal(err)
	}
	scfg := testConfig(200)
	scfg.CacheEntries = 1 << 16
	s, err := NewSearcher(scfg, ev, 64)
	if err != nil {
		b.Fatal(err)
	}
	d := &wideDriver{s: s, start: make([]wide, 64)}
	for i := range d.start {
		d.start[i] = wide{hash: uint64(i) * 7919}
		if err := s.Reset(i, &d.start[i]); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 20; i++ {
		d.step(b)
	}
	// Interleave the two so that the load of a shared machine hits both
	// alike.
	var netTime, searchTime time.Duration
	batch := eval.NewBatch(wideShape, 64)
	copy(batch.Planes, s.batch.Planes)
	copy(batch.Legal, s.batch.Legal)
	d.playouts = 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if err := ev.Evaluate(batch); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		d.step(b)
		t2 := time.Now()
		netTime += t1.Sub(t0)
		searchTime += t2.Sub(t1)
	}
	netRate := float64(b.N*64) / netTime.Seconds()
	searchRate := float64(d.playouts) / searchTime.Seconds()
	b.ReportMetric(netRate, "net_positions/s")
	b.ReportMetric(searchRate, "playouts/s")
	b.ReportMetric(searchRate/netRate, "ratio")
}
