package engine

import "bomberzero/env"

// The move order: each move of a node gets a key, and the search takes
// them largest first (a selection, so a node cut off early sorts little).
// Its stages, as Stockfish's move picker has them: the table's move,
// captures by most valuable victims (both of a double capture) and least
// valuable attacker, promotions, the two killer moves of the ply, the
// counter-move to the opponent's last move, quiet moves by history, then
// the captures that seem to lose material (badCapture).
// The low bits of every key are a keyed hash of the move, so equal moves
// are tried in an order the seed sets and that does not depend on the
// order the generator lists them in.
const (
	orderTT      = int64(1) << 62
	orderCapture = int64(1) << 60
	orderKiller  = int64(1) << 58
	orderCounter = orderKiller - 1<<40
	orderQuiet   = int64(0)
	orderBad     = -int64(1) << 56
	tieBits      = 20
)

// historyMax bounds a history score, so quiet keys stay below the killers'.
const historyMax = 1 << 24

// tactical says whether m removes a piece or promotes (the moves the
// quiescence search plays), and what it gains in centipawns: the values
// of the pieces it removes plus a promotion's gain.
func (w *worker) tactical(m env.Move) (bool, int32) {
	pos := w.pos
	if m.Kind() == env.Drop || m.Kind() == env.Castle {
		return false, 0
	}
	var gain int32
	sq, n := pos.Removed(m)
	for i := 0; i < n; i++ {
		gain += w.value[pos.At(sq[i]).Type()]
	}
	if p := m.Promotion(); p != 0 {
		gain += w.value[p] - w.value[pos.At(m.From()).Type()]
		return true, gain
	}
	return n > 0, gain
}

// badCapture says whether capture m, gaining gain, takes less than the
// piece that makes it is worth and lands where the opponent can take it
// back (looked at before the move, so a piece the move uncovers is not
// seen): such captures are tried after the quiet moves.
func (w *worker) badCapture(m env.Move, gain int32) bool {
	if m.Promotion() != 0 || m.Kind() == env.EnPassant {
		return false
	}
	return gain < w.value[w.mover(m)] && w.pos.Attacked(m.To(), w.pos.SideToMove().Other())
}

// tie is the keyed hash of m that breaks ties between equal keys.
func (w *worker) tie(m env.Move) int64 {
	return int64(mix64(w.e.key^uint64(m)) >> (64 - tieBits))
}

// orderMoves writes the keys of moves (of the node at ply) into keys.
func (w *worker) orderMoves(moves []env.Move, keys []int64, ttMove env.Move, ply int) {
	pos := w.pos
	us := pos.SideToMove()
	k1, k2 := w.killers[ply][0], w.killers[ply][1]
	counter := env.NoMove
	if ply > 0 {
		if prev := w.stack[ply-1]; prev.move != env.NoMove {
			counter = w.counter[prev.piece][prev.move.To()]
		}
	}
	for i, m := range moves {
		var k int64
		switch tac, gain := w.tactical(m); {
		case m == ttMove:
			k = orderTT
		case tac:
			k = orderCapture
			if w.badCapture(m, gain) {
				k = orderBad
			}
			k += int64(gain)<<34 - int64(w.value[w.mover(m)])<<tieBits
		case m == k1:
			k = orderKiller + 2<<40
		case m == k2:
			k = orderKiller + 1<<40
		case m == counter:
			k = orderCounter
		default:
			k = orderQuiet + int64(w.history[us][m.From()][m.To()])<<tieBits
		}
		keys[i] = k + w.tie(m)
	}
}

// mover returns the type of the piece m moves (the dropped type for a drop).
func (w *worker) mover(m env.Move) int {
	if m.Kind() == env.Drop {
		return m.Promotion()
	}
	return w.pos.At(m.From()).Type()
}

// pick moves the best-keyed move of moves[i:] to i and returns it.
func pick(moves []env.Move, keys []int64, i int) env.Move {
	b := i
	for j := i + 1; j < len(moves); j++ {
		if keys[j] > keys[b] {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	keys[i], keys[b] = keys[b], keys[i]
	return moves[i]
}

// rewardQuiet records that quiet move m (played at ply, depth left)
// refuted the opponent: a killer, the counter-move to the last move, a
// history bonus; the quiet moves tried before it lose as much.
func (w *worker) rewardQuiet(m env.Move, ply, depth int, tried []env.Move) {
	us := w.pos.SideToMove()
	if w.killers[ply][0] != m {
		w.killers[ply][1] = w.killers[ply][0]
		w.killers[ply][0] = m
	}
	if ply > 0 {
		if prev := w.stack[ply-1]; prev.move != env.NoMove {
			w.counter[prev.piece][prev.move.To()] = m
		}
	}
	bonus := int32(min(depth*depth, 400))
	w.addHistory(us, m, bonus)
	for _, q := range tried {
		if q != m {
			w.addHistory(us, q, -bonus)
		}
	}
}

// addHistory moves a history score toward ±historyMax by bonus, the
// closer to the bound the less (the gravity of Stockfish's history).
func (w *worker) addHistory(c env.Color, m env.Move, bonus int32) {
	h := &w.history[c][m.From()][m.To()]
	b := bonus * 1024
	*h += b - int32(int64(*h)*int64(abs32(b))/historyMax)
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// mix64 is splitmix64's finaliser, the hash behind the tie order.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
