package env

import (
	"math/rand/v2"
	"testing"
)

// refMoves is a slow reference move generator written from the rule text
// alone, sharing nothing with movegen.go but the variant's parameters: for
// every own piece and every square of the board it decides from coordinates
// whether RULES.md allows the move, then keeps the moves after which no
// enemy move removes the king (slowLegal).
func refMoves(p *Position) map[Move]bool {
	v := p.v
	g := v.Geo
	us := p.side
	out := map[Move]bool{}
	if k := p.king[us.Other()]; v.scepter[us.Other()].has(k) {
		return out
	}
	fwd := 1
	if us == Black {
		fwd = -1
	}
	rel := func(s Square) int { return v.relRank(us, g.Rank(s)) }
	colorOf := func(s Square) int { // 0 empty, 1 own, 2 enemy
		q := p.board[s]
		switch {
		case q == NoPiece:
			return 0
		case q.Color() == us:
			return 1
		}
		return 2
	}
	cell := func(f, r int) (Square, bool, bool) { // square, on grid, real
		s := g.At(f, r)
		if s == NoSquare {
			return NoSquare, false, false
		}
		return s, true, g.real[s]
	}
	addPawn := func(from, to Square, kind MoveKind) {
		if rel(to) == v.promoRank {
			for _, t := range v.promoTo {
				out[newMove(from, to, t, kind)] = true
			}
			return
		}
		out[newMove(from, to, 0, kind)] = true
	}
	for from := Square(0); int(from) < g.Cells(); from++ {
		q := p.board[from]
		if !g.real[from] || q == NoPiece || q.Color() != us {
			continue
		}
		t := &v.Pieces[q.Type()]
		ff, fr := g.File(from), g.Rank(from)
		if t.Pawn != NotPawn {
			r := rel(from)
			// Forward runs over empty squares.
			maxN, limit := 1, v.promoRank
			switch t.Pawn {
			case GrandPawn:
				maxN, limit = 3, v.middle
			case OrthodoxPawn, SlidingPawn:
				if r == v.double {
					maxN = 2
				}
			case NinjaPawn:
				if r < v.middle {
					maxN, limit = 3, v.middle
				} else if r > v.middle {
					maxN = 2
				}
			}
			for n := 1; n <= maxN; n++ {
				s, _, ok := cell(ff, fr+n*fwd)
				if !ok || colorOf(s) != 0 || rel(s) > v.promoRank || n > 1 && rel(s) > limit {
					break
				}
				addPawn(from, s, Normal)
			}
			ahead, _, aheadOK := cell(ff, fr+fwd)
			for _, dx := range []int{-1, 1} {
				s, _, ok := cell(ff+dx, fr+fwd)
				if !ok {
					continue
				}
				switch {
				case colorOf(s) == 2:
					addPawn(from, s, Normal)
				case t.Pawn != NinjaPawn && p.isEP(s):
					out[newMove(from, s, 0, EnPassant)] = true
				case t.Pawn == SlidingPawn && colorOf(s) == 0 && aheadOK && colorOf(ahead) == 2:
					addPawn(from, s, Normal)
				}
				if t.Pawn == NinjaPawn {
					side, _, ok := cell(ff+dx, fr)
					if ok && (colorOf(side) == 0 || colorOf(side) == 2 && r > v.middle) {
						out[newMove(from, side, 0, Normal)] = true
					}
				}
			}
			continue
		}
		for to := Square(0); int(to) < g.Cells(); to++ {
			if !g.real[to] || to == from || colorOf(to) == 1 {
				continue
			}
			dx, dy := g.File(to)-ff, g.Rank(to)-fr
			ok, fly := false, false
			if m, has := t.leapOffsets[[2]int{dx, dy}]; has {
				if colorOf(to) == 0 && m&modeMove != 0 || colorOf(to) == 2 && m&modeCapture != 0 {
					ok = true
				}
			}
			// Lines: the same direction, coordinates stepped one cell at a time.
			d := -1
			for i := 0; i < 8; i++ {
				n := max(abs(dx), abs(dy))
				if n > 0 && dx == n*dirDX[i] && dy == n*dirDY[i] {
					d = i
				}
			}
			if d >= 0 {
				bit := uint8(1) << d
				n := max(abs(dx), abs(dy))
				var between []Square // real squares strictly between, in order
				blocked := false
				for k := 1; k < n; k++ {
					s, _, real := cell(ff+k*dirDX[d], fr+k*dirDY[d])
					if !real {
						if !g.Transparent {
							blocked = true
						}
						continue
					}
					between = append(between, s)
				}
				var pieces []Square
				for _, s := range between {
					if colorOf(s) != 0 {
						pieces = append(pieces, s)
					}
				}
				if !blocked {
					if len(pieces) == 0 && (colorOf(to) == 0 && t.slideMove&bit != 0 || colorOf(to) == 2 && t.slideCap&bit != 0) {
						ok = true
					}
					if len(pieces) == 1 && colorOf(pieces[0]) == 2 && colorOf(to) == 0 && t.bomb&bit != 0 {
						// Limited: to is the first real square after the enemy.
						first := between[len(between)-1] == pieces[0]
						if t.bombExt || first {
							ok, fly = true, true
						}
					}
				}
				if n == 2 && t.heli&bit != 0 {
					mid, _, real := cell(ff+dirDX[d], fr+dirDY[d])
					if real || g.Transparent {
						ok = true
						if real && colorOf(mid) == 2 {
							fly = true
						}
					}
				}
			}
			if !ok {
				continue
			}
			promo := 0
			if v.landFrom&(1<<q.Type()) != 0 && v.landSq[us].has(to) {
				promo = v.landTo
			}
			m := newMove(from, to, promo, Normal)
			if fly {
				m |= flyBit
			}
			out[m] = true
		}
		if q.Type() == v.king {
			for _, r := range v.castles[us] {
				if r.kingFrom != from || p.castle&r.right == 0 {
					continue
				}
				rook := p.board[r.rookFrom]
				if rook == NoPiece || rook.Color() != us || rook.Type() == v.king {
					continue
				}
				lo, hi := min(g.File(r.kingFrom), g.File(r.rookFrom)), max(g.File(r.kingFrom), g.File(r.rookFrom))
				clear := true
				for f := lo + 1; f < hi; f++ {
					s, _, _ := cell(f, fr)
					clear = clear && colorOf(s) == 0
				}
				for _, s := range []Square{r.kingTo, r.rookTo} {
					clear = clear && (s == r.kingFrom || s == r.rookFrom || colorOf(s) == 0)
				}
				if clear {
					out[newMove(from, r.kingTo, 0, Castle)] = true
				}
			}
		}
	}
	if v.dropType != 0 && p.hand[us][v.dropType] > 0 {
		for f := 0; f < g.Files; f++ {
			s, _, ok := cell(f, v.dropRank[us])
			if !ok || colorOf(s) != 0 {
				continue
			}
			out[newMove(s, s, v.dropType, Drop)] = true
			for n := 1; n <= v.pushMax; n++ {
				to, _, ok := cell(f, v.dropRank[us]+n*fwd)
				if !ok || colorOf(to) != 0 || rel(to) > v.middle {
					break
				}
				out[newMove(s, to, v.dropType, Drop)] = true
			}
		}
	}
	for m := range out {
		if !slowLegal(p, m) {
			delete(out, m)
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestLegalMovesEqualReferenceGenerator compares LegalMoves with the slow
// reference generator on positions from random games of every variant.
func TestLegalMovesEqualReferenceGenerator(t *testing.T) {
	games, every := 60, 5
	if testing.Short() {
		games = 15
	}
	for _, name := range append(VariantNames(), "birds-ninjas+scepter+insane-knight", "fbgc+superknights+superpower", "testdata/designer.toml") {
		v := mustLoad(t, name)
		rng := rand.New(rand.NewPCG(11, uint64(len(name))))
		n := 0
		for i := 0; i < games; i++ {
			randomGame(v, rng, 100, func(p *Position, moves []Move) {
				if n++; n%every != 0 {
					return
				}
				ref := refMoves(p)
				got := map[Move]bool{}
				for _, m := range moves {
					got[m] = true
					if !ref[m] {
						t.Fatalf("%s: %s: %s (%x) generated, not in the reference", name, p, p.FormatGC(m), uint32(m))
					}
				}
				for m := range ref {
					if !got[m] {
						t.Fatalf("%s: %s: reference move %s (%x) missing", name, p, p.FormatGC(m), uint32(m))
					}
				}
			})
		}
	}
}
