package env

import "fmt"

// Batch is many games of one variant stepped together: each step plays one
// move (a policy index) in every game that has one and re-encodes those games
// straight into one preallocated input tensor (Planes, NCHW, position-major)
// with their legal-move masks (Legal), the layout of the evaluators' batches. Nothing is
// allocated per step once each game's history fits its reserved capacity.
// A Batch is not safe for concurrent use.
type Batch struct {
	Enc    *Encoder
	Index  *MoveIndex
	Planes []float32 // Len()*Channels*Height*Width
	Legal  []float32 // Len()*PolicySize: 1 at each legal move's index

	inputSize  int // Enc.InputSize()
	policySize int // Index.Size()
	pos        []*Position
	moves      [][]Move // legal moves of each game
	idx        [][]int  // their policy indices, in the same order
	buf        []Move   // scratch for Status
}

// historyReserve is the history capacity each game starts with: games
// longer than this grow it (an allocation) once.
const historyReserve = 1024

// NewBatch returns n games of v, each at the start position and encoded.
func NewBatch(v *Variant, n int) *Batch {
	enc, x := NewEncoder(v, 0), NewMoveIndex(v)
	b := &Batch{Enc: enc, Index: x, inputSize: enc.InputSize(), policySize: x.Size(),
		Planes: make([]float32, n*enc.InputSize()), Legal: make([]float32, n*x.Size()),
		pos: make([]*Position, n), moves: make([][]Move, n), idx: make([][]int, n), buf: make([]Move, 0, MaxMoves)}
	start := v.NewPosition()
	for i := range b.pos {
		b.pos[i] = &Position{hist: make([]uint64, 0, historyReserve)}
		b.moves[i] = make([]Move, 0, MaxMoves)
		b.idx[i] = make([]int, 0, MaxMoves)
		b.Reset(i, start)
	}
	return b
}

// Len returns the number of games.
func (b *Batch) Len() int { return len(b.pos) }

// InputSize returns the Planes values per game.
func (b *Batch) InputSize() int { return b.inputSize }

// PolicySize returns the Legal values per game.
func (b *Batch) PolicySize() int { return b.policySize }

// Position returns game i's position (owned by the Batch: read it, do not
// change it).
func (b *Batch) Position(i int) *Position { return b.pos[i] }

// Moves returns game i's legal moves and their policy indices (owned by the
// Batch, valid until game i changes).
func (b *Batch) Moves(i int) ([]Move, []int) { return b.moves[i], b.idx[i] }

// Reset makes game i a copy of p and encodes it.
func (b *Batch) Reset(i int, p *Position) {
	b.pos[i].CopyFrom(p)
	b.refresh(i)
}

// Step plays actions[i] (a policy index of one of game i's legal moves) in
// every game i with actions[i] >= 0 and re-encodes those games; games with a
// negative action are left as they are. It fails, changing nothing in that
// game, on an index that is not a legal move of its game.
func (b *Batch) Step(actions []int) error {
	if len(actions) != len(b.pos) {
		return fmt.Errorf("env: Step got %d actions for %d games", len(actions), len(b.pos))
	}
	for i, a := range actions {
		if a < 0 {
			continue
		}
		k := -1
		for j, ix := range b.idx[i] {
			if ix == a {
				k = j
				break
			}
		}
		if k < 0 {
			return fmt.Errorf("env: game %d: policy index %d is not a legal move of %s", i, a, b.pos[i])
		}
		b.pos[i].DoMove(b.moves[i][k])
		b.refresh(i)
	}
	return nil
}

// Status returns game i's result and why, as Position.Status does.
func (b *Batch) Status(i int) (Result, Termination) { return b.pos[i].StatusOf(len(b.moves[i])) }

// refresh regenerates game i's legal moves and rewrites its planes and mask.
func (b *Batch) refresh(i int) {
	p := b.pos[i]
	legal := b.Legal[i*b.policySize : (i+1)*b.policySize]
	for _, ix := range b.idx[i] {
		legal[ix] = 0
	}
	b.moves[i] = p.LegalMoves(b.moves[i][:0])
	b.idx[i] = b.idx[i][:0]
	for _, m := range b.moves[i] {
		ix := b.Index.Index(m, p.side)
		b.idx[i] = append(b.idx[i], ix)
		legal[ix] = 1
	}
	n := b.inputSize
	b.Enc.Encode(p, b.Planes[i*n:(i+1)*n])
}

// CopyFrom makes p a copy of q, history included, reusing p's history
// storage (no allocation once it is large enough).
func (p *Position) CopyFrom(q *Position) {
	h := p.hist[:0]
	*p = *q
	p.hist = append(h, q.hist...)
}
