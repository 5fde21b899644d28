package env

import "testing"

// The chessprogramming wiki "Perft Results" positions 1-6 with their published counts.
func TestPerftChessSuite(t *testing.T) {
	v := mustLoad(t, "chess")
	cases := []struct {
		name, fen string
		counts    []uint64
	}{
		{"initial", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", []uint64{20, 400, 8902, 197281, 4865609}},
		{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []uint64{48, 2039, 97862, 4085603}},
		{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []uint64{14, 191, 2812, 43238, 674624}},
		{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []uint64{6, 264, 9467, 422333}},
		{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []uint64{44, 1486, 62379, 2103487}},
		{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []uint64{46, 2079, 89890, 3894594}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := v.ParsePosition(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range c.counts {
				if testing.Short() && want > 500000 {
					break
				}
				if got := p.Perft(d + 1); got != want {
					t.Fatalf("depth %d: got %d nodes, want %d", d+1, got, want)
				}
			}
		})
	}
}

func mustLoad(t testing.TB, name string) *Variant {
	t.Helper()
	v, err := LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestStartMoveCountsCountedByHand checks the first two plies of each start
// position against counts worked out by hand: the two sides cannot touch
// each other in one move, so depth 2 is depth 1 squared.
func TestStartMoveCountsCountedByHand(t *testing.T) {
	cases := []struct {
		name string
		n    uint64
		why  string
	}{
		{"fbgc", 36, "10 pawns x 3 + 2 knights x 2 + 2 bombers leaping their pawn"},
		{"fbgc-superpower", 36, "as fbgc"},
		{"fbgc-superknights", 40, "as fbgc + c1-d4/c1-b4 and h1-g4/h1-i4 (3,1) leaps"},
		{"fbgc-ninjapawns", 36, "10 ninja pawns x 3 forward (no sideways room, no drop square) + knights + bombers"},
		{"birds-ninjas", 36, "as fbgc; the palace guards are boxed in, rank 2 is full so no drops"},
		{"birds-ninjas-setup2", 36, "guards a1 j1 leap over b2/i2 to c3/h3 instead of the bombers' a3/j3"},
		{"birds-only", 36, "the diagonal bombers on e0 f0 are boxed in"},
		{"hangars", 20, "chess's 20; the hangar bombers are blocked by a1/h1 and the a2/h2 pawns"},
		{"claustrophobia", 18, "5 pawns x 2 + knights c1 (b3 d3) g2 (e3) + bombers a1-a3 b1-b3 + guards d1-b3 e1-c3 + queen-guard f2-e3"},
	}
	for _, c := range cases {
		p := mustLoad(t, c.name).NewPosition()
		if got := p.Perft(1); got != c.n {
			t.Errorf("%s: %d moves, want %d (%s)", c.name, got, c.n, c.why)
		}
		if got := p.Perft(2); got != c.n*c.n {
			t.Errorf("%s: depth 2 %d, want %d", c.name, got, c.n*c.n)
		}
	}
}
