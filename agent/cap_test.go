package agent

import "testing"

func TestAdjudicateGivesTheGameToASideAtLeastTheMarginAhead(t *testing.T) {
	for _, c := range []struct {
		material, margin float64
		want             int
	}{
		{3, 3, 1},      // exactly the margin wins
		{2.99, 3, 0},   // just under it is the cap's draw
		{-3, 3, -1},    // the side to move trails by the margin: it loses
		{-2.5, 3, 0},   // trails by less: draw
		{0, 3, 0},      // level
		{11, 0, 0},     // margin 0: adjudication off, always the draw
		{-11, -1, 0},   // a negative margin is off too
		{0.5, 0.5, 1},  // fractional margins
		{100, 1000, 0}, // a margin nobody reaches
		{-1000, 1000, -1},
	} {
		if got := Adjudicate(c.material, c.margin); got != c.want {
			t.Errorf("Adjudicate(%v, %v) = %d, want %d", c.material, c.margin, got, c.want)
		}
	}
}
