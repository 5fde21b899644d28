package env

import (
	"slices"
	"strings"
	"testing"
)

// The worked examples of RULES.md sections 2.1, 3 and 4, on the 10x10 FBGC board.

func TestBomberJumpsOwnPieceToCaptureButStopsThere(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p := setup(t, v, White, "Ff4", "Pe4", "rd4", "Kj1", "kj10")
	if !hasMove(p, "f4-d4") || hasMove(p, "f4-c4") {
		t.Fatalf("bomber f4 with own e4 and enemy rook d4: moves %v, want f4-d4 and not f4-c4", gcMoves(p, "f4"))
	}
}

func TestBomberDoubleCaptureIsForcedOverAdjacentEnemy(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p := setup(t, v, White, "Ff4", "pg4", "rh4", "Kj1", "kj10")
	if !hasMove(p, "f4-h4;g4-") {
		t.Fatalf("f4-h4 should capture g4 and h4: moves %v", gcMoves(p, "f4"))
	}
	for _, bad := range []string{"f4-g4", "f4-i4", "f4-i4;g4-"} {
		if hasMove(p, bad) {
			t.Fatalf("%s must not be a move: moves %v", bad, gcMoves(p, "f4"))
		}
	}
	m, err := p.ParseMove("f4-h4")
	if err != nil {
		t.Fatal(err)
	}
	p.DoMove(m)
	if p.At(sq(t, v, "g4")) != NoPiece || p.Count(Black, v.PieceByLetter('R')) != 0 {
		t.Fatalf("after f4-h4 both g4 and h4 must be gone: %s", p)
	}
}

func TestBomberTwoAwayChecksButNotThePieceBehindTheKing(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p := setup(t, v, Black, "Ff4", "kf2", "nf1", "Kj10")
	if !p.InCheck() {
		t.Fatal("bomber f4 must check the king on f2 (helicopter landing)")
	}
	if p.Attacked(sq(t, v, "f1"), White) {
		t.Fatal("the knight on f1 behind the king must not be attacked")
	}
	q := setup(t, v, Black, "Ff4", "ka10", "nf1", "Kj10")
	if q.Attacked(sq(t, v, "f1"), White) {
		t.Fatal("with the king gone, the knight on f1 (3 away, nothing behind) must not be attacked")
	}
}

func TestBomberNoCheckWithoutEmptySquareBehindKingAndPin(t *testing.T) {
	// The author's 8x8 diagram shifted to the top edge of the 10x10 board:
	// bomber d6, king d9, rook d10.
	v := mustLoad(t, "fbgc")
	p := setup(t, v, Black, "Fd6", "kd9", "rd10", "Kj1")
	if p.InCheck() {
		t.Fatal("no check: no empty square behind d9 and d9 is 3 away")
	}
	if got := gcMoves(p, "d10"); len(got) != 0 {
		t.Fatalf("the rook on d10 is pinned: it has moves %v", got)
	}
	if got := gcMoves(p, "d9"); len(got) == 0 {
		t.Fatal("the king can move away")
	}
	q := setup(t, v, Black, "Fd6", "ka9", "rd10", "Kj1")
	if q.Attacked(sq(t, v, "d10"), White) {
		t.Fatal("with the king gone the rook on d10 is not attacked: no square beyond it")
	}
}

func TestBomberCannotCaptureAdjacentWhenFriendBehind(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p := setup(t, v, White, "Fd4", "re4", "Pf4", "Kj1", "kj10")
	for _, m := range gcMoves(p, "d4") {
		if m == "d4-e4" || m == "d4-f4" || m == "d4-f4;e4-" {
			t.Fatalf("rook e4 with own pawn f4 behind cannot be taken, got %s", m)
		}
	}
	p = setup(t, v, White, "Fd4", "re4", "Kj1", "kj10")
	if !hasMove(p, "d4-f4;e4-") {
		t.Fatalf("with f4 empty d4-f4 takes the rook: %v", gcMoves(p, "d4"))
	}
	p = setup(t, v, White, "Fd4", "re4", "pf4", "Kj1", "kj10")
	if !hasMove(p, "d4-f4;e4-") {
		t.Fatalf("with an enemy on f4 d4-f4 takes both: %v", gcMoves(p, "d4"))
	}
	m, _ := p.ParseMove("d4-f4")
	if _, n := p.removals(m); n != 2 {
		t.Fatalf("d4-f4 removes %d pieces, want 2", n)
	}
}

func TestBomberCapturesTwoAwayByLandingOnOrBehind(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p := setup(t, v, White, "Fd4", "pd2", "Kj1", "kj10")
	if !hasMove(p, "d4-d1;d2-") || !hasMove(p, "d4-d2") {
		t.Fatalf("d4-d1 and d4-d2 both capture d2: %v", gcMoves(p, "d4"))
	}
}

func TestBomberLeapsAdjacentFriendOnlyTwoSquares(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p := setup(t, v, White, "Fd4", "Pd5", "Kj1", "kj10")
	if !hasMove(p, "d4-d6") || hasMove(p, "d4-d7") {
		t.Fatalf("over an adjacent friend only the 2-square leap: %v", gcMoves(p, "d4"))
	}
}

func TestBomberChecksKingItFliesOver(t *testing.T) {
	v := mustLoad(t, "fbgc")
	cases := []struct {
		behind string
		check  bool
	}{{"", true}, {"nd6", true}, {"Nd6", false}}
	for _, c := range cases {
		pl := []string{"Fd4", "kd5", "Kj1"}
		if c.behind != "" {
			pl = append(pl, c.behind)
		}
		p := setup(t, v, Black, pl...)
		if p.InCheck() != c.check {
			t.Errorf("bomber d4, king d5, behind %q: check %v, want %v", c.behind, p.InCheck(), c.check)
		}
	}
}

func TestExtendedBomberLandsOnAnyEmptySquareBehind(t *testing.T) {
	want := map[string][]string{
		"fbgc":            {"a4-e4;d4-"},
		"fbgc-superpower": {"a4-e4;d4-", "a4-f4;d4-", "a4-g4;d4-"},
	}
	for name, w := range want {
		v := mustLoad(t, name)
		p := setup(t, v, White, "Fa4", "pd4", "ph4", "Kj1", "kj10")
		var got []string
		for _, m := range gcMoves(p, "a4") {
			if strings.Contains(m, ";") {
				got = append(got, m)
			}
		}
		if !slices.Equal(got, w) {
			t.Errorf("%s: captures %v, want %v (never past a second piece)", name, got, w)
		}
	}
}

func TestGrandPawnStepsToTheMiddleRank(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p := setup(t, v, White, "Pb2", "Pd3", "Pf4", "Ph5", "Kj1", "kj10")
	want := map[string][]string{
		"b2": {"b2-b3", "b2-b4", "b2-b5"},
		"d3": {"d3-d4", "d3-d5"},
		"f4": {"f4-f5"},
		"h5": {"h5-h6"},
	}
	for from, w := range want {
		if got := gcMoves(p, from); !slices.Equal(got, w) {
			t.Errorf("pawn %s: %v, want %v", from, got, w)
		}
	}
	q := setup(t, v, Black, "pb9", "pd7", "Kj1", "kj10")
	if got := gcMoves(q, "b9"); !slices.Equal(got, []string{"b9-b6", "b9-b7", "b9-b8"}) {
		t.Errorf("black pawn b9: %v", got)
	}
	if got := gcMoves(q, "d7"); !slices.Equal(got, []string{"d7-d6"}) {
		t.Errorf("black pawn d7: %v", got)
	}
}

func TestGrandPawnEnPassantOverSeveralSquares(t *testing.T) {
	v := mustLoad(t, "fbgc")
	cases := []struct {
		pieces         []string
		move, ep, take string
	}{
		{[]string{"Pa2", "pb4"}, "a2-a4", "a3", "b4-a3;a4-"},
		{[]string{"Pa2", "pb4"}, "a2-a5", "a3a4", "b4-a3;a5-"},
		{[]string{"Pa2", "pb5"}, "a2-a5", "a3a4", "b5-a4;a5-"},
		{[]string{"Pa3", "pb5"}, "a3-a5", "a4", "b5-a4;a5-"},
	}
	for _, c := range cases {
		p := setup(t, v, White, append(c.pieces, "Kj1", "kj10")...)
		m, err := p.ParseMove(c.move)
		if err != nil {
			t.Fatal(err)
		}
		p.DoMove(m)
		if got := p.String(); !containsField(got, 3, c.ep) {
			t.Errorf("after %s: en passant field of %q, want %s", c.move, got, c.ep)
		}
		if !hasMove(p, c.take) {
			t.Errorf("after %s: en passant %s missing from %v", c.move, c.take, gcMoves(p, ""))
			continue
		}
		m, _ = p.ParseMove(c.take)
		u := p.DoMove(m)
		if p.Count(White, v.PieceByLetter('P')) != 0 {
			t.Errorf("%s did not remove the pawn", c.take)
		}
		p.UndoMove(u)
		// Only on the very next move.
		m, _ = p.ParseMove("j10-i10")
		p.DoMove(m)
		m, _ = p.ParseMove("j1-i1")
		p.DoMove(m)
		if hasMove(p, c.take) {
			t.Errorf("en passant %s still possible a move later", c.take)
		}
	}
}

func TestFlexibleCastlingHasSevenWays(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p, err := v.ParsePosition("frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FR3K2RF w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	got := castles(p)
	want := []string{"b1-c1;f1-b1", "b1-d1;f1-c1", "b1-e1;f1-d1", "f1-e1;b1-f1", "f1-g1;i1-f1", "i1-g1;f1-h1", "i1-h1;f1-i1"}
	if !slices.Equal(got, want) {
		t.Fatalf("castlings %v, want %v", got, want)
	}
	// Black the same on rank 10, and either order reads back.
	p, _ = v.ParsePosition("fr3k2rf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FR3K2RF b KQkq - 0 1")
	for _, text := range []string{"i10-h10;f10-i10", "f10-i10;i10-h10", "f10i10O"} {
		m, err := p.ParseMove(text)
		if err != nil || m.Kind() != Castle || v.Geo.Name(m.To()) != "i10" {
			t.Fatalf("%s: %v %v", text, m, err)
		}
	}
	if m, _ := p.ParseMove("f10-g10"); m.Kind() == Castle {
		t.Fatal("a bare f10-g10 is the king's step, never a castle")
	}
}

func TestCastlingNotThroughOrIntoAttackButRookMayPass(t *testing.T) {
	v := mustLoad(t, "fbgc")
	// A black rook on g5 attacks g1: no king-side castling (f1-g1 lands on it,
	// f1-h1 and f1-i1 pass it). A black rook on c5 attacks c1: the king may not
	// pass or land on c1, but the rook may pass it (f1-d1 with b1-e1).
	p, err := v.ParsePosition("5k4/10/10/10/10/2r3r3/10/10/10/FR3K2RF w KQ - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := castles(p), []string{"b1-e1;f1-d1", "f1-e1;b1-f1"}; !slices.Equal(got, want) {
		t.Fatalf("castlings %v, want %v", got, want)
	}
	// In check: none.
	p, _ = v.ParsePosition("5k4/10/10/10/10/5r4/10/10/10/FR3K2RF w KQ - 0 1")
	if got := castles(p); len(got) != 0 {
		t.Fatalf("castling out of check: %v", got)
	}
}

func TestCastlingRightEndsWhenRookIsFlownOver(t *testing.T) {
	v := mustLoad(t, "fbgc")
	p, err := v.ParsePosition("5k4/10/10/10/10/10/10/10/10/FR3K2Rf b KQ - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.ParseMove("j1-h1")
	if err != nil {
		t.Fatal(err)
	}
	p.DoMove(m)
	if got := p.String(); !containsField(got, 2, "Q") {
		t.Fatalf("after the bomber flies over i1 the K right must end: %s", got)
	}
}

func castles(p *Position) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		if m.Kind() == Castle {
			out = append(out, p.FormatGC(m))
		}
	}
	slices.Sort(out)
	return out
}

func containsField(text string, i int, want string) bool {
	f := splitFields(text)
	return len(f) > i && f[i] == want
}

func splitFields(s string) []string {
	var out []string
	cur := ""
	for _, c := range s {
		if c == ' ' {
			out = append(out, cur)
			cur = ""
			continue
		}
		cur += string(c)
	}
	return append(out, cur)
}

func sq(t testing.TB, v *Variant, name string) Square {
	t.Helper()
	s, err := v.Geo.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHangarsPromoteOnRankEightAndHolesBlock(t *testing.T) {
	v := mustLoad(t, "hangars")
	p := setup(t, v, White, "Pg7", "Fa0", "Ke1", "ke8")
	want := []string{"g7-g8;B-g8", "g7-g8;F-g8", "g7-g8;N-g8", "g7-g8;Q-g8", "g7-g8;R-g8"}
	if got := gcMoves(p, "g7"); !slices.Equal(got, want) {
		t.Fatalf("hangars pawn g7: %v, want %v", got, want)
	}
	got := gcMoves(p, "a0")
	if len(got) != 9 || !slices.Contains(got, "a0-a9") {
		t.Fatalf("hangar bomber a0 slides a1-a9 only (the holes b0-g0 block the rank): %v", got)
	}
	p, err := v.ParsePosition("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
	if err == nil {
		t.Fatalf("hangars has 10 ranks: %s read", p)
	}
	p, err = v.ParsePosition("f******f/r3k2r/8/8/8/8/8/8/R3K2R/F******F w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := castles(p); !slices.Equal(got, []string{"a1-d1;e1-c1", "h1-f1;e1-g1"}) {
		t.Fatalf("hangars castling %v", got)
	}
}
