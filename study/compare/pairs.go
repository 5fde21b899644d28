package compare

import "bomberzero/study/values"

// pairedGames returns the number of games a side of the paired design
// that srcs' games form, or 0 when they form none: compare plays every
// baseline's and model's games itself, game i of each variant from the
// same opening with the same seeds (selfPlaySource), while a run's
// self-play games pair with nothing.
func pairedGames(srcs []Source) int {
	if len(srcs) < 2 {
		return 0
	}
	for _, s := range srcs {
		if s.Kind != "baseline" && s.Kind != "model" || s.Games != srcs[0].Games || s.Seed != srcs[0].Seed {
			return 0
		}
	}
	return srcs[0].Games
}

// PairAgreement counts the pairs of a paired design whose two games, of
// variants A and B, are the same game move for move, and those that end
// with the same result.
type PairAgreement struct {
	A          string `json:"a"`
	B          string `json:"b"`
	Pairs      int    `json:"pairs"`
	SameGame   int    `json:"same_game"`
	SameResult int    `json:"same_result"`
}

// pairAgreement compares every later variant's games with the first's,
// pair by pair (Game.Index).
func pairAgreement(names []string, sets []*values.Dataset) []PairAgreement {
	first := map[int]*values.Game{}
	for i := range sets[0].Games {
		first[sets[0].Games[i].Index] = &sets[0].Games[i]
	}
	var out []PairAgreement
	for k := 1; k < len(sets); k++ {
		pa := PairAgreement{A: names[0], B: names[k]}
		for i := range sets[k].Games {
			b := &sets[k].Games[i]
			a, ok := first[b.Index]
			if !ok {
				continue
			}
			pa.Pairs++
			if a.Result == b.Result {
				pa.SameResult++
			}
			if sameMoves(a, b) {
				pa.SameGame++
			}
		}
		out = append(out, pa)
	}
	return out
}

// sameMoves reports whether two recorded games are the same moves from
// the same start.
func sameMoves(a, b *values.Game) bool {
	return len(a.Positions) == len(b.Positions) && len(a.Positions) > 0 && playedAlike(a, b, len(a.Positions))
}

// playedAlike reports whether games a and b, each with a recorded position
// and at least n, start from the same position and play the same recorded
// moves from their first n positions.
func playedAlike(a, b *values.Game, n int) bool {
	if len(a.Positions) < max(n, 1) || len(b.Positions) < max(n, 1) || a.Positions[0].Text != b.Positions[0].Text {
		return false
	}
	for i := range n {
		if a.Positions[i].Played == "" || a.Positions[i].Played != b.Positions[i].Played {
			return false
		}
	}
	return true
}
