// Package selfplay turns CPU time into training data: workers play many games
// of one variant at once against themselves with the batched search of
// package mcts, guided by a network (package nn) or a network-free evaluator,
// and write every finished game as training positions (package datasets
// chunks) and as a game record in Game Courier move syntax that "bomberzero
// replay" reads.
//
// The search sees the games through package agent (agent.Rules and
// agent.Game adapt the rules engine to mcts; agent.Model makes the
// evaluators). Settings are the self-play knobs, each with its TOML key, as
// the training config embeds them. Run starts one worker per core; each owns
// one mcts.Searcher with many game slots, its own evaluator and its own chunk
// writer, and shares nothing but read-only weights, so the same workers can
// run on many machines against shared storage. A game is reported finished
// only once it is on disk.
//
// The pool of workers, their chunk writers and records, the flushing and the
// progress reports are the Driver, which takes the move chooser as a Player:
// self-play's batched search is one, the alpha-beta teacher of package
// teacher another.
//
// Resignation: a side whose search value stays below a threshold for a
// number of its consecutive moves resigns, except in a configurable share of
// games where resignation is off and the would-be resignation is recorded,
// so that the false-resignation rate can be measured. Games that reach the
// maximum length end drawn and are flagged as such.
package selfplay
