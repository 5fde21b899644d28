package values_test

import (
	"fmt"

	"bomberzero/study/values"
)

// Piece values from games of a known model: the fit recovers the planted
// knight (3), rook (5) and queen (9) in pawns within its intervals.
func ExamplePieceValues() {
	model := values.ChessModel(false)
	ds := model.Games(3000, 1)
	rep, err := values.PieceValues(ds, values.Config{
		Sample:    values.SampleConfig{SkipPlies: 4, QuietPlies: 2, MaxPerGame: 4},
		Methods:   []values.Method{values.Tanh},
		Bootstrap: 100,
		Seed:      7,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, pv := range rep.Fits[0].Pieces {
		if pv.Value != nil && pv.Piece != "P" {
			fmt.Printf("%s %.0f in interval: %v\n", pv.Piece, pv.Value.Point, pv.Value.Contains(model.Truth()[pv.Piece]))
		}
	}
	// Output:
	// N 3 in interval: true
	// B 3 in interval: true
	// R 5 in interval: true
	// Q 9 in interval: true
}

// Reading an imbalance match: side A scored 60% (with draws) over 500
// games; with a pawn worth 0.2 tanh units that is about one pawn,
// atanh(2·0.6 - 1)/0.2.
func ExampleReadImbalance() {
	im, err := values.ReadImbalance(200, 200, 100, 0.2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("score %.2f [%.2f, %.2f], difference %.1f pawns [%.1f, %.1f]\n",
		im.Score.Point, im.Score.Lo, im.Score.Hi, im.Units.Point, im.Units.Lo, im.Units.Hi)
	// Output:
	// score 0.60 [0.57, 0.63], difference 1.0 pawns [0.7, 1.4]
}
