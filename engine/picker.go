package engine

import "bomberzero/env"

// stage is where a node's move picker stands.
type stage uint8

// The picker's stages, in the order an interior node goes through them
// (Stockfish's movepick.cpp is the model). stageAll is the root's single
// stage: every legal move generated and ordered at once.
const (
	stageTT stage = iota
	stageCaptures
	stageKillers
	stageRest
	stageDone
	stageAll
)

// picker hands out the moves of one interior node in the order of
// orderMoves, generating them in stages so that a node cut off early
// generates only what it tried: the table's move (checked with IsLegal,
// nothing generated), the captures and promotions that do not seem to
// lose material (PseudoTacticalMoves), the killers and the counter-move
// (each checked with IsLegal), then the quiet moves (PseudoMoves, its
// captures left out) by history followed by the losing captures kept
// from the capture stage. Generated moves are pseudo-legal: each is
// tested with Legal when it is about to be given, and an illegal one is
// skipped, so the moves given are the legal ones. Each move comes once. The order is orderMoves'
// except that the quiet moves' history is read when they are generated,
// after the earlier moves' subtrees have updated it.
type picker struct {
	stage   stage
	ttMove  env.Move // the table's move when legal here, else NoMove
	ttRaw   env.Move // the table's move as stored (NoMove when none)
	moves   []env.Move
	keys    []int64
	i       int
	special [3]env.Move // the killers and the counter-move, in order
	done    [3]bool     // which of special were given in stageKillers
	ki      int
	given   int  // moves handed out so far
	inCheck bool // whether the side to move is in check
	// skipQuiets, set by the search once late-move pruning has begun
	// (it prunes every later quiet move too), leaves the quiet moves out:
	// only the losing captures remain, and no more moves are generated.
	skipQuiets bool
	filtered   bool // the rest stage has dropped its quiet moves
	// legal tests the generated moves' legality one at a time, when each
	// is about to be given: the captures and the rest are generated
	// pseudo-legal, so a node cut off early tests only what it tried.
	legal env.Legality
}

// newPicker starts the picker of the node at ply with table move ttMove
// (NoMove when none), inCheck saying whether the side to move is in
// check; all asks for every legal move at once (the root).
func (w *worker) newPicker(ttMove env.Move, ply int, inCheck, all bool) picker {
	if all {
		moves := w.pos.LegalMovesChecked(w.moves[ply][:0], inCheck)
		keys := w.keys[ply][:len(moves)]
		w.orderMoves(moves, keys, ttMove, ply)
		return picker{stage: stageAll, ttRaw: ttMove, moves: moves, keys: keys, inCheck: inCheck}
	}
	return picker{stage: stageTT, ttRaw: ttMove, inCheck: inCheck, legal: w.pos.Legality(inCheck)}
}

// next returns the node's next move, or NoMove when every move has been
// given.
func (w *worker) next(mp *picker, ply int) env.Move {
	pos := w.pos
	for {
		switch mp.stage {
		case stageAll:
			if mp.i >= len(mp.moves) {
				return env.NoMove
			}
			m := pick(mp.moves, mp.keys, mp.i)
			mp.i++
			mp.given++
			return m
		case stageTT:
			mp.stage = stageCaptures
			if mp.ttRaw != env.NoMove && pos.IsLegal(mp.ttRaw, w.scratch[:0]) {
				mp.ttMove = mp.ttRaw
				mp.given++
				return mp.ttMove
			}
		case stageCaptures:
			if mp.moves == nil {
				w.bad[ply] = w.bad[ply][:0]
				mp.moves = pos.PseudoTacticalMoves(w.moves[ply][:0], mp.inCheck)
				mp.keys = w.keys[ply][:len(mp.moves)]
				w.orderMoves(mp.moves, mp.keys, mp.ttMove, ply)
				mp.i = 0
			}
			for mp.i < len(mp.moves) {
				m := pick(mp.moves, mp.keys, mp.i)
				if mp.keys[mp.i] < 0 {
					// The rest lose material: kept for after the quiet moves.
					w.bad[ply] = append(w.bad[ply][:0], mp.moves[mp.i:]...)
					w.badKeys[ply] = append(w.badKeys[ply][:0], mp.keys[mp.i:]...)
					mp.i = len(mp.moves)
					break
				}
				mp.i++
				if m == mp.ttMove || !pos.Legal(m, &mp.legal) {
					continue
				}
				mp.given++
				return m
			}
			mp.stage = stageKillers
			mp.special = w.specialMoves(ply)
			mp.ki = 0
		case stageKillers:
			for mp.ki < len(mp.special) && !mp.skipQuiets {
				k := mp.ki
				m := mp.special[k]
				mp.ki++
				if m == env.NoMove || m == mp.ttRaw || !pos.IsLegal(m, w.scratch[:0]) {
					continue
				}
				if tac, _ := w.tactical(m); tac {
					continue // a capture here: the capture stages have it
				}
				mp.done[k] = true
				mp.given++
				return m
			}
			mp.stage = stageRest
			mp.moves = nil
		case stageRest:
			if mp.moves == nil {
				if mp.skipQuiets {
					// Only the losing captures: no generation.
					mp.moves = append(w.moves[ply][:0], w.bad[ply]...)
					mp.keys = append(w.keys[ply][:0], w.badKeys[ply]...)
					w.bad[ply] = w.bad[ply][:0]
					mp.filtered = true
				} else {
					mp.moves, mp.keys = w.restMoves(mp, ply)
				}
				mp.i = 0
			}
			if mp.skipQuiets && !mp.filtered {
				// Keep the moves not yet given that are losing captures.
				n := mp.i
				for j := mp.i; j < len(mp.moves); j++ {
					if mp.keys[j] < orderBad/2 {
						mp.moves[n], mp.keys[n] = mp.moves[j], mp.keys[j]
						n++
					}
				}
				mp.moves, mp.keys = mp.moves[:n], mp.keys[:n]
				mp.filtered = true
			}
			if mp.i >= len(mp.moves) {
				mp.stage = stageDone
				return env.NoMove
			}
			m := pick(mp.moves, mp.keys, mp.i)
			mp.i++
			if !pos.Legal(m, &mp.legal) {
				continue
			}
			mp.given++
			return m
		default:
			return env.NoMove
		}
	}
}

// specialMoves returns the killers of ply and the counter-move to the
// opponent's last move, in the order orderMoves ranks them, a repeated
// move given once.
func (w *worker) specialMoves(ply int) [3]env.Move {
	k1, k2 := w.killers[ply][0], w.killers[ply][1]
	counter := env.NoMove
	if ply > 0 {
		if prev := w.stack[ply-1]; prev.move != env.NoMove {
			counter = w.counter[prev.piece][prev.move.To()]
		}
	}
	if k2 == k1 {
		k2 = env.NoMove
	}
	if counter == k1 || counter == k2 {
		counter = env.NoMove
	}
	return [3]env.Move{k1, k2, counter}
}

// restMoves generates the moves the earlier stages have not given: the
// quiet ones, keyed by history as orderMoves keys them, and the losing
// captures the capture stage kept, all pseudo-legal (the picker tests
// each when it gives it).
func (w *worker) restMoves(mp *picker, ply int) ([]env.Move, []int64) {
	pos := w.pos
	us := pos.SideToMove()
	moves := pos.PseudoMoves(w.moves[ply][:0], mp.inCheck)
	out, keys := moves[:0], w.keys[ply][:0]
	for _, m := range moves {
		if m == mp.ttMove || pos.IsTactical(m) {
			continue // given already, or a losing capture kept below
		}
		if mp.done[0] && m == mp.special[0] || mp.done[1] && m == mp.special[1] || mp.done[2] && m == mp.special[2] {
			continue
		}
		out = append(out, m)
		keys = append(keys, orderQuiet+int64(w.history[us][m.From()][m.To()])<<tieBits+w.tie(m))
	}
	// Every losing capture is a pseudo-legal move left out above, so out
	// keeps within moves' length.
	out = append(out, w.bad[ply]...)
	keys = append(keys, w.badKeys[ply]...)
	w.bad[ply] = w.bad[ply][:0]
	return out, keys
}
