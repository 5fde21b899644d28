package engine

import "bomberzero/env"

// deltaMargin is what a capture must be able to bring, beyond the
// material it takes, to be searched when the side is that far below alpha.
const deltaMargin = 200

// quiesce searches the node at ply until it is quiet: the side to move may
// stand pat on its static evaluation (not in check) or play a capture
// (double captures included) or a promotion; in check it plays every
// evasion. Captures that cannot bring the score back to alpha even with
// deltaMargin to spare are skipped (delta pruning). Checkmate, stalemate
// and the other game ends are exact here too, except that a position whose
// static evaluation is already at least beta is not searched further, as
// in every engine (a stalemate there goes unseen).
func (w *worker) quiesce(alpha, beta int32, ply int) int32 {
	return w.quiesceChecked(alpha, beta, ply, w.pos.InCheck())
}

// quiesceChecked is quiesce told whether the side to move is in check
// (the parent has just asked, after its move), so it is not asked twice.
func (w *worker) quiesceChecked(alpha, beta int32, ply int, inCheck bool) int32 {
	w.pvLen[ply] = ply
	if w.visit() {
		return 0
	}
	pos := w.pos
	w.seldepth = max(w.seldepth, ply)
	if s, over := w.drawnOrWon(ply); over {
		return s
	}
	fifty := pos.HalfMoveClock() >= 100
	if fifty && !inCheck {
		return 0
	}
	if ply >= MaxPly-1 {
		return w.eval.Evaluate(pos)
	}
	alpha, beta = max(alpha, matedIn(ply)), min(beta, mateIn(ply+1))
	if alpha >= beta {
		return alpha
	}
	pvNode := beta-alpha > 1
	key := pos.Hash()
	ttMove := env.NoMove
	if tte, hit := w.probe(key); hit {
		s := fromTT(tte.Score, ply)
		ttMove = tte.Move
		if !pvNode && !fifty && (tte.Bound == BoundExact || tte.Bound == BoundLower && s >= beta || tte.Bound == BoundUpper && s <= alpha) {
			return s
		}
	}
	best, stand := -Infinite, -Infinite
	if !inCheck {
		stand = w.evaluate(alpha, beta)
		if stand >= beta {
			return stand
		}
		alpha = max(alpha, stand)
		best = stand
	}
	var moves []env.Move
	keys := w.keys[ply][:0]
	// In check, the table's move is tried before the evasions are
	// generated, when it is legal here: a cut-off on it saves the
	// generation. It is the move the order takes first anyway, and the
	// quiescence search changes no history, so the search is the same,
	// node for node.
	staged := env.NoMove
	if inCheck && !fifty && ttMove != env.NoMove && pos.IsLegal(ttMove, w.scratch[:0]) {
		staged = ttMove
	}
	generated := true
	if staged != env.NoMove {
		generated = false
	} else if inCheck {
		moves = pos.LegalMovesChecked(w.moves[ply][:0], true)
		if len(moves) == 0 {
			return matedIn(ply)
		}
		if fifty {
			return 0
		}
	} else {
		// Only captures and promotions are searched, so only they are
		// generated, pseudo-legal: each is tested for legality when it is
		// about to be played, so a cut-off or a pruned capture saves the
		// test. Stalemate stays exact (below, when no capture was legal).
		moves = pos.PseudoTacticalMoves(w.moves[ply][:0], false)
	}
	legal := pos.Legality(inCheck)
	played := false
	if generated {
		keys = w.keys[ply][:len(moves)]
		w.orderMoves(moves, keys, ttMove, ply)
	}
	alpha0 := alpha
	bestMove := env.NoMove
	us := pos.SideToMove()
	for i := 0; !generated || i < len(moves); i++ {
		var m env.Move
		switch {
		case !generated && i == 0:
			m = staged
		case !generated:
			// The table's move did not cut off: generate the evasions.
			// It is ordered first, so it is at 0 after one pick.
			moves = pos.LegalMovesChecked(w.moves[ply][:0], true)
			keys = w.keys[ply][:len(moves)]
			w.orderMoves(moves, keys, ttMove, ply)
			pick(moves, keys, 0)
			generated = true
			if i >= len(moves) {
				continue // the table's move was the only one: the loop ends
			}
			m = pick(moves, keys, i)
		default:
			m = pick(moves, keys, i)
		}
		_, gain := w.tactical(m)
		mover := w.mover(m)
		if !inCheck {
			if m.Promotion() == 0 && stand+gain+deltaMargin <= alpha {
				continue
			}
		}
		// A capture that takes less than its piece is worth, landing where
		// the opponent can take it back, is left out (unless it checks):
		// the cheap half of a static exchange evaluation. Both are asked
		// of the position after the move without playing it.
		if !inCheck && best > -MateBound && m.Promotion() == 0 && gain < w.value[mover] &&
			pos.AttackedAfter(m, m.To(), us.Other()) && !pos.GivesCheck(m) {
			continue
		}
		if !inCheck && !pos.Legal(m, &legal) {
			continue
		}
		played = true
		w.stack[ply].move, w.stack[ply].piece = m, env.MakePiece(us, mover)
		u, saved := w.doMove(m)
		givesCheck := pos.InCheck()
		s := -w.quiesceChecked(-beta, -alpha, ply+1, givesCheck)
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
				if s >= beta {
					break
				}
				alpha = s
			}
		}
	}
	// No capture or promotion played: a stalemate if none was legal and
	// no other move is either (scored without a table entry, as before the
	// moves were tried).
	if !inCheck && !played && !anyLegal(pos, moves, &legal) && !pos.HasLegalMove() {
		return 0
	}
	bound := BoundUpper
	switch {
	case best >= beta:
		bound = BoundLower
	case pvNode && best > alpha0:
		bound = BoundExact
	}
	if !w.leaf {
		w.e.tt.Store(key, bestMove, toTT(best, ply), 0, bound)
	}
	return best
}

// probe looks key up in the table; a Leaf's thread finds nothing there.
func (w *worker) probe(key uint64) (Probe, bool) {
	if w.leaf {
		return Probe{}, false
	}
	return w.e.tt.Probe(key)
}

// anyLegal says whether one of moves, pseudo-legal moves of pos, is legal.
func anyLegal(pos *env.Position, moves []env.Move, l *env.Legality) bool {
	for _, m := range moves {
		if pos.Legal(m, l) {
			return true
		}
	}
	return false
}
