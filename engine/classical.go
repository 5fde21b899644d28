package engine

import (
	"fmt"
	"math/rand/v2"

	"bomberzero/env"
)

// Weights are the classical evaluation's terms, in centipawns: the
// numbers Texel's method will tune. Each is what one unit of its term is
// worth; a zero turns the term off.
type Weights struct {
	// Material scales the piece table, in percent (100: as given).
	Material int32
	// Centre is the bonus of a piece (not pawn or king) per step from the
	// board's edge toward its centre.
	Centre int32
	// PawnAdvance is the bonus of a pawn one step short of promotion; it
	// grows with the square of the pawn's progress from its start rank.
	PawnAdvance int32
	// MobilityTenths is the worth of one pseudo-legal move of a piece, in
	// tenths of a centipawn.
	MobilityTenths int32
	// KingShelter is the bonus per own piece next to the king, in the
	// middlegame.
	KingShelter int32
	// KingTropism is the penalty per enemy piece (not pawn) within two
	// steps of the king, in the middlegame.
	KingTropism int32
	// KingCentre is the king's bonus per step toward the centre in the
	// endgame (its penalty in the middlegame).
	KingCentre int32
	// Scepter is the king's bonus per step toward the nearest square on
	// which it wins, in the endgame; half of it in the middlegame.
	Scepter int32
	// Doubled and Isolated are penalties per pawn.
	Doubled, Isolated int32
	// Passed is the bonus of a passed pawn at its start rank; it doubles by
	// the promotion rank.
	Passed int32
	// Tempo is the side to move's bonus.
	Tempo int32
}

// DefaultWeights returns hand-set weights, a starting point for tuning.
func DefaultWeights() Weights {
	return Weights{
		Material: 100, Centre: 4, PawnAdvance: 60, MobilityTenths: 20,
		KingShelter: 8, KingTropism: 10, KingCentre: 6, Scepter: 12,
		Doubled: 15, Isolated: 12, Passed: 20, Tempo: 10,
	}
}

// maxSquares holds any board's squares (env allows at most 240 cells).
const maxSquares = 256

// Classical is the hand-written evaluation, derived from the variant's
// data alone: material from the piece table, piece-square terms
// (centralisation, pawns' progress to promotion, the king's shelter and
// its walk to the centre or the scepter in the endgame), mobility, and
// pawn structure (doubled, isolated, passed), blended between middlegame
// and endgame by the material left.
type Classical struct {
	v     *env.Variant
	w     Weights
	value []int32 // centipawns by piece type, scaled by w.Material
	// psq[c][t][s] is the piece-square bonus of side c's piece of type t on
	// s, kings aside (kingMg, kingEg).
	psq            [2][][maxSquares]int32
	kingMg, kingEg [2][maxSquares]int32
	pawn           []bool // pawn types
	startPhase     int32  // non-pawn material of the start position
	buf            [maxSquares]env.Square
	pawnsOn        [2][16]int8 // pawns per file, for each side
	pawnRanks      [2][16][2]int8
	// zone[s] lists the squares within two king steps of s (s aside), the
	// king-safety neighbourhood, so that Evaluate walks no geometry.
	zone [][]zoneSquare
	// cache holds full evaluations by position key: a search meets the
	// same leaves again in each iteration.
	cache *[evalCacheSize]cachedEval
	// pawnZ[c][t][s] is the key of side c's pawn of type t on s (zero for
	// other types), pawnCache the pawn-structure terms by the XOR of those
	// keys: the pawns change far less often than the rest.
	pawnZ     [2][][maxSquares]uint64
	pawnCache *[pawnCacheSize]cachedPawns
}

// pawnCacheSize is the number of pawn structures a Classical keeps (a power of two).
const pawnCacheSize = 1 << 12

// cachedPawns is the pawn-structure terms of both sides for the pawns
// whose key is key.
type cachedPawns struct {
	key   uint64
	used  bool
	score [2]int32
}

// psqState is the part of the classical evaluation a move changes only
// through the pieces it moves, removes, promotes or drops: the search keeps
// it on make and unmake (applyMove) instead of summing the board at every
// node, and stateOf computes it from scratch. Every field is a sum over the
// pieces, so the order of the updates does not matter.
type psqState struct {
	score    [2]int32 // material on the board and in hand, piece-square terms, kings aside
	kmg, keg [2]int32 // the king's middlegame and endgame squares
	phase    int32    // non-pawn material, board and hand
	pawnKey  uint64   // the XOR of pawnZ over the pawns on the board
}

// zoneSquare is one square of a king's neighbourhood; near says it is
// next to the king (one step), else two steps away.
type zoneSquare struct {
	sq   env.Square
	near bool
}

// evalCacheSize is the number of evaluations a Classical keeps (a power of two).
const evalCacheSize = 1 << 14

// cachedEval is one full evaluation of the position with key key.
type cachedEval struct {
	key   uint64
	score int32
}

// NewClassical returns the classical evaluation of variant v with piece
// values table (centipawns by type index, as agent.Values.Table gives).
func NewClassical(v *env.Variant, table []int32, w Weights) (*Classical, error) {
	if len(table) != len(v.Pieces) {
		return nil, fmt.Errorf("classical evaluation: piece table of %d types for variant %s with %d: want one value per type", len(table)-1, v.Name, len(v.Pieces)-1)
	}
	if w.Material < 0 || w.Material > 1000 {
		return nil, fmt.Errorf("classical evaluation: material weight %d%%: want 0 to 1000", w.Material)
	}
	e := &Classical{v: v, w: w, value: make([]int32, len(table)), pawn: make([]bool, len(table)),
		cache: new([evalCacheSize]cachedEval), pawnCache: new([pawnCacheSize]cachedPawns)}
	for t := range table {
		e.value[t] = table[t] * w.Material / 100
		if t > 0 {
			e.pawn[t] = v.Pieces[t].Pawn != env.NotPawn
		}
	}
	rng := rand.New(rand.NewPCG(0x9a3b, uint64(len(table))))
	for c := range e.pawnZ {
		e.pawnZ[c] = make([][maxSquares]uint64, len(table))
		for t := range table {
			if e.pawn[t] {
				for q := range e.pawnZ[c][t] {
					e.pawnZ[c][t][q] = rng.Uint64()
				}
			}
		}
	}
	g := v.Geo
	start := v.NewPosition()
	for c := env.White; c <= env.Black; c++ {
		for _, s := range start.Pieces(c, e.buf[:0]) {
			if t := start.At(s).Type(); !e.pawn[t] {
				e.startPhase += e.value[t]
			}
		}
		for t := 1; t < len(v.Pieces); t++ {
			e.startPhase += int32(start.InHand(c, t)) * e.value[t] * b2i(!e.pawn[t])
		}
	}
	e.startPhase = max(e.startPhase, 1)
	// The pawns' start rank, as White sees it: the lowest rank a pawn of
	// either side stands on at the start.
	startRank := g.FirstRank + 1
	found := false
	for c := env.White; c <= env.Black; c++ {
		for _, s := range start.Pieces(c, e.buf[:0]) {
			if e.pawn[start.At(s).Type()] {
				r := v.RelativeRank(c, g.Rank(s))
				if !found || r < startRank {
					startRank, found = r, true
				}
			}
		}
	}
	promo := v.PromotionRank()
	span := int32(max(promo-startRank, 1))
	centre := func(s env.Square) int32 {
		f, r := g.File(s), g.Rank(s)-g.FirstRank
		return int32(min(f, g.Files-1-f) + min(r, g.Ranks-1-r))
	}
	scepterDist := func(c env.Color, s env.Square) (int32, bool) {
		best, any := int32(1<<30), false
		for q := 0; q < g.Cells(); q++ {
			if sq := env.Square(q); g.IsReal(sq) && v.IsScepter(c, sq) {
				d := int32(max(abs(g.File(sq)-g.File(s)), abs(g.Rank(sq)-g.Rank(s))))
				best, any = min(best, d), true
			}
		}
		return best, any
	}
	reach := int32(max(g.Files, g.Ranks))
	e.zone = make([][]zoneSquare, g.Cells())
	for q := range e.zone {
		kf, kr := g.File(env.Square(q)), g.Rank(env.Square(q))
		for df := -2; df <= 2; df++ {
			for dr := -2; dr <= 2; dr++ {
				if s := g.At(kf+df, kr+dr); s != env.NoSquare && s != env.Square(q) {
					near := df >= -1 && df <= 1 && dr >= -1 && dr <= 1
					e.zone[q] = append(e.zone[q], zoneSquare{s, near})
				}
			}
		}
	}
	for c := env.White; c <= env.Black; c++ {
		e.psq[c] = make([][maxSquares]int32, len(v.Pieces))
		for t := 1; t < len(v.Pieces); t++ {
			for q := 0; q < g.Cells(); q++ {
				s := env.Square(q)
				if !g.IsReal(s) {
					continue
				}
				switch {
				case t == v.KingType():
					e.kingMg[c][s] = -w.KingCentre * centre(s)
					e.kingEg[c][s] = w.KingCentre * centre(s)
					if d, ok := scepterDist(c, s); ok {
						e.kingEg[c][s] += w.Scepter * (reach - d)
						e.kingMg[c][s] += w.Scepter * (reach - d) / 2
					}
				case e.pawn[t]:
					if promo != 0 {
						p := int32(max(v.RelativeRank(c, g.Rank(s))-startRank, 0))
						e.psq[c][t][s] = w.PawnAdvance * p * p / (span * span)
					}
				default:
					e.psq[c][t][s] = w.Centre * centre(s)
				}
			}
		}
	}
	return e, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// Name returns "classical".
func (e *Classical) Name() string { return "classical" }

// Fork returns a copy with its own scratch space and cache.
func (e *Classical) Fork() Evaluator {
	f := *e
	f.cache = new([evalCacheSize]cachedEval)
	f.pawnCache = new([pawnCacheSize]cachedPawns)
	return &f
}

// Weights returns the weights the evaluation was built with.
func (e *Classical) Weights() Weights { return e.w }

// lazyMargin bounds the terms EvaluateWithin may leave out (mobility):
// a partial score this far outside the window stays outside it.
const lazyMargin = 250

// Evaluate returns pos's score in centipawns for the side to move.
func (e *Classical) Evaluate(pos *env.Position) int32 {
	return e.EvaluateWithin(pos, -Infinite, Infinite)
}

// EvaluateWithin returns pos's score for the side to move when it lies in
// (alpha, beta); a score outside the window by more than lazyMargin
// without the mobility term, the most costly one, may be returned as is.
func (e *Classical) EvaluateWithin(pos *env.Position, alpha, beta int32) int32 {
	key := pos.Hash()
	slot := &e.cache[key&(evalCacheSize-1)]
	if slot.key == key && key != 0 {
		return slot.score
	}
	st := e.stateOf(pos)
	return e.finish(pos, &st, slot, alpha, beta)
}

// evaluateFrom is EvaluateWithin for a position whose incremental terms
// st are known (kept by the search): the same score, without summing the
// board.
func (e *Classical) evaluateFrom(pos *env.Position, st *psqState, alpha, beta int32) int32 {
	key := pos.Hash()
	slot := &e.cache[key&(evalCacheSize-1)]
	if slot.key == key && key != 0 {
		return slot.score
	}
	return e.finish(pos, st, slot, alpha, beta)
}

// stateOf returns pos's incremental terms, summed from scratch.
func (e *Classical) stateOf(pos *env.Position) psqState {
	var st psqState
	for c := env.White; c <= env.Black; c++ {
		for t := 1; t < len(e.value); t++ {
			if n := pos.InHand(c, t); n > 0 {
				e.hand(&st, c, t, int32(n))
			}
		}
		for _, s := range pos.Pieces(c, e.buf[:0]) {
			e.place(&st, c, pos.At(s).Type(), s, 1)
		}
	}
	return st
}

// place adds sign (1 or -1) times side c's piece of type t on s to st.
func (e *Classical) place(st *psqState, c env.Color, t int, s env.Square, sign int32) {
	if t == e.v.KingType() {
		st.kmg[c] += sign * e.kingMg[c][s]
		st.keg[c] += sign * e.kingEg[c][s]
		return
	}
	st.score[c] += sign * (e.value[t] + e.psq[c][t][s])
	if e.pawn[t] {
		st.pawnKey ^= e.pawnZ[c][t][s]
	} else {
		st.phase += sign * e.value[t]
	}
}

// hand adds n of side c's pieces of type t in hand to st (n < 0 takes them off).
func (e *Classical) hand(st *psqState, c env.Color, t int, n int32) {
	st.score[c] += n * e.value[t]
	if !e.pawn[t] {
		st.phase += n * e.value[t]
	}
}

// applyMove updates st, the terms of the position before move m, to those
// of pos, the position after it, with u what DoMove returned. A castle is
// summed again (rare, and its rook's squares are the variant's).
func (e *Classical) applyMove(st *psqState, pos *env.Position, m env.Move, u *env.Undo) {
	us := pos.SideToMove().Other()
	switch m.Kind() {
	case env.Castle:
		*st = e.stateOf(pos)
	case env.Drop:
		t := m.Promotion()
		e.hand(st, us, t, -1)
		e.place(st, us, t, m.To(), 1)
	default:
		e.place(st, us, u.Moved().Type(), m.From(), -1)
		for i := 0; i < u.Captures(); i++ {
			s, q := u.Capture(i)
			e.place(st, q.Color(), q.Type(), s, -1)
		}
		e.place(st, us, pos.At(m.To()).Type(), m.To(), 1)
	}
}

// finish returns the score of pos from its incremental terms st: the pawn
// structure (from the pawn cache), the king's safety and phase blend, the
// tempo and, unless the window lets it be left out, the mobility; the full
// score is stored in slot.
func (e *Classical) finish(pos *env.Position, st *psqState, slot *cachedEval, alpha, beta int32) int32 {
	score, kmg := st.score, st.kmg
	ps := e.pawnTerms(pos, st.pawnKey)
	score[0] += ps[0]
	score[1] += ps[1]
	e.kingSafety(pos, &kmg)
	// Blend the king's terms by the material left: 256 at the start, 0 with
	// pawns and kings alone.
	ph := min(st.phase*256/e.startPhase, 256)
	for c := range score {
		score[c] += (kmg[c]*ph + st.keg[c]*(256-ph)) / 256
	}
	us := pos.SideToMove()
	s := score[us] - score[us.Other()] + e.w.Tempo
	if e.w.MobilityTenths != 0 {
		if s+lazyMargin <= alpha || s-lazyMargin >= beta {
			return s // outside the window whatever the mobility: not cached
		}
		s += int32(pos.Mobility(us)-pos.Mobility(us.Other())) * e.w.MobilityTenths / 10
	}
	*slot = cachedEval{pos.Hash(), s}
	return s
}

// pawnTerms returns both sides' pawn-structure terms for pos, whose pawns
// have the key key: from the pawn cache, or gathered from the board.
func (e *Classical) pawnTerms(pos *env.Position, key uint64) [2]int32 {
	slot := &e.pawnCache[key&(pawnCacheSize-1)]
	if slot.used && slot.key == key {
		return slot.score
	}
	g := e.v.Geo
	e.pawnsOn = [2][16]int8{}
	for c := env.White; c <= env.Black; c++ {
		for _, s := range pos.Pieces(c, e.buf[:0]) {
			if !e.pawn[pos.At(s).Type()] {
				continue
			}
			f := g.File(s)
			r := int8(e.v.RelativeRank(c, g.Rank(s)))
			n := e.pawnsOn[c][f]
			if n == 0 || r < e.pawnRanks[c][f][0] {
				e.pawnRanks[c][f][0] = r // the rearmost
			}
			if n == 0 || r > e.pawnRanks[c][f][1] {
				e.pawnRanks[c][f][1] = r // the most advanced
			}
			e.pawnsOn[c][f] = n + 1
		}
	}
	var score [2]int32
	e.pawnStructure(&score)
	*slot = cachedPawns{key: key, used: true, score: score}
	return score
}

// pawnStructure adds the doubled, isolated and passed pawn terms from the
// pawn files Evaluate gathered.
func (e *Classical) pawnStructure(score *[2]int32) {
	g := e.v.Geo
	promo := e.v.PromotionRank()
	for c := env.White; c <= env.Black; c++ {
		them := c.Other()
		for f := 0; f < g.Files; f++ {
			n := int32(e.pawnsOn[c][f])
			if n == 0 {
				continue
			}
			if n > 1 {
				score[c] -= (n - 1) * e.w.Doubled
			}
			left, right := f > 0 && e.pawnsOn[c][f-1] > 0, f+1 < g.Files && e.pawnsOn[c][f+1] > 0
			if !left && !right {
				score[c] -= n * e.w.Isolated
			}
			// Passed: no enemy pawn ahead of the most advanced pawn on its
			// file or the files beside it. The enemy's ranks are mirrored
			// into ours to compare.
			front := int(e.pawnRanks[c][f][1])
			passed := true
			for df := -1; df <= 1 && passed; df++ {
				ef := f + df
				if ef < 0 || ef >= g.Files || e.pawnsOn[them][ef] == 0 {
					continue
				}
				// The enemy pawn nearest our promotion rank is its rearmost.
				enemy := g.Mirror(int(e.pawnRanks[them][ef][0]))
				if enemy > front {
					passed = false
				}
			}
			if passed && promo != 0 {
				left := int32(max(promo-front, 0))
				span := int32(max(promo-g.FirstRank, 1))
				score[c] += e.w.Passed + e.w.Passed*(span-left)/span
			}
		}
	}
}

// kingSafety adds the middlegame king terms: shelter (own pieces next to
// the king) and tropism (enemy pieces within two steps).
func (e *Classical) kingSafety(pos *env.Position, kmg *[2]int32) {
	if e.w.KingShelter == 0 && e.w.KingTropism == 0 {
		return
	}
	for c := env.White; c <= env.Black; c++ {
		k := pos.KingSquare(c)
		if k == env.NoSquare || int(k) >= len(e.zone) {
			continue
		}
		for _, z := range e.zone[k] {
			q := pos.At(z.sq)
			if q == env.NoPiece {
				continue
			}
			switch {
			case q.Color() == c && z.near:
				kmg[c] += e.w.KingShelter
			case q.Color() != c && !e.pawn[q.Type()]:
				kmg[c] -= e.w.KingTropism
			}
		}
	}
}
