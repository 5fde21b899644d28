package compare

import (
	"math"
	"testing"

	"bomberzero/study/values"
)

// games returns n games: white White wins, draws draws, the rest Black
// wins, each length plies long.
func games(n, white, draws, length int) *values.Dataset {
	ds := &values.Dataset{}
	for i := range n {
		r := -1
		switch {
		case i < white:
			r = 1
		case i < white+draws:
			r = 0
		}
		ds.Games = append(ds.Games, values.Game{Result: r, Length: length})
	}
	return ds
}

// A grid with a planted rules effect and a planted network effect on
// White's score gives each back, averaged over the other factor, with
// intervals from the cells' own variances.
func TestDecompositionSeparatesRulesFromNetworks(t *testing.T) {
	// White's score: base 0.5, +0.2 on rules B, +0.1 for model 2 (100 games
	// a cell); lengths 100 and 120 on rules A and B, the same for both models.
	effects := []RuleEffect{
		{TrainedOn: "a", games: []*values.Dataset{games(100, 30, 40, 100), games(100, 50, 40, 120)}}, // 0.5, 0.7
		{TrainedOn: "b", games: []*values.Dataset{games(100, 40, 40, 100), games(100, 60, 40, 120)}}, // 0.6, 0.8
	}
	ds := decompose([]string{"a", "b"}, effects)
	if len(ds) != 3 || ds[0].Figure != "White's score" || ds[1].Figure != "draw rate" || ds[2].Figure != "mean length (plies)" {
		t.Fatalf("figures %+v", ds)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %.6f, want %.6f", what, got, want)
		}
	}
	score := ds[0]
	near("model b on rules b", score.Cells[1][1].Point, 0.8)
	near("rules effect", score.RuleEffects[0].Diff.Point, 0.2)
	near("network effect", score.NetworkEffects[0].Diff.Point, 0.1)
	// The cell (a, a): 30 wins, 40 draws, 30 losses: per-game variance
	// (30·0.25 + 30·0.25)/100 = 0.15, times 100/99 for the sample
	// variance, over 100 games.
	v := 0.15 * 100 / 99 / 100
	near("cell interval", score.Cells[0][0].Hi-score.Cells[0][0].Point, 1.96*math.Sqrt(v))
	if score.RuleEffects[0].WithinNoise || score.RuleEffects[0].A != "a" || score.RuleEffects[0].B != "b" {
		t.Errorf("rules effect %+v: want a real +0.2, b − a", score.RuleEffects[0])
	}
	if score.NetworkEffects[0].A != "a model" || score.NetworkEffects[0].B != "b model" {
		t.Errorf("network effect %+v", score.NetworkEffects[0])
	}
	// Draw rate 0.4 everywhere: no effect of either, both within noise.
	near("draw rules effect", ds[1].RuleEffects[0].Diff.Point, 0)
	if !ds[1].RuleEffects[0].WithinNoise || !ds[1].NetworkEffects[0].WithinNoise {
		t.Errorf("draw rate effects %+v %+v: want within noise", ds[1].RuleEffects[0], ds[1].NetworkEffects[0])
	}
	// Lengths constant within a cell: a zero-width interval at +20.
	near("length rules effect", ds[2].RuleEffects[0].Diff.Point, 20)
	near("length network effect", ds[2].NetworkEffects[0].Diff.Point, 0)
	near("length interval", ds[2].RuleEffects[0].Diff.Hi, 20)
}

func TestDecompositionNeedsTheWholeGrid(t *testing.T) {
	one := []RuleEffect{{TrainedOn: "a", games: []*values.Dataset{games(4, 1, 1, 10), games(4, 1, 1, 10)}}}
	if ds := decompose([]string{"a", "b"}, one); ds != nil {
		t.Errorf("one model of two: %+v, want no decomposition", ds)
	}
}

// Where the cells' games pair (one game of each pair index in every cell,
// as compare plays them), an averaged effect is taken pair by pair: rules
// B lengthen every game by exactly 20 plies whatever its length, so the
// rules' effect is +20 with no variance, while the cells' own spread of
// lengths would give a wide interval.
func TestDecompositionTakesPairedCellsPairByPair(t *testing.T) {
	cellGames := func(shift int, paired bool) *values.Dataset {
		ds := &values.Dataset{}
		for i := range 50 {
			g := values.Game{Result: []int{1, 0, -1}[i%3], Length: 40 + 7*i + shift}
			if paired {
				g.Index = 49 - i // any order: pairs go by Index
			}
			ds.Games = append(ds.Games, g)
		}
		return ds
	}
	grid := func(paired bool) []Decomposition {
		effects := []RuleEffect{
			{TrainedOn: "a", games: []*values.Dataset{cellGames(0, paired), cellGames(20, paired)}},
			{TrainedOn: "b", games: []*values.Dataset{cellGames(5, paired), cellGames(25, paired)}},
		}
		return decompose([]string{"a", "b"}, effects)
	}
	length := grid(true)[2]
	if e := length.RuleEffects[0].Diff; math.Abs(e.Point-20) > 1e-9 || math.Abs(e.Lo-20) > 1e-9 || math.Abs(e.Hi-20) > 1e-9 {
		t.Errorf("paired rules effect on length %+v, want exactly 20 [20, 20]", e)
	}
	if e := length.NetworkEffects[0].Diff; math.Abs(e.Point-5) > 1e-9 || e.Width() > 1e-9 {
		t.Errorf("paired network effect on length %+v, want exactly 5", e)
	}
	unpaired := grid(false)[2].RuleEffects[0].Diff
	if math.Abs(unpaired.Point-20) > 1e-9 || unpaired.Width() < 10 {
		t.Errorf("unpaired rules effect on length %+v, want 20 with the cells' spread in its interval", unpaired)
	}
}
