package engine

import (
	"context"
	"testing"

	"bomberzero/env"
)

// BenchmarkSearchFBGC searches the fbgc start and a middlegame position to
// a node limit; b.N searches, nodes/s reported.
func BenchmarkSearchFBGC(b *testing.B) {
	e, v := newTestEngine(b, "fbgc", 1)
	start := v.NewPosition()
	mid, err := env.PlayMoves(v.NewPosition(), "e2e4 e9e7 d2d4 d9d7 d1g4 d10g7 c1d3 c10d8")
	if err != nil {
		b.Fatal(err)
	}
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range []*env.Position{start, mid} {
			e.Clear()
			r, err := e.Search(context.Background(), p, Limits{Nodes: 50000}, nil)
			if err != nil {
				b.Fatal(err)
			}
			nodes += r.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
