package setup

import (
	"testing"

	"bomberzero/agent"
	"bomberzero/mcts"
)

// TestSearchPresetsDeriveFromTheConfigsPlayerSearch checks the presets a
// config makes: a match player is the match preset over PlayerSearch (so
// eval.leaf_material_mix reaches it), an analysis is the same without the
// opening temperature, and both take the playouts they are given.
func TestSearchPresetsDeriveFromTheConfigsPlayerSearch(t *testing.T) {
	c, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	c.Eval.LeafMaterialMix = 0.25
	for _, sims := range []int{1, 64, DefaultSims, MaxSims} {
		m := c.MatchSearch(sims)
		if want := agent.MatchSearch(c.PlayerSearch(), sims); m != want {
			t.Errorf("MatchSearch(%d) = %+v, want the match preset over PlayerSearch %+v", sims, m, want)
		}
		if m.Sims != sims || m.LeafMaterialMix != 0.25 || m.TempPlies != agent.MatchTempPlies || m.Reuse || m.NoiseFraction != 0 {
			t.Errorf("MatchSearch(%d): sims %d, mix %g, temp plies %d, reuse %v, noise %g", sims, m.Sims, m.LeafMaterialMix, m.TempPlies, m.Reuse, m.NoiseFraction)
		}
		a := AnalysisSearch(c.PlayerSearch(), sims)
		want := m
		want.TempPlies = 0
		if a != want {
			t.Errorf("AnalysisSearch(%d) = %+v, want the match player's without opening temperature %+v", sims, a, want)
		}
		if err := a.Validate(); err != nil {
			t.Errorf("AnalysisSearch(%d) is invalid: %v", sims, err)
		}
	}
}

// TestEngineDefaultPlayoutsAreASearchTheSearchTakes checks that the
// engines' default and the exposed cap are within the search's own range.
func TestEngineDefaultPlayoutsAreASearchTheSearchTakes(t *testing.T) {
	cases := []struct {
		name string
		sims int
		ok   bool
	}{
		{"DefaultSims", DefaultSims, true},
		{"MaxSims", MaxSims, true},
		{"MaxSims+1", MaxSims + 1, false},
	}
	for _, tc := range cases {
		c := AnalysisSearch(mcts.DefaultConfig(), tc.sims)
		if err := c.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s (%d playouts): Validate = %v, want ok %v", tc.name, tc.sims, err, tc.ok)
		}
	}
}
