package env

import (
	"math/rand/v2"
	"testing"
)

// indexVariants are the variants (with options) the encoding tests cover:
// every built-in variant and every option (with a base it applies to).
func indexVariants() []string {
	names := VariantNames()
	names = append(names, "birds-ninjas+scepter+insane-knight", "fbgc+superknights", "fbgc+superpower",
		"birds-leaping+scepter")
	for _, o := range OptionNames() {
		for _, base := range []string{"birds-ninjas", "fbgc"} {
			if _, err := LoadVariant(base + "+" + o); err == nil {
				names = append(names, base+"+"+o)
				break
			}
		}
	}
	return names
}

// walkRandomGames plays games of random legal moves from v's start and calls
// visit on every position reached (before its move), with its legal moves.
func walkRandomGames(t *testing.T, v *Variant, seed uint64, games, plies int, visit func(p *Position, moves []Move)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	buf := make([]Move, 0, MaxMoves)
	for g := 0; g < games; g++ {
		p := v.NewPosition()
		for ply := 0; ply < plies; ply++ {
			moves := p.LegalMoves(buf[:0])
			visit(p, moves)
			if len(moves) == 0 {
				break
			}
			if res, _ := p.Status(); res != Ongoing {
				break
			}
			p.DoMove(moves[rng.IntN(len(moves))])
		}
	}
}

func TestMoveIndexIsABijectionOnLegalMovesOfRandomPositions(t *testing.T) {
	games, plies := 6, 120
	if testing.Short() {
		games = 2
	}
	for _, name := range indexVariants() {
		t.Run(name, func(t *testing.T) {
			v, err := LoadVariant(name)
			if err != nil {
				t.Fatal(err)
			}
			x := NewMoveIndex(v)
			seen := make(map[int]Move, 256)
			var legalBuf [MaxMoves]Move
			positions, moves, kinds := 0, 0, map[MoveKind]int{}
			walkRandomGames(t, v, 1, games, plies, func(p *Position, legal []Move) {
				positions++
				clear(seen)
				for _, m := range legal {
					moves++
					kinds[m.Kind()]++
					idx := x.Index(m, p.SideToMove())
					if idx < 0 || idx >= x.Size() {
						t.Fatalf("%s: move %s has index %d outside [0,%d)", p, p.FormatMove(m), idx, x.Size())
					}
					if o, dup := seen[idx]; dup {
						t.Fatalf("%s: moves %s and %s share index %d", p, p.FormatMove(o), p.FormatMove(m), idx)
					}
					seen[idx] = m
					if d := x.Decode(p, idx); d != m {
						t.Fatalf("%s: move %s (%#x) has index %d, which decodes to %#x", p, p.FormatMove(m), uint32(m), idx, uint32(d))
					}
					if l, ok := x.Legal(p, idx, legalBuf[:]); !ok || l != m {
						t.Fatalf("%s: Legal(%d) = %#x, %v; want %s", p, idx, uint32(l), ok, p.FormatMove(m))
					}
				}
			})
			t.Logf("%d planes, %d positions, %d moves, kinds %v", x.Planes(), positions, moves, kinds)
			if positions < 100 {
				t.Fatalf("only %d positions visited", positions)
			}
		})
	}
}

func TestMoveIndexRejectsIndicesOfNoLegalMove(t *testing.T) {
	v, err := LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	x := NewMoveIndex(v)
	p := v.NewPosition()
	legal := map[int]bool{}
	for _, m := range p.LegalMoves(nil) {
		legal[x.Index(m, p.SideToMove())] = true
	}
	var buf [MaxMoves]Move
	n := 0
	for idx := -1; idx <= x.Size(); idx++ {
		_, ok := x.Legal(p, idx, buf[:])
		if ok != legal[idx] {
			t.Fatalf("Legal(%d) = %v, want %v", idx, ok, legal[idx])
		}
		if ok {
			n++
		}
	}
	if n != len(legal) {
		t.Fatalf("%d indices legal, want %d", n, len(legal))
	}
}

func TestMoveIndexSeesBothSidesMovingUp(t *testing.T) {
	// The same move seen from each side's view gets the same index: White's
	// e2-e4 and Black's mirrored e9-e7 from the mirrored position.
	v, err := LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	x := NewMoveIndex(v)
	w := v.NewPosition()
	mw, err := w.ParseMove("e2-e4")
	if err != nil {
		t.Fatal(err)
	}
	b, err := v.ParsePosition("frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF b KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	mb, err := b.ParseMove("e9-e7")
	if err != nil {
		t.Fatal(err)
	}
	if iw, ib := x.Index(mw, White), x.Index(mb, Black); iw != ib {
		t.Fatalf("e2-e4 for White has index %d, e9-e7 for Black %d; want equal", iw, ib)
	}
}

// TestMoveIndexGoldenFBGC pins a few indices of the fbgc layout, so that a
// change of the layout (which invalidates trained networks) is noticed.
func TestMoveIndexGoldenFBGC(t *testing.T) {
	v, err := LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	x := NewMoveIndex(v)
	if x.Planes() != goldenFBGCPlanes {
		t.Errorf("fbgc has %d policy planes, want %d", x.Planes(), goldenFBGCPlanes)
	}
	p, err := v.ParsePosition(goldenFBGCPosition)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range goldenFBGC {
		m, err := p.ParseMove(c.move)
		if err != nil {
			t.Fatalf("%s: %v", c.move, err)
		}
		if got := x.Index(m, p.SideToMove()); got != c.index {
			t.Errorf("index of %s = %d, want %d", c.move, got, c.index)
		}
	}
}

const goldenFBGCPlanes = 93

// goldenFBGCPosition has pawn moves, leaps, a promotion and castling.
const goldenFBGCPosition = "5k4/P9/10/10/10/10/10/10/2N1P5/1R3K2R1 w KQ - 0 1"

var goldenFBGC = []struct {
	move  string
	index int
}{
	{"e2-e4", 1*100 + 14},         // ray N 2 from e2
	{"e2-e3", 0*100 + 14},         // ray N 1
	{"c2-d4", 73*100 + 12},        // leap +1,+2 from c2
	{"b1-b8", 6*100 + 1},          // ray N 7
	{"a9-a10;Q-a10", 0*100 + 80},  // the first promotion type uses the ray plane
	{"a9-a10;F-a10", 90*100 + 80}, // promote to F straight ahead
	{"i1-g1;f1-h1", 92*100 + 7},   // castle, at the king's destination h1
	{"f1-g1", 18*100 + 5},         // the king's step, not a castle
	{"b1-e1;f1-d1", 92*100 + 3},   // queen-side castle to d1
}

// FuzzMoveIndexLegal feeds arbitrary indices (and a few plies of arbitrary
// play) to Legal: it never panics, and what it accepts is a legal move
// whose index is the one given.
func FuzzMoveIndexLegal(f *testing.F) {
	f.Add(uint8(0), uint16(0), int32(114))
	f.Add(uint8(3), uint16(77), int32(9207))
	f.Add(uint8(7), uint16(5), int32(-1))
	f.Add(uint8(9), uint16(1000), int32(1<<20))
	names := VariantNames()
	vs := make([]*Variant, len(names))
	for i, n := range names {
		v, err := LoadVariant(n)
		if err != nil {
			f.Fatal(err)
		}
		vs[i] = v
	}
	f.Fuzz(func(t *testing.T, which uint8, seed uint16, idx int32) {
		v := vs[int(which)%len(vs)]
		x := NewMoveIndex(v)
		p := v.NewPosition()
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		var buf [MaxMoves]Move
		for ply := 0; ply < int(seed%40); ply++ {
			moves := p.LegalMoves(buf[:0])
			if len(moves) == 0 {
				break
			}
			p.DoMove(moves[rng.IntN(len(moves))])
		}
		m, ok := x.Legal(p, int(idx), buf[:])
		if !ok {
			return
		}
		if x.Index(m, p.SideToMove()) != int(idx) {
			t.Fatalf("Legal(%d) = %s, whose index is %d", idx, p.FormatMove(m), x.Index(m, p.SideToMove()))
		}
		found := false
		for _, l := range p.LegalMoves(buf[:0]) {
			found = found || l == m
		}
		if !found {
			t.Fatalf("Legal(%d) accepted %#x, not a legal move of %s", idx, uint32(m), p)
		}
	})
}
