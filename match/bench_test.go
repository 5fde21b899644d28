package match

import (
	"testing"

	"bomberzero/agent"
	"bomberzero/env"
)

// midgame is an fbgc position after a few developing moves, a typical
// position for a baseline to search.
func midgame(b testing.TB) *env.Position {
	v := mustVariant(b, "fbgc")
	p, err := env.PlayMoves(v.NewPosition(), "e2-e4 e9-e7 c1-d3 h10-g8 g2-g4 d9-d7 h1-g3 c10-d8")
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func benchmarkAlphaBeta(b *testing.B, depth int) {
	pos := midgame(b)
	a, err := NewAlphaBeta(pos.Variant(), depth, agent.DefaultValues(), 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.Choose(pos); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(a.Nodes())/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(a.Nodes())/float64(b.N), "nodes/move")
}

func BenchmarkAlphaBetaDepth1(b *testing.B) { benchmarkAlphaBeta(b, 1) }
func BenchmarkAlphaBetaDepth2(b *testing.B) { benchmarkAlphaBeta(b, 2) }
func BenchmarkAlphaBetaDepth3(b *testing.B) { benchmarkAlphaBeta(b, 3) }

func BenchmarkGreedy(b *testing.B) {
	pos := midgame(b)
	g, err := NewGreedy(pos.Variant(), agent.DefaultValues(), 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := g.Choose(pos); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLegalMoves is the ceiling the players are measured against: one
// legal-move generation of the same position.
func BenchmarkLegalMoves(b *testing.B) {
	pos := midgame(b)
	buf := make([]env.Move, 0, env.MaxMoves)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = pos.LegalMoves(buf[:0])
	}
}

func TestAlphaBetaAndGreedyAllocateNothingPerMove(t *testing.T) {
	pos := midgame(t)
	a, _ := NewAlphaBeta(pos.Variant(), 2, agent.DefaultValues(), 1)
	g, _ := NewGreedy(pos.Variant(), agent.DefaultValues(), 1)
	for name, p := range map[string]Player{"alphabeta:2": a, "greedy": g, "random": NewRandom(1)} {
		if n := testing.AllocsPerRun(5, func() { p.Choose(pos) }); n != 0 {
			t.Errorf("%s: %.1f allocations per move, want 0", name, n)
		}
	}
}

// benchmarkRootScores measures scoring every root move of the midgame
// position at depth with margin (ExactAll: a full window per move), to set
// against BenchmarkAlphaBetaDepthN (one best move).
func benchmarkRootScores(b *testing.B, depth int, margin int32) {
	pos := midgame(b)
	a, err := NewAlphaBeta(pos.Variant(), depth, agent.DefaultValues(), 1)
	if err != nil {
		b.Fatal(err)
	}
	var moves []env.Move
	var scores []int32
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if moves, scores, err = a.RootScores(pos, margin, moves, scores); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(a.Nodes())/float64(b.N), "nodes/move")
}

func BenchmarkRootScoresDepth2Exact(b *testing.B)     { benchmarkRootScores(b, 2, ExactAll) }
func BenchmarkRootScoresDepth2Margin350(b *testing.B) { benchmarkRootScores(b, 2, 350) }
func BenchmarkRootScoresDepth3Exact(b *testing.B)     { benchmarkRootScores(b, 3, ExactAll) }
func BenchmarkRootScoresDepth3Margin350(b *testing.B) { benchmarkRootScores(b, 3, 350) }
