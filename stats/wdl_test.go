package stats

import "testing"

func TestCountSortsResultsBySign(t *testing.T) {
	cases := []struct {
		name    string
		results []int
		want    WDL
	}{
		{"none", nil, WDL{}},
		{"a win, a draw, a loss", []int{1, 0, -1}, WDL{1, 1, 1}},
		{"White's view of three games", []int{1, 1, -1}, WDL{Wins: 2, Losses: 1}},
		{"only the sign counts", []int{3, -2, 0, 0}, WDL{1, 2, 1}},
	}
	for _, c := range cases {
		var w WDL
		for _, r := range c.results {
			w.Count(r)
		}
		if w != c.want || w.Games() != len(c.results) {
			t.Errorf("%s: counted %+v (%d games), want %+v", c.name, w, w.Games(), c.want)
		}
	}
}
