// Package mcts is the search of bomberzero: a Monte Carlo tree search guided
// by an evaluator (the network of package nn, or a network-free evaluator of
// this package), run on many games at once so that every evaluator call gets
// one full batch.
//
// The search talks to games only through the small Game interface; the rules
// engine satisfies it through a thin adapter. A Searcher owns a fixed number
// of game slots. Each call to Step advances every searching slot by one
// playout (or a few, with virtual loss), gathers the leaves that need an
// evaluation into one eval.Batch, calls the evaluator once and backs the
// values up. Slots whose search is complete are returned by Step; the caller
// reads their Result, plays a move with Play (which keeps the played move's
// subtree) and the slot's next search starts on the next Step.
//
// Two root searches are available: PUCT with first-play urgency and
// Dirichlet noise (AlphaZero, KataGo), and Gumbel root search with
// sequential halving and a completed-Q policy target (Gumbel MuZero) for low
// playout counts. Playout-cap randomization marks a configurable share of
// searches as cheap: played, but not to be trained on.
//
// docs/search.md describes the algorithm, its parameters and their defaults.
package mcts
