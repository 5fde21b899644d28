package env

import (
	"strings"
	"testing"
)

func TestCheckmateStalemateFiftyAndRepetition(t *testing.T) {
	chess := mustLoad(t, "chess")
	p, err := PlayMoves(chess.NewPosition(), "1. f2-f3 e7-e5 2. g2-g4 d8-h4")
	if err != nil {
		t.Fatal(err)
	}
	if res, why := p.Status(); res != BlackWins || why != Checkmate {
		t.Fatalf("fool's mate: %v %v", res, why)
	}
	p, _ = chess.ParsePosition("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
	if res, why := p.Status(); res != Draw || why != Stalemate {
		t.Fatalf("stalemate: %v %v", res, why)
	}
	p, _ = chess.ParsePosition("7k/8/6K1/8/8/8/8/R7 w - - 99 80")
	m, _ := p.ParseMove("a1-a2")
	p.DoMove(m)
	if res, why := p.Status(); res != Draw || why != FiftyMoves {
		t.Fatalf("50-move rule: %v %v", res, why)
	}
	// Mate on the 100th half-move still wins.
	p, _ = chess.ParsePosition("7k/8/6K1/8/8/8/8/R7 w - - 99 80")
	m, _ = p.ParseMove("a1-a8")
	p.DoMove(m)
	if res, why := p.Status(); res != WhiteWins || why != Checkmate {
		t.Fatalf("mate on the 100th half-move: %v %v", res, why)
	}
	v := mustLoad(t, "fbgc")
	p = v.NewPosition()
	shuffle := "c1-d3 c10-d8 d3-c1 d8-c10 "
	if p, err = PlayMoves(p, shuffle); err != nil {
		t.Fatal(err)
	}
	if res, _ := p.Status(); res != Ongoing {
		t.Fatal("second occurrence is not yet a draw")
	}
	if p, err = PlayMoves(p, shuffle); err != nil {
		t.Fatal(err)
	}
	if res, why := p.Status(); res != Draw || why != Repetition {
		t.Fatalf("third occurrence: %v %v", res, why)
	}
}

func TestReplayNamesTheIllegalMove(t *testing.T) {
	v := mustLoad(t, "fbgc")
	game := `[Event "test"]
{a comment} 1. f2-f5 f9-f6 2. g1-d4 % another comment
2... e9-e8 3. d4-h8 1-0`
	_, err := Replay(v.NewPosition(), game)
	if err == nil || !strings.Contains(err.Error(), "move 3. d4-h8: the bishop on d4 cannot move to h8") {
		t.Fatalf("error %v", err)
	}
	game = "1. f2-f5 f9-f6 2. e2-e4 e9-e7 3. f5-f6 4. a2-a3"
	_, err = Replay(v.NewPosition(), game)
	var re *ReplayError
	if err == nil || !asReplay(err, &re) || re.Number != "3." || re.Text != "f5-f6" || !strings.Contains(re.Err.Error(), "cannot move to f6") {
		t.Fatalf("error %v, want it at 3. f5-f6", err)
	}
	p, err := Replay(v.NewPosition(), "1. f2-f5 f9-f6 2. e2-e4 e9-e7")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != "frnbqkbnrf/pppp2pppp/10/4p5/5p4/5P4/4P5/10/PPPP2PPPP/FRNBQKBNRF w KQkq e8 0 3" {
		t.Fatalf("final position %s", got)
	}
}

func asReplay(err error, re **ReplayError) bool {
	r, ok := err.(*ReplayError)
	*re = r
	return ok
}

func TestReplayLabelsBlackMovesWithDots(t *testing.T) {
	v := mustLoad(t, "fbgc")
	_, err := Replay(v.NewPosition(), "1. e2-e4 e9-e3")
	var re *ReplayError
	if !asReplay(err, &re) || re.Number != "1..." {
		t.Fatalf("error %v, want it at 1...", err)
	}
	_, err = Replay(v.NewPosition(), "1. e2-e4 1... e9-e7 2.d1-e9")
	if !asReplay(err, &re) || re.Number != "2." || re.Text != "d1-e9" {
		t.Fatalf("error %v, want it at 2. d1-e9", err)
	}
}

func FuzzReplay(f *testing.F) {
	v := mustLoad(f, "fbgc")
	start := v.NewPosition()
	f.Add("[Event \"x\"]\n1. f2-f5 f9-f6 {c} 2. g1-d4 % c\n2... e9-e8 3. d4-h8 1-0")
	f.Add("1.e2-e4 1...e9-e7 2. f1-g1;i1-f1 *")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := Replay(start, text)
		if err != nil {
			var re *ReplayError
			if !asReplay(err, &re) || re.Err == nil {
				t.Fatalf("error %v is not a ReplayError", err)
			}
			return
		}
		if q, err := v.ParsePosition(p.String()); err != nil || q.String() != p.String() {
			t.Fatalf("final position %s does not read back: %v", p, err)
		}
	})
}

func TestResultForEachSide(t *testing.T) {
	for _, tc := range []struct {
		r            Result
		white, black int
	}{
		{WhiteWins, 1, -1},
		{BlackWins, -1, 1},
		{Draw, 0, 0},
		{Ongoing, 0, 0},
	} {
		if got := tc.r.For(White); got != tc.white {
			t.Errorf("%v for White = %d, want %d", tc.r, got, tc.white)
		}
		if got := tc.r.For(Black); got != tc.black {
			t.Errorf("%v for Black = %d, want %d", tc.r, got, tc.black)
		}
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
