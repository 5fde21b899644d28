// Package agent knows "a variant played by a model": everything self-play
// (package selfplay), matches (package match) and the command-line tool share
// about turning a variant's rules and a model into a searching player.
//
//   - Rules and Game adapt the rules engine (package env) to the search
//     (package mcts): moves named by their policy index, the encoding, the
//     material count, and EncodeText for positions stored as text.
//   - Model is the model factory: a spec "none", "material", "uniform",
//     "rollout" or a checkpoint path (ParseSpec also reads "CKPT:SIMS"),
//     defined and validated here only, and the evaluators it makes.
//   - SelfPlaySearch and MatchSearch are the search presets of self-play and
//     of matches, both derived from one mcts.Config.
//   - Values is the project's one piece-value table.
//   - AtLengthCap is the length-cap rule: a game still going on at the cap is
//     a draw.
//   - ValueFunc is a model's value of single positions, for package values.
package agent
