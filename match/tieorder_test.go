package match

import (
	"slices"
	"testing"

	"bomberzero/agent"
	"bomberzero/env"
)

func TestTieOrderDependsOnTheMovesNotTheList(t *testing.T) {
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	common := v.NewPosition().LegalMoves(nil)
	extra := []env.Move{0xdead, 0xbeef, 0x1234567}
	orderOf := func(seed uint64, moves []env.Move) []env.Move {
		a, err := NewAlphaBeta(v, 1, agent.DefaultValues(), seed)
		if err != nil {
			t.Fatal(err)
		}
		moves = slices.Clone(moves)
		a.tieOrder(moves, 0)
		return moves
	}
	// The moves both lists share come out in the same order, wherever the
	// extra moves went; the result is a permutation of the list.
	plain := orderOf(7, common)
	mixed := orderOf(7, append(slices.Clone(extra[:1]), append(slices.Clone(common), extra[1:]...)...))
	shared := slices.DeleteFunc(slices.Clone(mixed), func(m env.Move) bool { return slices.Contains(extra, m) })
	if !slices.Equal(plain, shared) {
		t.Errorf("the shared moves' order changed with three extra moves:\n%v\n%v", plain, shared)
	}
	if len(mixed) != len(common)+len(extra) || len(shared) != len(common) {
		t.Errorf("%d moves ordered of %d, %d of them shared; want a permutation", len(mixed), len(common)+len(extra), len(shared))
	}
	// Other seeds give other orders.
	distinct := map[string]bool{}
	for seed := range uint64(8) {
		distinct[moveList(orderOf(seed, common))] = true
	}
	if len(distinct) < 8 {
		t.Errorf("8 seeds gave %d orders; want a random order a seed", len(distinct))
	}
}

func moveList(ms []env.Move) string {
	b := make([]byte, 0, 4*len(ms))
	for _, m := range ms {
		b = append(b, byte(m), byte(m>>8), byte(m>>16), byte(m>>24))
	}
	return string(b)
}

// With the same seed, alphabeta plays the same game under two rule sets
// until they differ where it looks: a depth-1 search reads the legal moves
// of the position and, of each position a move leads to, the material and
// whether the game ends there, so the games may part only at a position
// where one of those differs between the rule sets. A player that
// shuffled the whole list would also part them later, at positions both
// rule sets see alike, once one list had differed and the two shuffles
// had drawn different numbers of times.
func TestAlphaBetaPlaysAlikeUntilTheRulesDiffer(t *testing.T) {
	lim, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := env.LoadVariant("fbgc-superpower")
	if err != nil {
		t.Fatal(err)
	}
	rootDiffers := func(p, q *env.Position) bool { return !sameMoves(p.LegalMoves(nil), q.LegalMoves(nil)) }
	// A depth-1 search reads the position's legal moves and, of each
	// position a move leads to, its material and whether the game is over
	// there.
	differsWhereSeen := func(p, q *env.Position) bool {
		if rootDiffers(p, q) {
			return true
		}
		for _, m := range p.LegalMoves(nil) {
			up, uq := p.DoMove(m), q.DoMove(m)
			rp, _ := p.Status()
			rq, _ := q.Status()
			q.UndoMove(uq)
			p.UndoMove(up)
			if rp != rq {
				return true
			}
		}
		return false
	}
	passedUnparted := 0
	for seed := range uint64(40) {
		a, err := NewAlphaBeta(lim, 1, agent.DefaultValues(), seed)
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewAlphaBeta(sp, 1, agent.DefaultValues(), seed)
		if err != nil {
			t.Fatal(err)
		}
		p, q := lim.NewPosition(), sp.NewPosition()
		for ply := 0; ply < 160; ply++ {
			if res, _ := p.Status(); res != env.Ongoing {
				break
			}
			ma, err := a.Choose(p)
			if err != nil {
				t.Fatal(err)
			}
			mb, err := b.Choose(q)
			if err != nil {
				t.Fatal(err)
			}
			seen := differsWhereSeen(p, q)
			if ma != mb {
				if !seen {
					t.Errorf("seed %d ply %d: the games part (%s against %s) where both rule sets look alike: %s", seed, ply, p.FormatMove(ma), q.FormatMove(mb), p)
				}
				break
			}
			if rootDiffers(p, q) {
				passedUnparted++
			}
			p.DoMove(ma)
			q.DoMove(mb)
		}
	}
	if passedUnparted == 0 {
		t.Error("no game passed a position whose move lists differ without parting: the test proves nothing")
	}
}

// sameMoves reports whether two move lists hold the same moves.
func sameMoves(a, b []env.Move) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
