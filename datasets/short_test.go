package datasets

import (
	"math"
	"math/rand/v2"
	"testing"
)

// shortValueByDefinition is the target written out ply by ply: the sum over
// the plies p from the position's to the game's end of (1-l) l^(p-t) times
// the search value of the last recorded position at or before p (turned to
// t's side), plus l^(end-t) times the result.
func shortValueByDefinition(rows []trainRow, i int, horizon float64) float64 {
	l := 1 - 1/horizon
	r := rows[i]
	var sum float64
	for p := r.Ply; p < r.GameLength; p++ {
		q := -1
		for j := range rows {
			if rows[j].GameID == r.GameID && rows[j].Ply <= p && rows[j].Ply >= r.Ply && (q < 0 || rows[j].Ply > rows[q].Ply) {
				q = j
			}
		}
		v := float64(rows[q].Value)
		if (rows[q].Ply-r.Ply)%2 != 0 {
			v = -v
		}
		sum += (1 - l) * math.Pow(l, float64(p-r.Ply)) * v
	}
	return sum + math.Pow(l, float64(r.GameLength-r.Ply))*float64(r.ResultSTM)
}

// game returns the rows of a game of length plies whose plies in recorded
// are recorded, with random search values and the result for White res.
func game(id string, length int32, recorded []int32, res int8, r *rand.Rand) []trainRow {
	var rows []trainRow
	for _, p := range recorded {
		stm := res
		if p%2 != 0 {
			stm = -res
		}
		rows = append(rows, trainRow{GameID: id, GameLength: length, Ply: p, ResultSTM: stm, Value: float32(2*r.Float64() - 1)})
	}
	return rows
}

func TestShortValuesFollowTheirDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	every := func(from, to int32) []int32 {
		var ps []int32
		for p := from; p < to; p++ {
			ps = append(ps, p)
		}
		return ps
	}
	for _, tc := range []struct {
		name    string
		rows    []trainRow
		horizon float64
	}{
		{"every ply recorded", game("a", 30, every(0, 30), 1, r), 6},
		{"from ply 8, a loss", game("a", 25, every(8, 25), -1, r), 6},
		{"gaps (cheap searches not recorded)", game("a", 40, []int32{8, 9, 12, 13, 20, 31, 39}, 0, r), 6},
		{"the last position well before the end (a resignation)", game("a", 90, []int32{10, 11, 12, 40}, 1, r), 4},
		{"two games interleaved and out of order", func() []trainRow {
			a, b := game("a", 20, every(0, 20), 1, r), game("b", 16, every(2, 16), -1, r)
			rows := append(append([]trainRow{}, b...), a...)
			r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
			return rows
		}(), 6},
		{"a long horizon", game("a", 30, every(0, 30), -1, r), 200},
	} {
		got := ShortValues(tc.rows, tc.horizon)
		for i := range tc.rows {
			if want := shortValueByDefinition(tc.rows, i, tc.horizon); math.Abs(float64(got[i])-want) > 1e-5 {
				t.Errorf("%s: row %d (ply %d of %s): %v, by the definition %v", tc.name, i, tc.rows[i].Ply, tc.rows[i].GameID, got[i], want)
			}
			if math.Abs(float64(got[i])) > 1+1e-6 {
				t.Errorf("%s: row %d: %v outside [-1, 1]", tc.name, i, got[i])
			}
		}
	}
	// A horizon of one ply is the position's own search value.
	rows := game("a", 12, every(0, 12), 1, r)
	for i, v := range ShortValues(rows, 1) {
		if v != rows[i].Value {
			t.Errorf("horizon 1: row %d: %v, want its value %v", i, v, rows[i].Value)
		}
	}
}
