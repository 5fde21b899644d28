package mcts

import (
	"math"
	"testing"
)

// FuzzSearchInvariants searches random tic-tac-toe positions with random
// parameters and checks what must hold whatever they are: the tree's
// visit bookkeeping, a policy target over exactly the legal moves that
// sums to 1, a legal move, a value in [-1, 1] and the playout count.
func FuzzSearchInvariants(f *testing.F) {
	f.Add(uint64(1), uint8(20), uint8(1), false, uint16(0), uint8(0))
	f.Add(uint64(2), uint8(50), uint8(4), true, uint16(1234), uint8(3))
	f.Add(uint64(3), uint8(3), uint8(2), true, uint16(777), uint8(6))
	f.Add(uint64(4), uint8(200), uint8(8), false, uint16(4321), uint8(4))
	f.Fuzz(func(t *testing.T, seed uint64, sims, leaves uint8, gumbel bool, moveSeed uint16, plies uint8) {
		cfg := DefaultConfig()
		cfg.Sims, cfg.LeavesPerGame, cfg.Gumbel, cfg.Seed = int(sims)%300+1, int(leaves)%8+1, gumbel, seed
		cfg.CheapSims, cfg.GumbelM, cfg.CacheEntries = cfg.Sims/3+1, int(leaves)%9+1, 256
		g := newTicTacToe()
		x := uint64(moveSeed)
		for p := 0; p < int(plies)%8; p++ {
			if over, _ := g.Status(); over {
				break
			}
			moves := g.LegalMoves(nil)
			x = x*6364136223846793005 + 1442695040888963407
			g.Play(moves[(x>>33)%uint64(len(moves))])
		}
		ev, err := NewUniform(tttShape, 16)
		if err != nil {
			t.Fatal(err)
		}
		s := searched(t, cfg, ev, g)
		checkTree(t, &s.slots[0].tree)
		r := s.Result(0)
		if over, v := g.Status(); over {
			if r.Move != -1 || r.Value != v {
				t.Fatalf("finished game: move %d value %g, want -1 and %g", r.Move, r.Value, v)
			}
			return
		}
		legal := g.LegalMoves(nil)
		if len(r.Moves) != len(legal) || len(r.Policy) != len(legal) {
			t.Fatalf("%d moves and %d probabilities for %d legal moves", len(r.Moves), len(r.Policy), len(legal))
		}
		sum, found := 0.0, false
		for k, m := range r.Moves {
			if m != legal[k] || !(r.Policy[k] >= 0) {
				t.Fatalf("entry %d: move %d probability %g, want legal move %d and >= 0", k, m, r.Policy[k], legal[k])
			}
			sum += float64(r.Policy[k])
			found = found || m == r.Move
		}
		if math.Abs(sum-1) > 1e-4 || !found {
			t.Fatalf("policy sums to %g, move %d legal %v", sum, r.Move, found)
		}
		if !(r.Value >= -1.0001 && r.Value <= 1.0001) {
			t.Fatalf("value %g outside [-1, 1]", r.Value)
		}
		want := cfg.Sims
		if !r.Full {
			want = cfg.CheapSims
		}
		if len(legal) > 1 && r.Sims != want && !(r.Proven && r.Sims < want) {
			t.Fatalf("%d playouts, want %d", r.Sims, want)
		}
	})
}
