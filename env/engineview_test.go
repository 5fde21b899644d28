package env

import (
	"slices"
	"testing"
)

func TestNullMoveIsUndoneExactly(t *testing.T) {
	v, _ := LoadVariant("chess")
	p, _ := PlayMoves(v.NewPosition(), "e2e4")
	before, beforeText := p.Hash(), p.String()
	u := p.DoNull()
	if p.SideToMove() != White || p.Hash() == before || p.Hash() != p.computeHash() {
		t.Errorf("after the pass: side %v, hash %x (was %x, recomputed %x)", p.SideToMove(), p.Hash(), before, p.computeHash())
	}
	p.UndoNull(u)
	if p.Hash() != before || p.String() != beforeText {
		t.Errorf("after undoing the pass: %s %x, want %s %x", p, p.Hash(), beforeText, before)
	}
}

func TestRepetitionCountsAndDatesTheLatest(t *testing.T) {
	v, _ := LoadVariant("chess")
	cases := []struct {
		moves        string
		count, plies int
	}{
		{"", 0, 0},
		{"g1f3 g8f6", 0, 0},
		{"g1f3 g8f6 f3g1 f6g8", 1, 4},
		{"g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", 2, 4},
	}
	for _, c := range cases {
		p, err := PlayMoves(v.NewPosition(), c.moves)
		if err != nil {
			t.Fatal(err)
		}
		if n, d := p.Repetition(); n != c.count || d != c.plies || n != p.Repetitions() {
			t.Errorf("%q: repetition %d, %d plies ago; want %d, %d", c.moves, n, d, c.count, c.plies)
		}
	}
}

func TestPiecesListsEachSidesSquares(t *testing.T) {
	v, _ := LoadVariant("claustrophobia")
	p := v.NewPosition()
	var buf [maxCells]Square
	for c := White; c <= Black; c++ {
		got := p.Pieces(c, buf[:0])
		var want []Square
		for s := 0; s < v.Geo.Cells(); s++ {
			if q := p.At(Square(s)); q != NoPiece && q.Color() == c {
				want = append(want, Square(s))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%v: Pieces %v, want %v", c, got, want)
		}
	}
}

func TestMobilityCountsPieceMovesForEitherSide(t *testing.T) {
	v, _ := LoadVariant("chess")
	p := v.NewPosition()
	// At the start only the knights move: 4 moves a side.
	if w, b := p.Mobility(White), p.Mobility(Black); w != 4 || b != 4 {
		t.Errorf("start mobility %d, %d; want 4, 4", w, b)
	}
	if p.SideToMove() != White {
		t.Errorf("Mobility changed the side to move")
	}
}

func TestScepterWonNeedsNoMoves(t *testing.T) {
	v, _ := LoadVariant("claustrophobia")
	p, err := v.ParsePosition("5K*/7/5**/5**/5**/5**/7/k5* b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if !p.ScepterWon() || !v.IsScepter(White, p.KingSquare(White)) {
		t.Errorf("white king on f8 has not won")
	}
	if r, why := p.Status(); r != WhiteWins || why != Scepter {
		t.Errorf("status %v %v, want the scepter win", r, why)
	}
}
