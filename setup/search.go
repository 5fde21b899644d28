package setup

import (
	"bomberzero/agent"
	"bomberzero/mcts"
)

// DefaultSims is the engines' playouts per move where the user names none:
// the UCI and XBoard engines' default, the web app's analysis and the
// analyse command's model spec.
const DefaultSims = 400

// MaxSims is the most playouts one search takes (mcts.MaxSims): the cap a
// front end's playout option may offer.
const MaxSims = mcts.MaxSims

// PlayerSearch returns the search settings a searching player of a match
// derives its own from (MatchSearch, AnalysisSearch): self-play's
// [selfplay] search with eval.leaf_material_mix and eval.policy_temp in
// place of self-play's.
func (c Config) PlayerSearch() mcts.Config {
	s := c.SelfPlay.Search
	s.LeafMaterialMix = c.Eval.LeafMaterialMix
	s.PolicyTemp = c.Eval.PolicyTemp
	return s
}

// MatchSearch returns the search settings of a searching player of a match
// with sims playouts per move: the match preset (agent.MatchSearch, which
// match's own loaders apply to a spec's playouts) over PlayerSearch.
func (c Config) MatchSearch(sims int) mcts.Config {
	return agent.MatchSearch(c.PlayerSearch(), sims)
}

// AnalysisSearch returns the search settings of an analysis of sims
// playouts over base (a config's PlayerSearch): a match player's
// (agent.MatchSearch) without its opening temperature, so the most visited
// move is always the one reported. The analyse command, the web app and
// the UCI and XBoard engines search with it.
func AnalysisSearch(base mcts.Config, sims int) mcts.Config {
	c := agent.MatchSearch(base, sims)
	c.TempPlies = 0
	return c
}
