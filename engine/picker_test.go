package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"bomberzero/env"
)

// TestPickerGivesEveryLegalMoveOnceInTheFullOrder drives the staged
// picker through whole nodes, with no search in between (so the history
// does not move), and holds its sequence to the one orderMoves gives all
// the legal moves generated at once: the same moves, each once, in the
// same order. Table moves, killers and counter-moves are drawn from the
// position's legal moves (quiet and captures), from another position's
// moves (illegal here) and left empty. Skipping the quiet moves from a
// random point on (as late-move pruning asks) leaves exactly the later
// quiet moves out.
func TestPickerGivesEveryLegalMoveOnceInTheFullOrder(t *testing.T) {
	for _, name := range append(env.VariantNames(), "fbgc+superpower", "birds-ninjas+scepter+insane-knight") {
		t.Run(name, func(t *testing.T) {
			e, v := newTestEngine(t, name, 5)
			w := newWorker(e, 0, e.eval)
			rng := rand.New(rand.NewPCG(11, uint64(len(name))))
			var buf, other [env.MaxMoves]env.Move
			const ply = 2
			positions := 0
			for g := 0; g < 8; g++ {
				p := v.NewPosition()
				prev := env.NoMove
				var prevMoves []env.Move
				for step := 0; step < 80; step++ {
					legal := p.LegalMoves(buf[:0])
					if r, _ := p.StatusOf(len(legal)); r != env.Ongoing {
						break
					}
					draw := func() env.Move {
						switch k := rng.IntN(4); {
						case k == 0:
							return env.NoMove
						case k == 1 && len(prevMoves) > 0:
							return prevMoves[rng.IntN(len(prevMoves))]
						default:
							return legal[rng.IntN(len(legal))]
						}
					}
					w.pos = p
					for c := range w.history {
						for i := 0; i < 200; i++ {
							m := legal[rng.IntN(len(legal))]
							w.history[c][m.From()][m.To()] = rng.Int32N(2*historyMax) - historyMax
						}
					}
					w.killers[ply] = [2]env.Move{draw(), draw()}
					w.stack[ply-1] = frame{move: prev, piece: env.MakePiece(p.SideToMove().Other(), 1)}
					if prev != env.NoMove {
						w.counter[w.stack[ply-1].piece][prev.To()] = draw()
					}
					tt := draw()

					want := slices.Clone(legal)
					keys := make([]int64, len(want))
					w.orderMoves(want, keys, tt, ply)
					for i := range want {
						pick(want, keys, i)
					}
					mp := w.newPicker(tt, ply, p.InCheck(), false)
					var got []env.Move
					for m := w.next(&mp, ply); m != env.NoMove; m = w.next(&mp, ply) {
						got = append(got, m)
					}
					if !slices.Equal(got, want) || mp.given != len(legal) {
						t.Fatalf("%s (table move %#x, killers %#x, counter to %#x): picker gave %d moves %#x, want the %d of the full order %#x",
							p, tt, w.killers[ply], prev, mp.given, got, len(want), want)
					}
					// Skipping the quiet moves after the cut-th move: the
					// full order with every later quiet move left out.
					cut := 1 + rng.IntN(len(want)) // the search sets it after a move at the earliest
					var wantSkip []env.Move
					for i, m := range want {
						if tac, _ := w.tactical(m); i < cut || tac {
							wantSkip = append(wantSkip, m)
						}
					}
					mp = w.newPicker(tt, ply, p.InCheck(), false)
					got = got[:0]
					for m := w.next(&mp, ply); m != env.NoMove; m = w.next(&mp, ply) {
						got = append(got, m)
						if len(got) >= cut {
							mp.skipQuiets = true
						}
					}
					if !slices.Equal(got, wantSkip) {
						t.Fatalf("%s (table move %#x, killers %#x, counter to %#x), quiet moves skipped after %d: picker gave %#x, want %#x",
							p, tt, w.killers[ply], prev, cut, got, wantSkip)
					}
					positions++
					prevMoves = append(other[:0], legal...)
					prev = legal[rng.IntN(len(legal))]
					p.DoMove(prev)
				}
			}
			if positions < 20 {
				t.Errorf("only %d positions checked", positions)
			}
		})
	}
}
