package env

import (
	"math/rand/v2"
	"testing"
)

func benchPerft(b *testing.B, name string, depth int) {
	p := mustLoad(b, name).NewPosition()
	var nodes uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nodes += p.Perft(depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkPerftFBGC4(b *testing.B)           { benchPerft(b, "fbgc", 4) }
func BenchmarkPerftChess5(b *testing.B)          { benchPerft(b, "chess", 5) }
func BenchmarkPerftClaustrophobia4(b *testing.B) { benchPerft(b, "claustrophobia", 4) }
func BenchmarkPerftBirdsNinjas4(b *testing.B)    { benchPerft(b, "birds-ninjas", 4) }

func BenchmarkLegalMovesFBGCStart(b *testing.B) {
	p := mustLoad(b, "fbgc").NewPosition()
	buf := make([]Move, 0, MaxMoves)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = p.LegalMoves(buf[:0])
	}
}

// TestMoveGenerationDoesNotAllocate checks that LegalMoves into a caller's
// buffer, DoMove, UndoMove and Status allocate nothing once the history has room.
func TestMoveGenerationDoesNotAllocate(t *testing.T) {
	for _, name := range []string{"fbgc", "birds-ninjas+scepter+insane-knight", "claustrophobia"} {
		p := mustLoad(t, name).NewPosition().Clone()
		buf := make([]Move, 0, MaxMoves)
		allocs := testing.AllocsPerRun(200, func() {
			moves := p.LegalMoves(buf[:0])
			for _, m := range moves {
				u := p.DoMove(m)
				p.LegalMoves(buf[len(moves):len(moves)])
				p.UndoMove(u)
			}
			p.Status()
		})
		if allocs != 0 {
			t.Errorf("%s: %.1f allocations per run", name, allocs)
		}
	}
}

// BenchmarkMobility counts both sides' mobility, the classical
// evaluation's costliest term, on positions of seeded random games.
func BenchmarkMobility(b *testing.B) {
	for _, name := range []string{"fbgc", "chess"} {
		v := mustLoad(b, name)
		var sample []*Position
		rng := rand.New(rand.NewPCG(5, 1))
		for g := 0; g < 20; g++ {
			randomGame(v, rng, 60, func(p *Position, _ []Move) {
				if len(sample) < 200 {
					sample = append(sample, p.Clone())
				}
			})
		}
		b.Run(name, func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				p := sample[i%len(sample)]
				n += p.Mobility(White) - p.Mobility(Black)
			}
			if n == 1<<62 {
				b.Log(n) // keeps the calls
			}
		})
	}
}
