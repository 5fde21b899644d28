package mcts

import (
	"fmt"
	"math/rand/v2"

	"bomberzero/eval"
)

// Rollout is a network-free evaluator that values a position by random
// playouts: uniformly random legal moves until the game ends (or MaxPlies
// plies, counted a draw), averaged over Playouts games, for the side to
// move. Its policy is uniform over the legal moves.
type Rollout struct {
	shape    eval.Shape
	maxBatch int
	playouts int
	maxPlies int
	rng      *rand.Rand
	scratch  Game
	moves    []int
}

// NewRollout returns a Rollout evaluator for shape and batches of up to
// maxBatch positions, valuing each by playouts random games of at most
// maxPlies plies, with random numbers seeded by seed.
func NewRollout(shape eval.Shape, maxBatch, playouts, maxPlies int, seed uint64) (*Rollout, error) {
	if err := shape.Validate(); err != nil {
		return nil, fmt.Errorf("mcts: rollout evaluator: %w", err)
	}
	if maxBatch < 1 || playouts < 1 || maxPlies < 1 {
		return nil, fmt.Errorf("mcts: rollout evaluator: max batch %d, playouts %d, max plies %d: want all >= 1", maxBatch, playouts, maxPlies)
	}
	return &Rollout{shape: shape, maxBatch: maxBatch, playouts: playouts, maxPlies: maxPlies,
		rng: rand.New(rand.NewPCG(seed, 0x726f6c6c))}, nil
}

// Shape returns the evaluator's shape.
func (r *Rollout) Shape() eval.Shape { return r.shape }

// MaxBatch returns the largest batch it accepts.
func (r *Rollout) MaxBatch() int { return r.maxBatch }

// Evaluate fails: playouts need the games (see EvaluateGames).
func (r *Rollout) Evaluate(*eval.Batch) error { return errNeedsGames }

// EvaluateGames writes the uniform policy and the mean playout result of
// each game.
func (r *Rollout) EvaluateGames(games []Game, b *eval.Batch) error {
	if err := b.Check(r.shape); err != nil {
		return err
	}
	for j := 0; j < b.Size; j++ {
		uniformPolicy(b, r.shape.PolicySize, j)
		setValue(b, j, r.value(games[j]))
	}
	return nil
}

// value returns the mean playout result of g for its side to move.
func (r *Rollout) value(g Game) float32 {
	if r.scratch == nil {
		r.scratch = g.Clone()
	}
	sum := 0.0
	for p := 0; p < r.playouts; p++ {
		r.scratch.CopyFrom(g)
		sign := 1.0 // +1 while the side to move is g's side to move
		for ply := 0; ply < r.maxPlies; ply++ {
			if over, v := r.scratch.Status(); over {
				sum += sign * float64(v)
				break
			}
			r.moves = r.scratch.LegalMoves(r.moves[:0])
			if len(r.moves) == 0 {
				break // inconsistent game: count a draw
			}
			r.scratch.Play(r.moves[r.rng.IntN(len(r.moves))])
			sign = -sign
		}
	}
	return float32(sum / float64(r.playouts))
}
