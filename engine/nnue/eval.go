package nnue

import (
	"fmt"

	"bomberzero/env"
)

// maxDiff is the most changed squares and hand counts an Evaluator
// applies as a difference; more and it rebuilds its accumulators.
const maxDiff = 12

// Evaluator scores positions with a net, keeping one accumulator per
// absolute colour's perspective valid for the board it last saw, so that
// the side to move only picks their order. On each call it compares the
// position with that board and, for every square or hand count that
// changed, subtracts the old features' rows and adds the new ones: no
// search hook is needed, and captures of two pieces (the bomber), drops,
// promotions, castling and jumps between unrelated positions all work.
// One Evaluator serves one thread; Fork makes another.
type Evaluator struct {
	net   *Net
	fs    *FeatureSet
	name  string
	acc   [2][]float32 // per perspective colour, with B1
	psq   [2]float64   // the linear path's sum per perspective colour (float64: no drift)
	board [maxCells]env.Piece
	hand  [2]int
	// off[c] is perspective c's king bucket times the block size: the
	// offset of its features while its king stays in that bucket.
	off [2]int32
	// view[c] is perspective c's view (FeatureSet.view: c, plus 2 while
	// it sees the board file-mirrored).
	view  [2]int
	valid bool
	x     []float32 // 2H scratch
	h2    []float32 // L2 scratch
	feats []int32
}

// NewEvaluator returns an evaluator of net n over feature set fs, named
// name (as a player spec writes it). The net must match the set: the
// same variant and layout.
func NewEvaluator(n *Net, fs *FeatureSet, name string) (*Evaluator, error) {
	if n.Variant != fs.Variant() {
		return nil, fmt.Errorf("net for variant %s, not %s", n.Variant, fs.Variant())
	}
	if n.Layout != fs.Layout() || n.Features != fs.Len() {
		return nil, fmt.Errorf("net's input layout %s (%d features) is not variant %s's %s (%d features)",
			n.Layout, n.Features, fs.Variant(), fs.Layout(), fs.Len())
	}
	if err := n.Check(); err != nil {
		return nil, err
	}
	return newEvaluator(n, fs, name), nil
}

func newEvaluator(n *Net, fs *FeatureSet, name string) *Evaluator {
	return &Evaluator{
		net: n, fs: fs, name: name,
		acc:   [2][]float32{make([]float32, n.H), make([]float32, n.H)},
		x:     make([]float32, 2*n.H),
		h2:    make([]float32, n.L2),
		feats: make([]int32, 0, fs.MaxActive()),
	}
}

// Fork returns an evaluator of the same net with its own accumulators.
func (e *Evaluator) Fork() *Evaluator { return newEvaluator(e.net, e.fs, e.name) }

// Name returns the name the evaluator was made with.
func (e *Evaluator) Name() string { return e.name }

// Net returns the evaluator's net (shared, not to be changed).
func (e *Evaluator) Net() *Net { return e.net }

// Evaluate returns pos's score in centipawns for the side to move.
func (e *Evaluator) Evaluate(pos *env.Position) int32 {
	return e.net.Centipawns(e.Output(pos))
}

// Output returns the net's raw output for pos (before Scale).
func (e *Evaluator) Output(pos *env.Position) float32 {
	e.update(pos)
	h := e.net.H
	us := pos.SideToMove()
	copy(e.x[:h], e.acc[us])
	copy(e.x[h:], e.acc[us^1])
	return e.net.head(e.x, e.h2) + float32((e.psq[us]-e.psq[us^1])/2)
}

// update brings the accumulators to pos's board.
func (e *Evaluator) update(pos *env.Position) {
	fs := e.fs
	if !e.valid {
		e.refresh(pos)
		return
	}
	// stale[c]: perspective c's king changed bucket or crossed the
	// middle file of a mirrored set, which moves every feature of that
	// perspective. It is rebuilt once the other is updated by the
	// differences (a king move rebuilds one accumulator, not two).
	var stale [2]bool
	if fs.Buckets() > 1 || fs.fileWise {
		for c := range env.Color(2) {
			stale[c] = int32(fs.Bucket(pos, c)*fs.perBucket) != e.off[c] || fs.view(pos, c) != e.view[c]
		}
		if stale[env.White] && stale[env.Black] {
			e.refresh(pos)
			return
		}
	}
	var changed [maxDiff]uint8
	n := 0
	for s := range fs.cells {
		if pos.At(env.Square(s)) != e.board[s] {
			if n == maxDiff {
				e.refresh(pos)
				return
			}
			changed[n] = uint8(s)
			n++
		}
	}
	var handNow [2]int
	if fs.dropType != 0 {
		handNow = [2]int{min(pos.InHand(env.White, fs.dropType), fs.maxHand), min(pos.InHand(env.Black, fs.dropType), fs.maxHand)}
		if d := abs(handNow[0]-e.hand[0]) + abs(handNow[1]-e.hand[1]); n+d > maxDiff {
			e.refresh(pos)
			return
		}
	}
	H := e.net.H
	w1, psqt := e.net.W1, e.net.PSQT
	for _, s := range changed[:n] {
		old, now := e.board[s], pos.At(env.Square(s))
		for c := range env.Color(2) {
			if stale[c] {
				continue
			}
			a := e.acc[c]
			if old != env.NoPiece {
				if f := fs.boardIn(e.view[c], c, old.Color(), old.Type(), env.Square(s)); f >= 0 {
					f += e.off[c]
					subRow(a, w1[int(f)*H:int(f)*H+H])
					e.psq[c] -= float64(psqt[f])
				}
			}
			if now != env.NoPiece {
				if f := fs.boardIn(e.view[c], c, now.Color(), now.Type(), env.Square(s)); f >= 0 {
					f += e.off[c]
					addRow(a, w1[int(f)*H:int(f)*H+H])
					e.psq[c] += float64(psqt[f])
				}
			}
		}
		e.board[s] = now
	}
	if fs.dropType != 0 {
		for pc := range env.Color(2) {
			for k := e.hand[pc] + 1; k <= handNow[pc]; k++ {
				for c := range env.Color(2) {
					if stale[c] {
						continue
					}
					f := fs.Hand(c, pc, k) + e.off[c]
					addRow(e.acc[c], w1[int(f)*H:int(f)*H+H])
					e.psq[c] += float64(psqt[f])
				}
			}
			for k := e.hand[pc]; k > handNow[pc]; k-- {
				for c := range env.Color(2) {
					if stale[c] {
						continue
					}
					f := fs.Hand(c, pc, k) + e.off[c]
					subRow(e.acc[c], w1[int(f)*H:int(f)*H+H])
					e.psq[c] -= float64(psqt[f])
				}
			}
			e.hand[pc] = handNow[pc]
		}
	}
	for c := range env.Color(2) {
		if stale[c] {
			e.rebuild(pos, c)
		}
	}
}

// rebuild computes perspective c's accumulator, linear sum, bucket offset
// and view from pos from scratch.
func (e *Evaluator) rebuild(pos *env.Position, c env.Color) {
	fs := e.fs
	H := e.net.H
	a := e.acc[c]
	copy(a, e.net.B1)
	e.off[c] = int32(fs.Bucket(pos, c) * fs.perBucket)
	e.view[c] = fs.view(pos, c)
	e.feats = fs.Active(pos, c, e.feats)
	e.psq[c] = 0
	for _, f := range e.feats {
		addRow(a, e.net.W1[int(f)*H:int(f)*H+H])
		e.psq[c] += float64(e.net.PSQT[f])
	}
}

// refresh rebuilds both accumulators from pos.
func (e *Evaluator) refresh(pos *env.Position) {
	fs := e.fs
	for c := range env.Color(2) {
		e.rebuild(pos, c)
	}
	for s := range fs.cells {
		e.board[s] = pos.At(env.Square(s))
	}
	if fs.dropType != 0 {
		e.hand = [2]int{min(pos.InHand(env.White, fs.dropType), fs.maxHand), min(pos.InHand(env.Black, fs.dropType), fs.maxHand)}
	}
	e.valid = true
}

// Reset forgets the board the accumulators were valid for, so that the
// next call rebuilds them.
func (e *Evaluator) Reset() { e.valid = false }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
