package engine

import (
	"slices"
	"time"

	"bomberzero/env"
)

// lmr[d][n] is the late-move reduction of the n-th move at depth d.
var lmr = func() (t [64][64]int8) {
	for d := 1; d < 64; d++ {
		for n := 1; n < 64; n++ {
			t[d][n] = int8(0.5 + ln(d)*ln(n)/2.2)
		}
	}
	return t
}()

// ln is the natural logarithm of a small positive integer.
func ln(x int) float64 {
	// log(x) by the series of atanh, enough for a table of small integers.
	y := (float64(x) - 1) / (float64(x) + 1)
	s, p := 0.0, y
	for k := 1; k < 200; k += 2 {
		s += p / float64(k)
		p *= y * y
	}
	return 2 * s
}

// iterate is a thread's iterative deepening: searches of the root at
// depths 1, 2, ... each inside an aspiration window around the last
// score, until a limit or the stop. With MultiPV the main thread searches
// the root once a line at each depth, each time without the moves of the
// lines found before. Helper threads (id > 0) search one line and start
// one ply deeper on odd ids, so the threads spread over depths.
func (w *worker) iterate() {
	lines := 1
	if w.id == 0 {
		lines = w.multiPV
	}
	scores := make([]int32, lines)
	for depth := 1 + w.id%2; depth <= w.maxDepth; depth++ {
		w.excluded = w.excluded[:0]
		var found []Line
		for k := 0; k < lines; k++ {
			w.rootBest = env.NoMove
			s := w.aspiration(depth, scores[k])
			if w.stopped() {
				if w.id == 0 && k == 0 && w.rootBest != env.NoMove && w.rootBest != w.result.Move {
					w.adoptUnfinished()
				}
				return
			}
			scores[k] = s
			pv := append([]env.Move(nil), w.pv[0][:w.pvLen[0]]...)
			found = append(found, Line{Score: s, PV: pv})
			w.excluded = append(w.excluded, pv[0])
		}
		if w.id != 0 {
			continue
		}
		// A later line can come out better than an earlier one (its search
		// saw a fuller table): best first.
		slices.SortStableFunc(found, func(a, b Line) int { return int(b.Score) - int(a.Score) })
		best := found[0]
		w.result = Result{Move: best.PV[0], Score: best.Score, Depth: depth, SelDepth: w.seldepth, PV: best.PV, Lines: found}
		if w.report != nil {
			el := time.Since(w.s.start)
			nodes := w.s.nodes.Load() + w.nodes - w.flushed
			for k, l := range found {
				w.report(Info{Depth: depth, SelDepth: w.seldepth, MultiPV: k + 1, Score: l.Score, Nodes: nodes,
					NPS: int64(float64(nodes) / max(el.Seconds(), 1e-6)), Time: el, HashFull: w.e.tt.HashFull(), PV: l.PV})
			}
		}
		if w.soft > 0 && time.Since(w.s.start) > w.soft*6/10 {
			return
		}
	}
}

// adoptUnfinished makes the move that beat the last finished iteration's
// best in the unfinished one (a stopped search plays it, as Stockfish does)
// the result's move, with its score at this depth and its line as far as
// the search had it, so that the move, the score, the PV and the first
// line always agree. The first line becomes this one; the finished
// iteration's other lines follow, the one starting with the same move
// dropped. The depth stays the last finished iteration's.
func (w *worker) adoptUnfinished() {
	m := w.rootBest
	pv := []env.Move{m}
	if w.pvLen[0] > 0 && w.pv[0][0] == m {
		pv = slices.Clone(w.pv[0][:w.pvLen[0]])
	}
	old := w.result.Lines
	lines := make([]Line, 0, max(len(old), 1))
	lines = append(lines, Line{Score: w.rootScore, PV: pv})
	for _, l := range old {
		if len(lines) == cap(lines) {
			break
		}
		if len(l.PV) > 0 && l.PV[0] != m {
			lines = append(lines, l)
		}
	}
	w.result.Move, w.result.Score, w.result.PV, w.result.Lines = m, w.rootScore, pv, lines
}

// aspiration searches the root at depth in a window around the last
// iteration's score, widening it on each side it fails.
func (w *worker) aspiration(depth int, last int32) int32 {
	alpha, beta := -Infinite, Infinite
	delta := int32(30)
	if depth >= 4 && !IsMate(last) {
		alpha, beta = max(last-delta, -Infinite), min(last+delta, Infinite)
	}
	for {
		s := w.search(alpha, beta, depth, 0, false, w.pos.InCheck())
		if w.stopped() {
			return s
		}
		switch {
		case s <= alpha:
			beta = (alpha + beta) / 2
			alpha = max(s-delta, -Infinite)
		case s >= beta:
			beta = min(s+delta, Infinite)
		default:
			return s
		}
		delta += delta
		if delta > 800 {
			alpha, beta = -Infinite, Infinite
		}
	}
}

// hasPieces says whether side c has a piece other than pawns and its king
// on the board: without one, passing may be its best move (zugzwang), so
// the null move is not tried.
func (w *worker) hasPieces(c env.Color) bool {
	v := w.e.v
	for t := 1; t < len(v.Pieces); t++ {
		if t != v.KingType() && v.Pieces[t].Pawn == env.NotPawn && w.pos.Count(c, t) > 0 {
			return true
		}
	}
	return false
}

// drawnOrWon returns the score of a game end found without generating
// moves (a scepter win of the side that just moved, a repetition inside
// the search or the third occurrence), and whether there is one.
func (w *worker) drawnOrWon(ply int) (int32, bool) {
	pos := w.pos
	if pos.ScepterWon() {
		return matedIn(ply), true
	}
	if n, d := pos.Repetition(); n >= 2 || n == 1 && d <= ply {
		return 0, true
	}
	return 0, false
}

// updatePV makes m followed by the child's line the line of ply.
func (w *worker) updatePV(ply int, m env.Move) {
	w.pv[ply][ply] = m
	n := w.pvLen[ply+1]
	copy(w.pv[ply][ply+1:n], w.pv[ply+1][ply+1:n])
	w.pvLen[ply] = max(n, ply+1)
}

// futilityDepth is the deepest (reduced) depth at which quiet moves are
// pruned by futilityMargin.
const futilityDepth = 6

// futilityMargin is how far below alpha a static evaluation must be for a
// quiet move at (reduced) depth d to be left unsearched.
func futilityMargin(d int) int32 { return 100 + 130*int32(max(d, 0)) }

// reduction is the late-move reduction of quiet move m, the n-th of a node
// at ply with depth left: the table's, one less at a PV node, for a killer
// and for a move of good history, one more when the static evaluation is
// not improving, at an expected cut node and for a move of bad history.
func (w *worker) reduction(depth, n int, pvNode, improving, cut bool, m env.Move, ply int) int {
	r := int(lmr[min(depth, 63)][min(n, 63)])
	if pvNode {
		r--
	}
	if !improving {
		r++
	}
	if cut {
		r++
	}
	if m == w.killers[ply][0] || m == w.killers[ply][1] {
		r--
	}
	r -= int(w.history[w.pos.SideToMove()][m.From()][m.To()] / (historyMax / 2))
	return max(0, min(r, depth-2))
}

// search is the principal-variation search of the node at ply with depth
// plies left, in the window (alpha, beta); cut says a null-window parent
// expects it to fail high; inCheck says whether the side to move is in
// check (the caller has asked, after its move). Its stages, in order:
// quiescence at the horizon; the game ends found without moves;
// mate-distance pruning; the table; the check extension; reverse futility and null-move pruning
// (never at a PV node or in check); the moves, in order, with late-move
// pruning and reductions for quiet ones; the table store.
func (w *worker) search(alpha, beta int32, depth, ply int, cut, inCheck bool) int32 {
	if depth <= 0 {
		return w.quiesceChecked(alpha, beta, ply, inCheck)
	}
	w.pvLen[ply] = ply
	if w.visit() {
		return 0
	}
	pos := w.pos
	pvNode := beta-alpha > 1
	root := ply == 0
	w.seldepth = max(w.seldepth, ply)
	if !root {
		if s, over := w.drawnOrWon(ply); over {
			return s
		}
		if ply >= MaxPly-1 {
			return w.eval.Evaluate(pos)
		}
		alpha, beta = max(alpha, matedIn(ply)), min(beta, mateIn(ply+1))
		if alpha >= beta {
			return alpha
		}
	}
	fifty := pos.HalfMoveClock() >= 100
	if fifty && !inCheck && !root {
		return 0
	}
	key := pos.Hash()
	tte, hit := w.probe(key)
	ttMove := env.NoMove
	ttScore := int32(0)
	if hit {
		ttMove, ttScore = tte.Move, fromTT(tte.Score, ply)
		if !pvNode && !fifty && tte.Depth >= depth &&
			(tte.Bound == BoundExact || tte.Bound == BoundLower && ttScore >= beta || tte.Bound == BoundUpper && ttScore <= alpha) {
			return ttScore
		}
	}
	// Internal iterative reduction: a node the table knows nothing of, at
	// a PV or expected cut node, is searched a ply shallower; the next
	// visit finds the move this search stores.
	if depth >= 4 && ttMove == env.NoMove && (pvNode || cut) {
		depth--
	}
	if inCheck {
		depth++ // check extension
	}
	static := -Infinite
	if !inCheck {
		static = w.evaluate(alpha, beta)
	}
	w.stack[ply].static = static
	us := pos.SideToMove()
	if !pvNode && !inCheck && !root && !IsMate(beta) {
		// Reverse futility: far above beta with little depth left.
		if depth <= 6 && static-int32(90*depth) >= beta {
			return static
		}
		// Null move: if passing still fails high, a move will too.
		if depth >= 3 && static >= beta && w.stack[ply-1].move != env.NoMove && w.hasPieces(us) {
			r := 3 + depth/4 + int(min((static-beta)/200, 3))
			w.stack[ply].move = env.NoMove
			u := pos.DoNull()
			s := -w.search(-beta, -beta+1, depth-1-r, ply+1, !cut, pos.InCheck())
			pos.UndoNull(u)
			if w.stopped() {
				return 0
			}
			if s >= beta {
				if IsMate(s) {
					s = beta
				}
				return s
			}
		}
	}
	// A node under the fifty-move rule is a draw unless it is mate.
	if fifty && !root {
		if !pos.HasLegalMove() {
			return matedIn(ply) // in check here: the fifty-move test above returned otherwise
		}
		return 0
	}
	// The moves come in stages (picker): a cut-off on the table's move or
	// a capture saves generating the quiet moves. The root generates all
	// of them at once (MultiPV excludes some).
	mp := w.newPicker(ttMove, ply, inCheck, root)
	improving := ply >= 2 && !inCheck && static > w.stack[ply-2].static
	quiets := w.quiets[ply][:0]
	best, bestMove := -Infinite, env.NoMove
	alpha0 := alpha
	searched := 0
	for {
		m := w.next(&mp, ply)
		if m == env.NoMove {
			break
		}
		n := mp.given
		if root && len(w.excluded) > 0 && slices.Contains(w.excluded, m) {
			continue // a line MultiPV has already given
		}
		tac, _ := w.tactical(m)
		quiet := !tac
		// Late-move pruning: at low depth, once a move has held the
		// position, the last quiet moves are not searched.
		if !root && !pvNode && !inCheck && quiet && depth <= 4 && best > -MateBound && n > 3+depth*depth*2 {
			mp.skipQuiets = true // every later quiet move is pruned too: not generated
			continue
		}
		r := 0
		if depth >= 3 && quiet && !inCheck {
			r = w.reduction(depth, n, pvNode, improving, cut, m, ply)
		}
		// Futility: at low depth a quiet move that gives no check cannot
		// lift a static evaluation this far below alpha. The check is
		// asked without playing the move.
		if !root && !pvNode && !inCheck && quiet && searched > 0 && best > -MateBound {
			if d := depth - 1 - r; d <= futilityDepth && static+futilityMargin(d) <= alpha && !pos.GivesCheck(m) {
				continue
			}
		}
		w.stack[ply].move, w.stack[ply].piece = m, env.MakePiece(us, w.mover(m))
		u, saved := w.doMove(m)
		givesCheck := pos.InCheck()
		searched++
		var s int32
		if searched == 1 {
			s = -w.search(-beta, -alpha, depth-1, ply+1, false, givesCheck)
		} else {
			if givesCheck {
				r = 0
			}
			s = -w.search(-alpha-1, -alpha, depth-1-r, ply+1, true, givesCheck)
			if s > alpha && r > 0 {
				s = -w.search(-alpha-1, -alpha, depth-1, ply+1, !cut, givesCheck)
			}
			if s > alpha && s < beta {
				s = -w.search(-beta, -alpha, depth-1, ply+1, false, givesCheck)
			}
		}
		w.undoMove(u, saved)
		if w.stopped() {
			return 0
		}
		if s > best {
			best = s
			if s > alpha {
				bestMove = m
				if pvNode {
					w.updatePV(ply, m)
				}
				if root {
					w.rootBest, w.rootScore = m, s
				}
				if s >= beta {
					break
				}
				alpha = s
			}
		}
		if quiet && len(quiets) < cap(quiets) {
			quiets = append(quiets, m)
		}
	}
	if mp.given == 0 {
		if inCheck {
			return matedIn(ply)
		}
		return 0 // stalemate
	}
	if best >= beta {
		if tac, _ := w.tactical(bestMove); !tac {
			w.rewardQuiet(bestMove, ply, depth, quiets)
		}
	}
	bound := BoundUpper
	switch {
	case best >= beta:
		bound = BoundLower
	case pvNode && best > alpha0:
		bound = BoundExact
	}
	if (!root || len(w.excluded) == 0) && !w.leaf { // a root without some moves is not the position
		w.e.tt.Store(key, bestMove, toTT(best, ply), depth, bound)
	}
	return best
}
