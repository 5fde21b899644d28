package datasets_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"os"

	"bomberzero/datasets"
	"bomberzero/env"
)

// A self-play worker writes finished games; the trainer samples batches
// from the newest positions.
func Example() {
	dir, err := os.MkdirTemp("", "data")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	// Worker side: flush after every 2 games, so each finished game is on disk soon.
	w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "w0", GamesPerChunk: 2})
	if err != nil {
		log.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		g := datasets.GameRecord{
			ID: datasets.NewGameID(), Variant: "fbgc", Model: "none",
			Result: 1, Termination: env.Checkmate, Length: 2,
		}
		for ply := 0; ply < 2; ply++ {
			g.Positions = append(g.Positions, datasets.PositionRecord{
				Ply: ply, Position: fmt.Sprintf("game %d ply %d", i, ply), WhiteToMove: ply == 0,
				PolicyIndex: []int32{12, 40}, MoveText: []string{"e2-e4", "d2-d4"}, Visits: []float32{0.75, 0.25},
				Value: 0.2, FullSearch: true,
				Pieces: []datasets.PieceCount{{Piece: "P", White: 8, Black: 8}},
			})
		}
		if err := w.AddGame(&g); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil { // writes the third game
		log.Fatal(err)
	}

	// Trainer side: a window of the newest 4 positions (game 0 falls out).
	win, err := datasets.NewWindow(dir, datasets.WindowConfig{Size: 4})
	if err != nil {
		log.Fatal(err)
	}
	rep, err := win.Refresh()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("chunks:", rep.NewChunks, "arrived:", win.Arrived(), "in window:", win.Len())
	batch := make([]datasets.Sample, 5)
	if err := win.Sample(rand.New(rand.NewPCG(7, 7)), batch); err != nil {
		log.Fatal(err)
	}
	for _, s := range batch {
		fmt.Printf("%s: result %+.0f, policy %v %v\n", s.Position, s.Result, s.PolicyIndex, s.Visits)
	}
	// Output:
	// chunks: 2 arrived: 6 in window: 4
	// game 2 ply 0: result +1, policy [12 40] [0.75 0.25]
	// game 2 ply 0: result +1, policy [12 40] [0.75 0.25]
	// game 2 ply 1: result -1, policy [12 40] [0.75 0.25]
	// game 2 ply 1: result -1, policy [12 40] [0.75 0.25]
	// game 1 ply 1: result -1, policy [12 40] [0.75 0.25]
}
