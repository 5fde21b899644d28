package env

import (
	"math/rand/v2"
	"testing"
)

func TestBatchStepsMatchPositionsPlayedAlone(t *testing.T) {
	for _, name := range []string{"fbgc", "birds-ninjas+scepter", "claustrophobia"} {
		v, err := LoadVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		const n = 4
		b := NewBatch(v, n)
		inputSize, policySize := b.InputSize(), b.PolicySize()
		alone := make([]*Position, n)
		for i := range alone {
			alone[i] = v.NewPosition()
		}
		rng := rand.New(rand.NewPCG(9, 9))
		actions := make([]int, n)
		planes := make([]float32, inputSize)
		for step := 0; step < 60; step++ {
			for i := range actions {
				actions[i] = -1
				moves, idx := b.Moves(i)
				if res, _ := b.Status(i); res != Ongoing {
					if res2, _ := alone[i].Status(); res2 != res {
						t.Fatalf("%s game %d: batch status %v, alone %v", name, i, res, res2)
					}
					continue
				}
				if i == 0 && step%3 == 0 {
					continue // a game that waits
				}
				k := rng.IntN(len(moves))
				actions[i] = idx[k]
				alone[i].DoMove(moves[k])
			}
			if err := b.Step(actions); err != nil {
				t.Fatal(err)
			}
			for i := range alone {
				p := b.Position(i)
				if p.String() != alone[i].String() || p.Hash() != alone[i].Hash() {
					t.Fatalf("%s game %d: batch has %s, alone %s", name, i, p, alone[i])
				}
				NewEncoder(v, 0).Encode(alone[i], planes)
				got := b.Planes[i*inputSize : (i+1)*inputSize]
				for j := range planes {
					if planes[j] != got[j] {
						t.Fatalf("%s game %d: plane value %d is %v, encoding alone gives %v", name, i, j, got[j], planes[j])
					}
				}
				legal := b.Legal[i*policySize : (i+1)*policySize]
				want := map[int]bool{}
				for _, m := range alone[i].LegalMoves(nil) {
					want[b.Index.Index(m, alone[i].SideToMove())] = true
				}
				ones := 0
				for j, x := range legal {
					if x == 1 {
						ones++
						if !want[j] {
							t.Fatalf("%s game %d: mask has %d, not a legal move", name, i, j)
						}
					} else if x != 0 {
						t.Fatalf("%s game %d: mask value %v", name, i, x)
					}
				}
				if ones != len(want) {
					t.Fatalf("%s game %d: mask has %d moves, want %d", name, i, ones, len(want))
				}
			}
		}
	}
}

func TestBatchRefusesAnIllegalIndex(t *testing.T) {
	v, err := LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	b := NewBatch(v, 2)
	before := b.Position(1).String()
	_, idx := b.Moves(0)
	if err := b.Step([]int{idx[0], b.Index.Size() - 1}); err == nil {
		t.Fatal("Step accepted a policy index that is no legal move")
	}
	if b.Position(1).String() != before {
		t.Fatal("a refused step changed the game")
	}
	if err := b.Step([]int{0}); err == nil {
		t.Fatal("Step accepted the wrong number of actions")
	}
}

func TestBatchStepAllocatesNothing(t *testing.T) {
	v, err := LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	b := NewBatch(v, n)
	start := v.NewPosition()
	actions := make([]int, n)
	rng := rand.New(rand.NewPCG(1, 2))
	allocs := testing.AllocsPerRun(200, func() {
		for i := range actions {
			_, idx := b.Moves(i)
			if res, _ := b.Status(i); res != Ongoing || b.Position(i).Ply() > 300 {
				b.Reset(i, start)
				_, idx = b.Moves(i)
			}
			actions[i] = idx[rng.IntN(len(idx))]
		}
		if err := b.Step(actions); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("a batch step allocates %v times", allocs)
	}
}

func TestStatusOfAgreesWithStatus(t *testing.T) {
	for _, name := range indexVariants() {
		v, err := LoadVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		walkRandomGames(t, v, 11, 2, 150, func(p *Position, moves []Move) {
			r1, w1 := p.Status()
			r2, w2 := p.StatusOf(len(moves))
			if r1 != r2 || w1 != w2 {
				t.Fatalf("%s: %s: StatusOf says %v %v, Status %v %v", name, p, r2, w2, r1, w1)
			}
		})
	}
}

func TestCopyFromMakesAnIndependentCopy(t *testing.T) {
	v, err := LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	p := v.NewPosition()
	m, _ := p.ParseMove("e2-e4")
	p.DoMove(m)
	q := v.NewPosition()
	q.CopyFrom(p)
	if q.String() != p.String() || q.Ply() != p.Ply() || q.Hash() != p.Hash() {
		t.Fatalf("copy %s (ply %d), original %s (ply %d)", q, q.Ply(), p, p.Ply())
	}
	m2, _ := q.ParseMove("e9-e7")
	q.DoMove(m2)
	if p.Ply() != 1 || p.SideToMove() != Black {
		t.Fatal("moving the copy changed the original")
	}
}
