package setup

import (
	"fmt"
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

// TestTheTreeCapReachesEverySearchingCommand is issue 34's "the same limit
// in serve, uci, xboard and analyse": each of them searches with
// PlayerSearch (serve, uci and xboard) or AnalysisSearch over it (analyse,
// the web app's and the engines' analyses), and a match player with
// MatchSearch; selfplay.tree_memory_mb must reach all of them, so that a
// preset that rebuilt the search from mcts's defaults would fail here.
func TestTheTreeCapReachesEverySearchingCommand(t *testing.T) {
	for _, mb := range []int{1, 7, 4096} {
		c, err := DefaultConfig("fbgc")
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Set(fmt.Sprintf("selfplay.tree_memory_mb=%d", mb)); err != nil {
			t.Fatal(err)
		}
		want := mcts.Config{TreeMemoryMB: mb}.NodeBudget()
		for _, s := range []struct {
			name string
			cfg  mcts.Config
		}{
			{"PlayerSearch", c.PlayerSearch()},
			{"MatchSearch", c.MatchSearch(64)},
			{"AnalysisSearch", AnalysisSearch(c.PlayerSearch(), MaxSims)},
		} {
			if s.cfg.TreeMemoryMB != mb || s.cfg.NodeBudget() != want {
				t.Errorf("tree_memory_mb %d: %s has %d MiB, a budget of %d nodes; want %d MiB, %d nodes",
					mb, s.name, s.cfg.TreeMemoryMB, s.cfg.NodeBudget(), mb, want)
			}
		}
	}
}
