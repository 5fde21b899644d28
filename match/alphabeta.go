package match

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"

	"bomberzero/agent"
	"bomberzero/env"
)

// Mate is the score of a won position in centipawns, less one per ply to the
// mate so that the quickest mate scores highest. Scores beyond MateBound are
// mates.
const (
	Mate      = 1 << 24
	MateBound = Mate - 1000
)

// AlphaBeta is the fixed-depth material baseline: negamax with alpha-beta
// pruning to Depth plies on the material balance (board and hand) with
// configurable piece values. Game ends come from the rules (env's Status):
// a won position is worth Mate minus the plies to it, a drawn one 0. Moves are
// ordered by immediate material gain, so captures come first; there is no
// quiescence search. Root moves are shuffled with the player's seed before the
// (stable) ordering, so equal best moves are chosen at random.
type AlphaBeta struct {
	depth int
	table []int32
	rng   *rand.Rand
	moves [][]env.Move // per ply
	keys  [][]int32    // per ply: ordering keys
	pv    [][]env.Move // triangular principal-variation table
	nodes int64
	name  string
	// done, while ChooseContext runs, is its context's Done channel: the
	// search polls it every stopCheck nodes and, once closed, unwinds
	// with stopped set.
	done    <-chan struct{}
	stopped bool
}

// stopCheck is how many nodes the search visits between two looks at its
// context: a few milliseconds of work at depth 8.
const stopCheck = 1024

// NewAlphaBeta returns an alpha-beta player for variant v searching depth
// plies with piece values vals, seeded by seed.
func NewAlphaBeta(v *env.Variant, depth int, vals agent.Values, seed uint64) (*AlphaBeta, error) {
	if depth < 1 || depth > MaxDepth {
		return nil, fmt.Errorf("alphabeta: depth %d, want 1 to %d", depth, MaxDepth)
	}
	t, err := vals.Table(v)
	if err != nil {
		return nil, fmt.Errorf("alphabeta: %w", err)
	}
	a := &AlphaBeta{depth: depth, table: t, rng: rand.New(rand.NewPCG(seed, 0x616c706861)), name: fmt.Sprintf("alphabeta:%d", depth)}
	for i := 0; i <= depth; i++ {
		a.moves = append(a.moves, make([]env.Move, 0, env.MaxMoves))
		a.keys = append(a.keys, make([]int32, 0, env.MaxMoves))
		a.pv = append(a.pv, make([]env.Move, depth+1))
	}
	return a, nil
}

// Name returns "alphabeta:D".
func (a *AlphaBeta) Name() string { return a.name }

// Meter is MeterThread: the search runs on its caller's goroutine.
func (a *AlphaBeta) Meter() Meter { return MeterThread }

// Nodes returns the number of positions searched so far.
func (a *AlphaBeta) Nodes() int64 { return a.nodes }

// Choose returns the best move found by the depth-limited search.
func (a *AlphaBeta) Choose(pos *env.Position) (env.Move, error) {
	m, _, err := a.Best(pos)
	return m, err
}

// ChooseContext is Choose that gives up, returning ctx's error, soon
// after ctx ends (within a few milliseconds however deep the search).
func (a *AlphaBeta) ChooseContext(ctx context.Context, pos *env.Position) (env.Move, error) {
	a.done, a.stopped = ctx.Done(), false
	defer func() { a.done = nil }()
	m, _, err := a.Best(pos)
	if a.stopped {
		return env.NoMove, ctx.Err()
	}
	return m, err
}

// Best returns the move the search chooses and its score in centipawns for
// the side to move.
func (a *AlphaBeta) Best(pos *env.Position) (env.Move, int32, error) {
	moves := a.ordered(pos, 0, true)
	if len(moves) == 0 {
		return env.NoMove, 0, fmt.Errorf("alphabeta: no legal move in %s", pos)
	}
	alpha, beta := int32(-Mate-1), int32(Mate+1)
	best := moves[0]
	for _, m := range moves {
		u := pos.DoMove(m)
		s := -a.search(pos, a.depth-1, 1, -beta, -alpha)
		pos.UndoMove(u)
		if s > alpha {
			alpha, best = s, m
		}
	}
	return best, alpha, nil
}

// ExactAll is the RootScores margin that scores every root move exactly
// (each with a full window, as Analyze does).
const ExactAll = 2*Mate + 2

// RootScores scores the legal moves of pos for the side to move in
// centipawns, appending them to moves[:0] and their scores to scores[:0]
// (both reused, so a caller that keeps them allocates nothing), in the
// order Best searches them: shuffled with the player's seed, then by
// immediate material gain. The first move with the highest score is the
// one Best would choose. A move that scores within margin centipawns of
// the best gets its exact score; any other is only bounded: its score is
// at most the best minus margin, which is what it gets (a window of
// (best - margin, +inf) lets such moves fail low at once, the cheap
// scheme; margin ExactAll scores every move exactly). The softmax policy
// targets of package teacher need only the moves that can carry weight.
func (a *AlphaBeta) RootScores(pos *env.Position, margin int32, moves []env.Move, scores []int32) ([]env.Move, []int32, error) {
	moves = append(moves[:0], a.ordered(pos, 0, true)...)
	scores = scores[:0]
	if len(moves) == 0 {
		return moves, scores, fmt.Errorf("alphabeta: no legal move in %s", pos)
	}
	margin = max(0, min(margin, ExactAll))
	best := int32(-Mate - 1)
	for _, m := range moves {
		alpha := max(int64(best)-int64(margin), -Mate-1)
		u := pos.DoMove(m)
		s := -a.search(pos, a.depth-1, 1, -Mate-1, -int32(alpha))
		pos.UndoMove(u)
		scores = append(scores, s)
		best = max(best, s)
	}
	return moves, scores, nil
}

// Analyze scores every root move with a full window and returns the n best
// with their principal variations.
func (a *AlphaBeta) Analyze(pos *env.Position, n int) ([]Candidate, error) {
	moves := append([]env.Move(nil), a.ordered(pos, 0, false)...)
	if len(moves) == 0 {
		return nil, fmt.Errorf("alphabeta: no legal move in %s", pos)
	}
	out := make([]Candidate, 0, len(moves))
	for _, m := range moves {
		u := pos.DoMove(m)
		s := -a.search(pos, a.depth-1, 1, -Mate-1, Mate+1)
		pos.UndoMove(u)
		pv := append([]env.Move{m}, a.pv[1][:a.pvLen(1)]...)
		out = append(out, Candidate{Move: m, Score: float64(s) / 100, PV: pv, Note: scoreNote(s)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// scoreNote writes a score in pawns, or as a mate distance.
func scoreNote(s int32) string {
	switch {
	case s > MateBound:
		return fmt.Sprintf("mate in %d", (Mate-s+1)/2)
	case s < -MateBound:
		return fmt.Sprintf("mated in %d", (Mate+s)/2)
	}
	return fmt.Sprintf("%+.2f", float64(s)/100)
}

// pvLen returns the length of the principal variation stored at ply.
func (a *AlphaBeta) pvLen(ply int) int {
	n := 0
	for n < len(a.pv[ply]) && a.pv[ply][n] != env.NoMove {
		n++
	}
	return n
}

// ordered generates the legal moves at ply into its buffer, shuffled when
// shuffle is set, then sorted by immediate material gain.
func (a *AlphaBeta) ordered(pos *env.Position, ply int, shuffle bool) []env.Move {
	moves := pos.LegalMoves(a.moves[ply][:0])
	a.moves[ply] = moves
	if shuffle {
		a.tieOrder(moves, ply)
	}
	a.sortByGain(pos, ply, moves)
	return moves
}

// tieOrder puts moves in a random order that depends on the moves
// themselves, not on the list: one draw of the player's generator keys a
// hash of each move, and the moves are sorted by it. The same player seed
// therefore orders the moves two rule sets share alike, whatever moves
// only one of them has, so the same seed plays the same game in both
// until their rules make a difference (a shuffle of the whole list would
// part them at the first position where one rule set has an extra move).
// It draws once per call whatever the number of moves.
func (a *AlphaBeta) tieOrder(moves []env.Move, ply int) {
	key := a.rng.Uint64()
	keys := a.keys[ply][:0]
	for _, m := range moves {
		keys = append(keys, int32(mix64(key^uint64(m))>>33))
	}
	a.keys[ply] = keys
	agent.SortByKey(moves, keys)
}

// mix64 is splitmix64's finaliser: a bijection of uint64 whose outputs
// look independent for inputs that differ in a single bit.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// sortByGain sorts moves (of pos, at ply) by immediate material gain,
// largest first, keeping the order of equal gains.
func (a *AlphaBeta) sortByGain(pos *env.Position, ply int, moves []env.Move) {
	keys := a.keys[ply][:0]
	before := agent.Centipawns(pos, a.table)
	for _, m := range moves {
		u := pos.DoMove(m)
		keys = append(keys, -agent.Centipawns(pos, a.table)-before)
		pos.UndoMove(u)
	}
	a.keys[ply] = keys
	agent.SortByKey(moves, keys)
}

// search returns the negamax score of pos for the side to move, searched
// depth more plies, within the window (alpha, beta) (fail-hard).
func (a *AlphaBeta) search(pos *env.Position, depth, ply int, alpha, beta int32) int32 {
	a.nodes++
	if a.done != nil && a.nodes%stopCheck == 0 {
		select {
		case <-a.done:
			a.stopped = true
		default:
		}
	}
	if a.stopped {
		return 0
	}
	a.pv[ply][0] = env.NoMove
	moves := pos.LegalMoves(a.moves[ply][:0]) // generated once: for the game end and the search
	a.moves[ply] = moves
	if res, _ := pos.StatusOf(len(moves)); res != env.Ongoing {
		return int32(res.For(pos.SideToMove())) * (Mate - int32(ply)) // 0 for a draw
	}
	if depth == 0 {
		return agent.Centipawns(pos, a.table)
	}
	a.sortByGain(pos, ply, moves)
	for _, m := range moves {
		u := pos.DoMove(m)
		s := -a.search(pos, depth-1, ply+1, -beta, -alpha)
		pos.UndoMove(u)
		if s >= beta {
			return beta
		}
		if s > alpha {
			alpha = s
			a.pv[ply][0] = m
			n := copy(a.pv[ply][1:], a.pv[ply+1][:a.pvLen(ply+1)])
			if 1+n < len(a.pv[ply]) {
				a.pv[ply][1+n] = env.NoMove
			}
		}
	}
	return alpha
}
