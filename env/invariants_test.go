package env

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRandomGameInvariants plays random games in every built-in variant and
// checks, at every position: the incremental hash equals the recomputed one;
// the position text round-trips; every legal move's text round-trips in both
// syntaxes; no legal move removes a king or a friendly piece; DoMove then
// UndoMove restores the position exactly; and (on a share of the positions)
// the legal moves are exactly the pseudo-legal moves that pass the full
// make-and-test check (every position) and the slow,
// obviously-correct legality test. The text and undo checks run on every
// 23rd position, the slow legality test on every 97th.
func TestRandomGameInvariants(t *testing.T) {
	games, plies, textEvery, slowEvery := 1000, 100, 23, 97
	if testing.Short() {
		games = 250
	}
	for _, name := range append(VariantNames(), "birds-ninjas+scepter+insane-knight", "fbgc+superknights+superpower", "testdata/designer.toml") {
		t.Run(strings.TrimPrefix(name, "testdata/"), func(t *testing.T) {
			v := mustLoad(t, name)
			rng := rand.New(rand.NewPCG(1, uint64(len(name))))
			positions := 0
			for g := 0; g < games; g++ {
				randomGame(v, rng, plies, func(p *Position, moves []Move) {
					positions++
					checkPosition(t, p, moves, positions%textEvery == 0, positions%slowEvery == 0)
				})
				if t.Failed() {
					return
				}
			}
			t.Logf("%d games, %d positions", games, positions)
		})
	}
}

func checkPosition(t *testing.T, p *Position, moves []Move, texts, slow bool) {
	t.Helper()
	if h := p.computeHash(); h != p.hash {
		t.Fatalf("%s: incremental hash %x, recomputed %x", p, p.hash, h)
	}
	for _, m := range moves {
		sq, n := p.removals(m)
		for i := 0; i < n; i++ {
			if r := p.board[sq[i]]; r == NoPiece || r.Color() == p.side || r.Type() == p.v.king {
				t.Fatalf("%s: move %s removes %q on %s", p, p.FormatGC(m), pieceLetter(p.v, r), p.v.Geo.Name(sq[i]))
			}
		}
	}
	// The shortcut in LegalMoves (only moves from sensitive squares get the
	// full test) must give exactly the moves that pass the full test.
	if k := p.king[p.side]; k != NoSquare && (p.v.scepter[p.side.Other()] == sqSet{} || !p.v.scepter[p.side.Other()].has(p.king[p.side.Other()])) {
		var buf [MaxMoves]Move
		n := 0
		for _, m := range p.pseudoMoves(buf[:0], p.InCheck()) {
			if m.Kind() == Castle || p.safeAfter(m, k, p.side) {
				if n >= len(moves) || moves[n] != m {
					t.Fatalf("%s: legal moves differ from the fully tested ones at %s", p, p.FormatGC(m))
				}
				n++
			}
		}
		if n != len(moves) {
			t.Fatalf("%s: %d legal moves, %d pass the full test", p, len(moves), n)
		}
	}
	if !texts {
		return
	}
	text := p.String()
	q, err := p.v.ParsePosition(text)
	if err != nil {
		t.Fatalf("position text %q does not read back: %v", text, err)
	}
	if q.String() != text || q.hash != p.hash {
		t.Fatalf("position text round trip: %q became %q", text, q.String())
	}
	for _, m := range moves {
		for _, s := range []string{p.FormatMove(m), p.FormatGC(m)} {
			got, err := p.ParseMove(s)
			if err != nil || got != m {
				t.Fatalf("%s: move text %q of %v reads back as %v, %v", text, s, m, got, err)
			}
		}
		u := p.DoMove(m)
		p.UndoMove(u)
		if p.String() != text || p.computeHash() != p.hash {
			t.Fatalf("%s: move %s not undone: %s", text, p.FormatGC(m), p)
		}
	}
	if !slow {
		return
	}
	legal := map[Move]bool{}
	for _, m := range moves {
		if legal[m] {
			t.Fatalf("%s: move %s generated twice", text, p.FormatGC(m))
		}
		legal[m] = true
		if !slowLegal(p, m) {
			t.Fatalf("%s: generated move %s is illegal by the slow test", text, p.FormatGC(m))
		}
	}
	var buf [MaxMoves]Move
	all := p.pseudoMoves(buf[:0], false)
	if k := p.king[p.side.Other()]; k != NoSquare && p.v.scepter[p.side.Other()].has(k) {
		if len(moves) != 0 {
			t.Fatalf("%s: moves after a scepter win", text)
		}
		return
	}
	for _, m := range all {
		if !legal[m] && slowLegal(p, m) {
			t.Fatalf("%s: legal move %s missing", text, p.FormatGC(m))
		}
	}
}
