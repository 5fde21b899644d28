package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"bomberzero/env"
)

// benchPositions returns n positions of variant v taken every sixth ply
// of seeded random games, as "bench engine" samples them.
func benchPositions(b *testing.B, v *env.Variant, n int) []*env.Position {
	b.Helper()
	var out []*env.Position
	var buf [env.MaxMoves]env.Move
	for g := uint64(0); len(out) < n && g < 100; g++ {
		rng := rand.New(rand.NewPCG(g, 1))
		p := v.NewPosition()
		for ply := 0; ply < 60 && len(out) < n; ply++ {
			moves := p.LegalMoves(buf[:0])
			if r, _ := p.StatusOf(len(moves)); r != env.Ongoing {
				break
			}
			if ply%6 == 0 {
				out = append(out, p.Clone())
			}
			p.DoMove(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

// BenchmarkEngine reports the engine's nodes/s with 1, 2 and 4 threads
// (each position searched to a node limit from a cleared table) and the
// full legal-move generations/s on the same positions, per variant.
func BenchmarkEngine(b *testing.B) {
	for _, name := range []string{"fbgc", "chess"} {
		v, err := env.LoadVariant(name)
		if err != nil {
			b.Fatal(err)
		}
		sample := benchPositions(b, v, 6)
		b.Run(name+"/movegen", func(b *testing.B) {
			var buf [env.MaxMoves]env.Move
			gens := 0
			for i := 0; i < b.N; i++ {
				for _, p := range sample {
					p.LegalMoves(buf[:0])
					gens++
				}
			}
			b.ReportMetric(float64(gens)/b.Elapsed().Seconds(), "movegens/s")
		})
		for _, threads := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("%s/threads=%d", name, threads), func(b *testing.B) {
				e, err := New(v, Options{HashMB: 16, Threads: threads, Table: testTable(v)})
				if err != nil {
					b.Fatal(err)
				}
				var nodes int64
				for i := 0; i < b.N; i++ {
					for _, p := range sample {
						e.Clear()
						r, err := e.Search(context.Background(), p, Limits{Nodes: 20000 * int64(threads)}, nil)
						if err != nil {
							b.Fatal(err)
						}
						nodes += r.Nodes
					}
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			})
		}
	}
}
