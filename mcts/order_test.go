package mcts

import (
	"math"
	"testing"
)

// binomialBounds returns the range a Binomial(n, p) count stays in except
// with a probability of about 1e-6 per check (5 standard deviations of the
// normal approximation, which is close here: n*p >= 50).
func binomialBounds(n int, p float64) (lo, hi float64) {
	mean := float64(n) * p
	sd := math.Sqrt(mean * (1 - p))
	return mean - 5*sd, mean + 5*sd
}

func TestTiedMovesAreSearchedAndPlayedWhateverTheirOrder(t *testing.T) {
	// With equal priors and equal values (a network-free evaluator) every
	// root move ties. The moves' order is the rules engine's generation
	// order, which in chess scans the board from White's side, so a
	// tie-break by order made one colour's small searches look only at its
	// first few moves and always play the first (Black won 86 of 100
	// material-evaluator games). Ties must be broken at random: over many
	// 4-playout searches (the root's evaluation, then 3 children), every
	// list position must be visited and played about equally often.
	const searches = 2000
	cfg := testConfig(4)
	cfg.CacheEntries = 0
	ev := &tableEval{shape: wideShape, max: 1}
	s, err := NewSearcher(cfg, ev, 1)
	if err != nil {
		t.Fatal(err)
	}
	var visited, played [wideMoves]int
	totalVisited := 0
	for i := 0; i < searches; i++ {
		if err := s.Reset(0, &wide{}); err != nil {
			t.Fatal(err)
		}
		if err := s.SearchAll(); err != nil {
			t.Fatal(err)
		}
		r := s.Result(0)
		if len(r.Moves) != wideMoves {
			t.Fatalf("%d root moves, want %d", len(r.Moves), wideMoves)
		}
		for k, m := range r.Moves {
			if r.Policy[k] > 0 {
				visited[k]++
				totalVisited++
			}
			if m == r.Move {
				played[k]++
			}
		}
	}
	if totalVisited != 3*searches {
		t.Fatalf("%d root children visited in %d searches, want 3 each", totalVisited, searches)
	}
	vlo, vhi := binomialBounds(searches, 3.0/wideMoves)
	plo, phi := binomialBounds(searches, 1.0/wideMoves)
	for k := 0; k < wideMoves; k++ {
		if float64(visited[k]) < vlo || float64(visited[k]) > vhi {
			t.Errorf("move %d of %d in list order visited in %d of %d searches, want %.0f..%.0f (3 in %d each time)",
				k, wideMoves, visited[k], searches, vlo, vhi, wideMoves)
		}
		if float64(played[k]) < plo || float64(played[k]) > phi {
			t.Errorf("move %d of %d in list order played in %d of %d searches, want %.0f..%.0f",
				k, wideMoves, played[k], searches, plo, phi)
		}
	}
}

func TestGreedyMoveChoiceDrawsAmongTiedMostVisited(t *testing.T) {
	policy := []float32{0.1, 0.4, 0.1, 0.4}
	for _, c := range []struct {
		u    float64
		want int
	}{{0, 1}, {0.49, 1}, {0.5, 3}, {0.999, 3}} {
		if k := sampleMove(policy, nil, 0, c.u); k != c.want {
			t.Errorf("temperature 0, tied 1 and 3, u %g: chose %d, want %d", c.u, k, c.want)
		}
	}
	if k := sampleMove([]float32{0.2, 0.5, 0.3}, nil, 0, 0.999); k != 1 {
		t.Errorf("temperature 0 without a tie chose %d, want the most visited 1", k)
	}
	// Equally visited moves are told apart by their values first (a mate
	// found in as many visits as a quiet move is played), then drawn.
	policy = []float32{0.3, 0.3, 0.1, 0.3}
	values := []float64{0.5, 1, 1, 1}
	for _, c := range []struct {
		u    float64
		want int
	}{{0, 1}, {0.49, 1}, {0.5, 3}, {0.999, 3}} {
		if k := sampleMove(policy, values, 0, c.u); k != c.want {
			t.Errorf("temperature 0, tied 0, 1 and 3 of values %v, u %g: chose %d, want %d", values, c.u, k, c.want)
		}
	}
}
