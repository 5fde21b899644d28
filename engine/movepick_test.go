package engine

import (
	"testing"
)

// TestBadCaptureIsALosingCaptureThatCanBeTakenBack checks the order's
// test of a losing capture on positions whose answer is plain: a capture
// is bad only when it takes less than its piece is worth and lands where
// the opponent can take it back.
func TestBadCaptureIsALosingCaptureThatCanBeTakenBack(t *testing.T) {
	tests := []struct {
		name, fen, move string
		bad             bool
	}{
		{"queen takes a defended pawn", "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", true},
		{"queen takes an undefended pawn", "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", false},
		{"pawn takes a defended knight", "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", false},
		{"rook takes a knight defended by a pawn", "4k3/8/2p5/3n4/8/8/8/3RK3 w - - 0 1", "d1d5", true},
		{"knight takes a defended knight", "4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5", false},
		{"promotion with capture is never bad", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8=Q", false},
	}
	e, v := newTestEngine(t, "chess", 1)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := v.ParsePosition(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := pos.ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			w := newWorker(e, 0, e.eval)
			w.pos = pos
			tac, gain := w.tactical(m)
			if !tac {
				t.Fatalf("%s is not tactical", tc.move)
			}
			if got := w.badCapture(m, gain); got != tc.bad {
				t.Errorf("badCapture(%s) = %v, want %v", tc.move, got, tc.bad)
			}
		})
	}
}
