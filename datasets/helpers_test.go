package datasets

import (
	"bomberzero/env"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// synthGame makes a valid random game with the given id: plies 0..n-1 all
// recorded, a few cheap searches, varied endings.
func synthGame(rng *rand.Rand, id string) *GameRecord {
	n := 1 + rng.IntN(30)
	g := &GameRecord{
		ID:         id,
		Variant:    []string{"fbgc", "chess", "fbgc+superpower"}[rng.IntN(3)],
		Model:      fmt.Sprintf("gen-%03d", rng.IntN(5)),
		Generation: rng.IntN(5),
		Length:     n,
	}
	switch rng.IntN(6) {
	case 0:
		g.Termination, g.Result = env.Checkmate, 1-2*rng.IntN(2)
	case 1:
		g.Termination, g.Result = env.Resignation, 1-2*rng.IntN(2)
	case 2:
		g.Termination = env.LengthCap
	case 3:
		g.Termination = env.Repetition
	case 4:
		g.Termination, g.Result = env.Scepter, 1-2*rng.IntN(2)
	default:
		g.Termination, g.Result = env.Adjudication, rng.IntN(3)-1
	}
	if g.Termination != env.Resignation && rng.IntN(3) == 0 {
		g.ResignDisabled = true
		switch rng.IntN(3) {
		case 0:
			g.WouldResign = White
		case 1:
			g.WouldResign = Black
		}
	}
	for ply := 0; ply < n; ply++ {
		p := PositionRecord{
			Ply:         ply,
			Position:    fmt.Sprintf("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR %c - - 0 %d", "wb"[ply%2], ply/2+1),
			WhiteToMove: ply%2 == 0,
			Value:       float32(rng.Float64()*2 - 1),
			FullSearch:  rng.IntN(4) != 0,
			Played:      fmt.Sprintf("m%d", ply),
			Repetitions: rng.IntN(3) / 2,
			Pieces: []PieceCount{
				{Piece: "P", White: int32(rng.IntN(9)), Black: int32(rng.IntN(9))},
				{Piece: "B", White: int32(rng.IntN(3)), Black: int32(rng.IntN(3))},
			},
		}
		k := 1 + rng.IntN(8)
		if !p.FullSearch && rng.IntN(3) == 0 { // a cheap search stored without its distribution or piece counts
			k, p.Pieces = 0, nil
		}
		left := float32(1)
		for j := 0; j < k; j++ {
			v := left
			if j < k-1 {
				v = left * float32(rng.Float64())
			}
			left -= v
			p.PolicyIndex = append(p.PolicyIndex, int32(rng.IntN(5000)))
			p.MoveText = append(p.MoveText, fmt.Sprintf("e%d-e%d", j, j+1))
			p.Visits = append(p.Visits, v)
		}
		g.Positions = append(g.Positions, p)
	}
	return g
}

// synthGames makes n games with ids prefix-0, prefix-1, ...
func synthGames(rng *rand.Rand, prefix string, n int) []*GameRecord {
	games := make([]*GameRecord, n)
	for i := range games {
		games[i] = synthGame(rng, fmt.Sprintf("%s-%d", prefix, i))
	}
	return games
}

// writeChunk writes games to dir as one chunk and returns its path.
func writeChunk(t testing.TB, dir, writer string, games []*GameRecord) string {
	t.Helper()
	w, err := NewChunkWriter(dir, ChunkMeta{Writer: writer})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if err := w.AddGame(g); err != nil {
			t.Fatal(err)
		}
	}
	path, err := w.Flush()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// labelPositions makes every position text of games unique: "<id>/<ply>".
func labelPositions(games []*GameRecord) {
	for _, g := range games {
		for i := range g.Positions {
			g.Positions[i].Position = fmt.Sprintf("%s/%d", g.ID, g.Positions[i].Ply)
		}
	}
}

// writeChunkAt is writeChunk with the chunk's creation time fixed, so tests
// control chunk order.
func writeChunkAt(t testing.TB, dir string, at time.Time, games []*GameRecord) string {
	t.Helper()
	w, err := NewChunkWriter(dir, ChunkMeta{Writer: "t"})
	if err != nil {
		t.Fatal(err)
	}
	w.now = func() time.Time { return at }
	for _, g := range games {
		if err := w.AddGame(g); err != nil {
			t.Fatal(err)
		}
	}
	path, err := w.Flush()
	if err != nil {
		t.Fatal(err)
	}
	return path
}
