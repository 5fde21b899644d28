package datasets

import (
	"math"
	"slices"
)

// ShortValues returns KataGo's short-term value target of every row of
// rows, one chunk's positions, over a horizon of about horizon plies: for a
// position at ply t of its game, the search values of the game's recorded
// positions from t on, each turned to t's side to move (negated at an odd
// distance), weighted by how much of the exponential weight
// (1 - 1/horizon)^d, d plies on, falls before the next recorded position,
// and the game's result (row.ResultSTM, t's view) weighted by what falls at
// and past the game's end. The weights sum to 1, so the target is a value
// in [-1, 1] between the position's own search value (horizon near 1) and
// the game's result (horizon large). Rows are grouped by game ID and taken
// in ply order, so their order in the chunk does not matter.
func ShortValues(rows []trainRow, horizon float64) []float32 {
	out := make([]float32, len(rows))
	lambda := 1 - 1/max(horizon, 1)
	games := map[string][]int{}
	var ids []string
	for i := range rows {
		id := rows[i].GameID
		if _, ok := games[id]; !ok {
			ids = append(ids, id)
		}
		games[id] = append(games[id], i)
	}
	for _, id := range ids {
		idx := games[id]
		slices.SortStableFunc(idx, func(a, b int) int { return int(rows[a].Ply) - int(rows[b].Ply) })
		// Backwards: a position's target is its own value for the plies up
		// to the next recorded position, then that position's target seen
		// from this side (negated at an odd distance); the last one's is
		// its value up to the game's end, then the result.
		var next float64 // the target of the position after, its side's view
		for k := len(idx) - 1; k >= 0; k-- {
			r := &rows[idx[k]]
			gap, after := float64(r.GameLength-r.Ply), float64(r.ResultSTM)
			if k+1 < len(idx) {
				q := &rows[idx[k+1]]
				gap, after = float64(q.Ply-r.Ply), next
				if (q.Ply-r.Ply)%2 != 0 {
					after = -after
				}
			}
			w := math.Pow(lambda, max(gap, 0))
			next = float64(r.Value)*(1-w) + after*w
			out[idx[k]] = float32(next)
		}
	}
	return out
}
