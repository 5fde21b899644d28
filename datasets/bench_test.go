package datasets

import (
	"bomberzero/env"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"
)

// realisticGames makes games shaped like fbgc self-play: 8x8 position texts
// of about 70 characters, 30 legal moves of which 15 got visits, every
// third search cheap, 80 plies a game, six piece types.
func realisticGames(rng *rand.Rand, prefix string, n int) []*GameRecord {
	games := make([]*GameRecord, n)
	for i := range games {
		g := &GameRecord{ID: fmt.Sprintf("%s-%d", prefix, i), Variant: "fbgc", Model: "gen-007", Generation: 7,
			Result: rng.IntN(3) - 1, Length: 80}
		g.Termination = env.Checkmate
		if g.Result == 0 {
			g.Termination = env.LengthCap
		}
		for ply := 0; ply < g.Length; ply++ {
			p := PositionRecord{
				Ply:         ply,
				Position:    fmt.Sprintf("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR %c KQkq e3 %d %d", "wb"[ply%2], ply%50, ply/2+1),
				WhiteToMove: ply%2 == 0,
				Value:       float32(rng.Float64()*2 - 1),
				FullSearch:  ply%3 != 0,
				Played:      "e2-e4",
			}
			for _, piece := range []string{"P", "N", "B", "R", "Q", "K"} {
				p.Pieces = append(p.Pieces, PieceCount{Piece: piece, White: int32(rng.IntN(8)), Black: int32(rng.IntN(8))})
			}
			for j := 0; j < 30; j++ {
				v := float32(0)
				if j < 15 {
					v = 1.0 / 15
				}
				p.PolicyIndex = append(p.PolicyIndex, int32(rng.IntN(4000)))
				p.MoveText = append(p.MoveText, fmt.Sprintf("%c%d-%c%d", 'a'+rune(j%8), 1+j%8, 'a'+rune(j%8), 2+j%7))
				p.Visits = append(p.Visits, v)
			}
			g.Positions = append(g.Positions, p)
		}
		games[i] = g
	}
	return games
}

const benchGames = 100 // 8,000 positions a chunk

// BenchmarkChunkWriterFlush measures AddGame plus an atomic Flush
// (encoding, zstd, fsync, rename) of one chunk of 8,000 positions.
func BenchmarkChunkWriterFlush(b *testing.B) {
	games := realisticGames(rand.New(rand.NewPCG(1, 1)), "g", benchGames)
	dir := b.TempDir()
	var size int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, _ := NewChunkWriter(dir, ChunkMeta{Writer: "bench"})
		for j, g := range games {
			g.ID = fmt.Sprintf("g-%d-%d", i, j)
			if err := w.AddGame(g); err != nil {
				b.Fatal(err)
			}
		}
		path, err := w.Flush()
		if err != nil {
			b.Fatal(err)
		}
		st, _ := os.Stat(path)
		size = st.Size()
	}
	b.ReportMetric(float64(benchGames*80*b.N)/b.Elapsed().Seconds(), "positions/s")
	b.ReportMetric(float64(size)/(benchGames*80), "disk_bytes/position")
}

// BenchmarkReadChunk measures ReadChunk with every check of one chunk of
// 8,000 positions.
func BenchmarkReadChunk(b *testing.B) {
	dir := b.TempDir()
	path := writeChunk(b, dir, "bench", realisticGames(rand.New(rand.NewPCG(1, 1)), "g", benchGames))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ReadChunk(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchGames*80*b.N)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkWindowSample measures drawing a batch of 256 from a window of
// 10 chunks (53,330 full-search positions) and reports the window's memory
// per position.
func BenchmarkWindowSample(b *testing.B) {
	dir := b.TempDir()
	rng := rand.New(rand.NewPCG(1, 1))
	for k := 0; k < 10; k++ {
		writeChunkAt(b, dir, t0.Add(time.Duration(k)*time.Second), realisticGames(rng, fmt.Sprintf("c%d", k), benchGames))
	}
	w, _ := NewWindow(dir, WindowConfig{Size: 1 << 30})
	if _, err := w.Refresh(); err != nil {
		b.Fatal(err)
	}
	batch := make([]Sample, 256)
	srng := rand.New(rand.NewPCG(2, 2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Sample(srng, batch)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(batch)), "ns/sample")
	b.ReportMetric(float64(w.Bytes())/float64(w.Len()), "bytes/position")
}

// BenchmarkWindowLoad measures reading one chunk of 8,000 positions into a
// window (the training columns only), against BenchmarkReadChunk's full,
// verified read.
func BenchmarkWindowLoad(b *testing.B) {
	dir := b.TempDir()
	writeChunkAt(b, dir, t0, realisticGames(rand.New(rand.NewPCG(1, 1)), "g", benchGames))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, _ := NewWindow(dir, WindowConfig{Size: 1 << 30, IncludeCheap: true})
		if _, err := w.Refresh(); err != nil || w.Len() != benchGames*80 {
			b.Fatal(err, w.Len())
		}
	}
	b.ReportMetric(float64(benchGames*80*b.N)/b.Elapsed().Seconds(), "positions/s")
}
