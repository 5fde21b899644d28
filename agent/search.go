package agent

import "bomberzero/mcts"

// MatchTempPlies is the opening plies a searching player picks by
// temperature 1 in a match, so that a player meeting a deterministic
// opponent, or itself, does not replay one game.
const MatchTempPlies = 4

// SelfPlaySearch returns the search settings of self-play: base as it is
// (playout caps, root noise, tree reuse and the opening temperature all on
// as configured), with seed as its seed.
func SelfPlaySearch(base mcts.Config, seed uint64) mcts.Config {
	c := base
	c.Seed = seed
	return c
}

// MatchSearch returns the search settings of a searching player in a match,
// derived from base (the self-play search, whose exploration constants,
// first-play urgency, Gumbel settings and virtual loss it keeps): sims
// playouts per move, every search full (no playout cap), no root noise, no
// tree reuse between moves (each move is a fresh search), batches of 8
// leaves, a small evaluation cache, and the first MatchTempPlies plies played
// at temperature 1 over the visit counts (the rest: the most visited move).
// Package match applies it to a player spec's playouts; package setup is
// where a training config becomes a player's search through it
// (setup.Config.MatchSearch, setup.AnalysisSearch).
func MatchSearch(base mcts.Config, sims int) mcts.Config {
	c := base
	c.Sims = sims
	c.CheapShare = 0
	c.NoiseFraction = 0
	c.TempPlies, c.Temp, c.FinalTemp = MatchTempPlies, 1, 0
	c.Reuse = false
	c.LeavesPerGame = 8
	c.CacheEntries = 1 << 10
	return c
}

// DefaultSearch returns package mcts's default search settings, the base
// MatchSearch derives a match player's settings from where no training
// config gives one (commands need not import mcts for it).
func DefaultSearch() mcts.Config { return mcts.DefaultConfig() }
