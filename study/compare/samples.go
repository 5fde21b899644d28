package compare

import "bomberzero/study/values"

// SampleGame is one game of a variant's data, for a reader to play
// through: its moves in Game Courier text from its first recorded
// position.
type SampleGame struct {
	Variant     string   `json:"variant"`
	ID          string   `json:"id"`
	Start       string   `json:"start"` // position text of the first recorded position
	Result      int      `json:"result"`
	Termination string   `json:"termination"`
	Moves       []string `json:"moves"`
}

// samplesPerVariant is the sample games the report shows of each variant.
const samplesPerVariant = 2

// sampleGames picks each variant's first decisive and first drawn game
// whose moves are all recorded (two games at most: the first two when the
// data have only one kind).
func sampleGames(names []string, sets []*values.Dataset) []SampleGame {
	var out []SampleGame
	for i, ds := range sets {
		var complete []SampleGame
		for gi := range ds.Games {
			if sg, ok := sampleOf(names[i], &ds.Games[gi]); ok {
				complete = append(complete, sg)
			}
		}
		var picked []SampleGame
		for _, decisive := range []bool{true, false} {
			for _, sg := range complete {
				if (sg.Result != 0) == decisive {
					picked = append(picked, sg)
					break
				}
			}
		}
		for _, sg := range complete {
			if len(picked) >= samplesPerVariant {
				break
			}
			if len(picked) == 0 || picked[0].ID != sg.ID {
				picked = append(picked, sg)
			}
		}
		out = append(out, picked...)
	}
	return out
}

// sampleOf returns g as a sample game, if every one of its moves is
// recorded.
func sampleOf(variant string, g *values.Game) (SampleGame, bool) {
	if len(g.Positions) == 0 {
		return SampleGame{}, false
	}
	sg := SampleGame{Variant: variant, ID: g.ID, Start: g.Positions[0].Text, Result: g.Result, Termination: g.Termination.String()}
	for _, p := range g.Positions {
		if p.Played == "" {
			return SampleGame{}, false
		}
		sg.Moves = append(sg.Moves, p.Played)
	}
	return sg, true
}
