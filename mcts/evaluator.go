package mcts

import (
	"errors"

	"bomberzero/eval"
)

// GameEvaluator is an evaluator that values positions from the games
// themselves (rollouts, material) rather than from their planes. When a
// Searcher's evaluator implements it, the searcher calls EvaluateGames
// instead of Evaluate and does not encode planes: games[i] is batch entry
// i's position and b.Legal holds its legal-move mask.
type GameEvaluator interface {
	eval.Evaluator
	// EvaluateGames writes b.Policy and b.WDL for the first b.Size
	// positions, which are games[:b.Size].
	EvaluateGames(games []Game, b *eval.Batch) error
}

// errNeedsGames is returned by the Evaluate method of evaluators that can
// only value games.
var errNeedsGames = errors.New("mcts: this evaluator values games, not planes: use it through a Searcher")

// uniformPolicy writes the uniform distribution over entry j's legal mask
// into b.Policy.
func uniformPolicy(b *eval.Batch, ps, j int) {
	legal := b.Legal[j*ps : (j+1)*ps]
	pol := b.Policy[j*ps : (j+1)*ps]
	count := float32(0)
	for _, l := range legal {
		if l > 0 {
			count++
		}
	}
	for k, l := range legal {
		pol[k] = 0
		if l > 0 {
			pol[k] = 1 / count
		}
	}
}

// setValue writes value v (for the side to move, in [-1, 1]) into entry j
// of b.WDL as a win/draw/loss triple with no draw mass except what |v|
// leaves: W = max(v, 0), L = max(-v, 0), D = 1 - |v|.
func setValue(b *eval.Batch, j int, v float32) {
	w, l := max(v, 0), max(-v, 0)
	b.WDL[3*j], b.WDL[3*j+1], b.WDL[3*j+2] = w, 1-w-l, l
}
