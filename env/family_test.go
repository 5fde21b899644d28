package env

import (
	"slices"
	"strings"
	"testing"
)

// Examples from the author's texts and RULES.md for Claustrophobia and the
// Birds and Ninjas family (issue 3).

func TestClaustrophobiaBomberChecksThroughTransparentHoles(t *testing.T) {
	v := mustLoad(t, "claustrophobia")
	p := setup(t, v, White, "ff7", "Kf2", "ka8")
	if !p.InCheck() {
		t.Fatal("bomber f7 must check the king on f2 through the holes f3-f6 (landing on f1)")
	}
	if !hasMove(setup(t, v, Black, "ff7", "Ka1", "Nf2", "ka8"), "f7-f1;f2-") {
		t.Fatal("the bomber on f7 flies through the holes over f2 to f1")
	}
	p = setup(t, v, White, "ff7", "Kf2", "Nf1", "ka8")
	if p.InCheck() {
		t.Fatal("with f1 occupied the king on f2 is not in check")
	}
}

func TestClaustrophobiaLeapsLandOnlyOnRealSquares(t *testing.T) {
	v := mustLoad(t, "claustrophobia")
	// Knight g2: e3 only (e1 is its own guard, f4 a hole); the guard on e1 never lands on the hole g3.
	p := setup(t, v, White, "Ng2", "Ge1", "Ka1", "ka8")
	if got := gcMoves(p, "g2"); !slices.Equal(got, []string{"g2-e3"}) {
		t.Fatalf("knight g2: %v", got)
	}
	for _, m := range gcMoves(p, "e1") {
		if strings.HasSuffix(m, "g3") {
			t.Fatalf("guard lands on a hole: %s", m)
		}
	}
	// A bomber on f1 with transparent holes: the helicopter leap f1-f3 lands on a hole (no), f1-f8 slides through.
	p = setup(t, v, White, "Ff1", "Ka1", "ka8")
	if got := gcMoves(p, "f1"); !slices.Contains(got, "f1-f8") || !slices.Contains(got, "f1-f2") || !slices.Contains(got, "f1-f7") {
		t.Fatalf("bomber f1 slides through the holes: %v", got)
	}
}

func TestNinjaGuardStepsAndDoubleCaptures(t *testing.T) {
	v := mustLoad(t, "birds-ninjas")
	p := setup(t, v, White, "Gc4", "pb3", "nd5", "pe6", "Nb5", "pa6", "Kj1", "kj10")
	want := []string{"c4-a2;b3-", "c4-a6", "c4-b3", "c4-d3", "c4-d5", "c4-e2", "c4-e6;d5-"}
	if got := gcMoves(p, "c4"); !slices.Equal(got, want) {
		t.Fatalf("guard c4: %v, want %v", got, want)
	}
}

func TestLeapingNinjaGuardAlsoLeapsThreeOne(t *testing.T) {
	v := mustLoad(t, "birds-leaping")
	p := setup(t, v, White, "Ge5", "Kj1", "kj10")
	got := gcMoves(p, "e5")
	for _, w := range []string{"e5-f8", "e5-h6", "e5-b4", "e5-d2"} {
		if !slices.Contains(got, w) {
			t.Fatalf("leaping guard e5 misses %s: %v", w, got)
		}
	}
	if len(got) != 8+4+4 {
		t.Fatalf("leaping guard e5 on an empty board: %d moves %v, want 16", len(got), got)
	}
}

func TestBlackNinjaPawnOwnHalfAndNoEnPassant(t *testing.T) {
	v := mustLoad(t, "birds-ninjas")
	p := setup(t, v, Black, "je9", "Jf7", "Kj1", "ka10")
	want := []string{"e9-d9", "e9-e6", "e9-e7", "e9-e8", "e9-f9"}
	if got := gcMoves(p, "e9"); !slices.Equal(got, want) {
		t.Fatalf("black ninja pawn e9: %v, want %v", got, want)
	}
	m, _ := p.ParseMove("e9-e7")
	p.DoMove(m)
	if !containsField(p.String(), 3, "-") {
		t.Fatalf("a ninja pawn's multi-step gives no en passant: %s", p)
	}
	for _, m := range gcMoves(p, "f7") {
		if strings.Contains(m, "e8") {
			t.Fatalf("white f7 captures en passant: %s", m)
		}
	}
}

func TestWhiteNinjaPawnInEnemyHalf(t *testing.T) {
	v := mustLoad(t, "birds-ninjas")
	p := setup(t, v, White, "Jh9", "bi9", "Jf3", "Je7", "Kj1", "ka10")
	h9 := gcMoves(p, "h9")
	want := []string{"h9-g9", "h9-h10;B-h10", "h9-h10;F-h10", "h9-h10;G-h10", "h9-h10;N-h10", "h9-h10;Q-h10", "h9-h10;R-h10", "h9-i9"}
	if !slices.Equal(h9, want) {
		t.Fatalf("white ninja pawn h9: %v, want %v", h9, want)
	}
	if got := gcMoves(p, "f3"); !slices.Equal(got, []string{"f3-e3", "f3-f4", "f3-f5", "f3-g3"}) {
		t.Fatalf("white ninja pawn f3 shoots to the middle: %v", got)
	}
	if got := gcMoves(p, "e7"); !slices.Equal(got, []string{"e7-d7", "e7-e8", "e7-e9", "e7-f7"}) {
		t.Fatalf("white ninja pawn e7 in the enemy half: %v", got)
	}
}

func TestDropsWithOptionalPush(t *testing.T) {
	v := mustLoad(t, "birds-ninjas")
	p, err := v.ParsePosition("****gg****/frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPP1PPPPP/FRNBQKBNRF/****GG****[JJJJjjjj] w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var drops []string
	for _, m := range p.LegalMoves(nil) {
		if m.Kind() == Drop {
			drops = append(drops, p.FormatGC(m))
		}
	}
	slices.Sort(drops)
	if want := []string{"~P-e2", "~P-e2;e2-e3", "~P-e2;e2-e4", "~P-e2;e2-e5"}; !slices.Equal(drops, want) {
		t.Fatalf("drops %v, want %v", drops, want)
	}
	m, err := p.ParseMove("~P-e2;e2-e5")
	if err != nil {
		t.Fatal(err)
	}
	p.DoMove(m)
	if got, want := p.String(), "****gg****/frnbqkbnrf/pppppppppp/10/10/10/4J5/10/10/PPPP1PPPPP/FRNBQKBNRF/****GG****[JJJjjjj] b KQkq - 0 1"; got != want {
		t.Fatalf("after ~P-e2;e2-e5: %s, want %s", got, want)
	}
	if _, err := p.ParseMove("~P-e9"); err == nil {
		t.Fatal("black cannot drop on the occupied e9")
	}
}

func TestDropCanMate(t *testing.T) {
	v := mustLoad(t, "fbgc-ninjapawns")
	// Black king h9 boxed by its own pieces; a white pawn dropped on g... Black's
	// 2nd rank is 9, so White drops on rank 2: use a king on rank 3 instead.
	p := setup(t, v, Black, "kh3", "pg3", "pi3", "ph4", "pg4", "pi4", "Kj10", "Qa2")
	p.hand = [2][maxTypes]uint8{}
	p.hand[White][v.dropType] = 1
	p.side = White
	p.hash = p.computeHash()
	m, err := p.ParseMove("~P-g2")
	if err != nil {
		t.Fatalf("drop: %v (moves %v)", err, gcMoves(p, ""))
	}
	p.DoMove(m)
	if !p.InCheck() {
		t.Fatalf("the dropped pawn on g2 checks h3: %s", p)
	}
}

func TestDiagonalBomberExample(t *testing.T) {
	v := mustLoad(t, "birds-only")
	p := setup(t, v, White, "Dd4", "pb6", "ng7", "pe3", "rf2", "pc3", "Pb2", "Kj5", "ka10")
	got := gcMoves(p, "d4")
	for _, w := range []string{"d4-a7;b6-", "d4-b6", "d4-h8;g7-", "d4-f2;e3-"} {
		if !slices.Contains(got, w) {
			t.Errorf("diagonal bomber d4 misses %s: %v", w, got)
		}
	}
	for _, bad := range []string{"d4-e3", "d4-g1", "d4-c3", "d4-b2", "d4-a1"} {
		for _, m := range got {
			if strings.HasPrefix(m, bad) {
				t.Errorf("diagonal bomber d4 must not play %s: %v", m, got)
			}
		}
	}
}

func TestScepterWinsOnEnemyPalace(t *testing.T) {
	v := mustLoad(t, "claustrophobia")
	p := setup(t, v, White, "Ke6", "ka8", "Pa2")
	m, err := p.ParseMove("e6-f7")
	if err != nil {
		t.Fatal(err)
	}
	p.DoMove(m)
	if res, why := p.Status(); res != WhiteWins || why != Scepter {
		t.Fatalf("king on f7: %v %v, want 1-0 scepter", res, why)
	}
	if n := len(p.LegalMoves(nil)); n != 0 {
		t.Fatalf("a won game has %d moves", n)
	}
	// The winning move must itself be legal: a guard on e8 covers f7.
	p = setup(t, v, White, "Ke6", "ka8", "ge8")
	if hasMove(p, "e6-f7") {
		t.Fatal("king may not step onto the attacked f7")
	}
	v = mustLoad(t, "birds-ninjas+scepter")
	p = setup(t, v, White, "Ke10", "ka1")
	m, _ = p.ParseMove("e10-e11")
	p.DoMove(m)
	if res, why := p.Status(); res != WhiteWins || why != Scepter {
		t.Fatalf("birds-ninjas+scepter king on e11: %v %v", res, why)
	}
	if v = mustLoad(t, "birds-ninjas"); !slices.Equal(v.ScepterSquares(White), nil) {
		t.Fatal("birds-ninjas has no scepter without the option")
	}
}

func TestInsaneKnightPromotionOnLanding(t *testing.T) {
	v := mustLoad(t, "birds-ninjas+insane-knight")
	p := setup(t, v, White, "Nd9", "Gd10", "Kj1", "ka1")
	if !hasMove(p, "d9-e11;I-e11") || !hasMove(p, "d10-e11;I-e11") {
		t.Fatalf("knight/guard landing on e11 become I: %v", gcMoves(p, ""))
	}
	m, _ := p.ParseMove("d9-e11")
	p.DoMove(m)
	if p.At(sq(t, v, "e11")) != MakePiece(White, v.PieceByLetter('I')) {
		t.Fatalf("no insane knight on e11: %s", p)
	}
	// The insane knight: knight + king step + 2-square double-capture leap.
	q := setup(t, v, White, "Ie5", "pe6", "re7", "Kj1", "ka1")
	got := gcMoves(q, "e5")
	for _, w := range []string{"e5-e7;e6-", "e5-e6", "e5-f7", "e5-c5", "e5-g7"} {
		if !slices.Contains(got, w) {
			t.Fatalf("insane knight e5 misses %s: %v", w, got)
		}
	}
	if len(got) != 8+8+8 {
		t.Fatalf("insane knight e5: %d moves %v, want 24", len(got), got)
	}
}

func TestNinjaPawnHandInPositionText(t *testing.T) {
	v := mustLoad(t, "fbgc-ninjapawns")
	p := v.NewPosition()
	if got := p.String(); got != "frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBQKBNRF[PPPPPppppp] w KQkq - 0 1" {
		t.Fatalf("start text %s", got)
	}
	if p.InHand(White, v.DropType()) != 5 || p.InHand(Black, v.DropType()) != 5 {
		t.Fatal("five ninja pawns in hand each")
	}
}

func TestSlidingPawnStepsAroundAnEnemyInFront(t *testing.T) {
	v := mustLoad(t, "claustrophobia")
	p := setup(t, v, White, "Pc4", "pc5", "nd5", "Ka1", "ka8")
	if got := gcMoves(p, "c4"); !slices.Equal(got, []string{"c4-b5", "c4-d5"}) {
		t.Fatalf("sliding pawn c4 blocked by an enemy: %v, want c4-b5 (slide) and c4-d5 (capture)", got)
	}
	p = setup(t, v, White, "Pc4", "Nc5", "Ka1", "ka8")
	if got := gcMoves(p, "c4"); len(got) != 0 {
		t.Fatalf("blocked by its own piece the sliding pawn has no moves: %v", got)
	}
	// The slide onto the last rank promotes.
	p = setup(t, v, White, "Pb7", "gb8", "Ka1", "ke8")
	if got := gcMoves(p, "b7"); !slices.Contains(got, "b7-a8;M-a8") || !slices.Contains(got, "b7-c8;G-c8") {
		t.Fatalf("sliding onto rank 8 promotes: %v", got)
	}
	// A diagonal step onto the en-passant square is the en-passant capture.
	p = setup(t, v, Black, "Pc4", "pd7", "Ka1", "ka8")
	m, _ := p.ParseMove("d7-d5")
	p.DoMove(m)
	m, err := p.ParseMove("c4-d5")
	if err != nil || m.Kind() != Normal {
		t.Fatalf("c4-d5 after d7-d5 is an ordinary capture of the pawn on d5: %v %v", m, err)
	}
	p = setup(t, v, Black, "Pc5", "pd7", "Ka1", "ka8")
	m, _ = p.ParseMove("d7-d5")
	p.DoMove(m)
	if m, err = p.ParseMove("c5-d6"); err != nil || m.Kind() != EnPassant {
		t.Fatalf("c5-d6 after d7-d5 must be the en-passant capture: %v %v", m, err)
	}
}
