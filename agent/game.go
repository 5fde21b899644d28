package agent

import (
	"fmt"
	"math"

	"bomberzero/env"
	"bomberzero/eval"
	"bomberzero/mcts"
)

// Rules is what every game of one variant shares: the variant, its encoding
// and move index, the maximum game length and the piece values the
// material evaluator uses. It is read-only after NewRules.
type Rules struct {
	Variant *env.Variant
	Encoder *env.Encoder
	Index   *env.MoveIndex
	// MaxPlies ends a game as a draw once this many plies have been
	// played (0: no cap).
	MaxPlies int
	values   []float64    // pawns per piece type, for Material
	table    []int32      // the same values in centipawns, for Quiescence
	leaf     *leafEngines // the engine Quiescence asks instead, when set
}

// NewRules returns the rules of v with games capped at maxPlies plies (0: no
// cap).
func NewRules(v *env.Variant, maxPlies int) *Rules {
	r := &Rules{Variant: v, Encoder: env.NewEncoder(v, maxPlies), Index: env.NewMoveIndex(v), MaxPlies: maxPlies}
	vals := DefaultValues()
	r.values = make([]float64, len(v.Pieces))
	for t := 1; t < len(v.Pieces); t++ {
		r.values[t] = vals.of(v.Pieces[t])
	}
	r.table = make([]int32, len(v.Pieces))
	for t, x := range r.values {
		r.table[t] = int32(math.Round(x * 100))
	}
	return r
}

// Shape returns the evaluator shape of this variant's encoding.
func (r *Rules) Shape() eval.Shape { return ShapeOf(r.Encoder, r.Index) }

// NewGame returns a game starting from a copy of p (the variant's start
// position when p is nil).
func (r *Rules) NewGame(p *env.Position) *Game {
	if p == nil {
		p = r.Variant.NewPosition()
	} else {
		p = p.Clone()
	}
	return &Game{r: r, p: p}
}

// Game is one position of a game as the search sees it: it implements
// mcts.Game (moves named by their policy index), mcts.Materialer and
// mcts.Quiescer.
type Game struct {
	r     *Rules
	p     *env.Position
	moves []env.Move // p's legal moves when valid
	idx   []int      // their policy indices
	valid bool
	q     *quiescence // Quiescence's scratch space, made on first use
}

var (
	_ mcts.Game       = (*Game)(nil)
	_ mcts.Materialer = (*Game)(nil)
)

// Position returns the game's current position (owned by the game).
func (g *Game) Position() *env.Position { return g.p }

// gen generates the legal moves and their indices once per position.
func (g *Game) gen() {
	if g.valid {
		return
	}
	if g.moves == nil {
		g.moves = make([]env.Move, 0, 128)
		g.idx = make([]int, 0, 128)
	}
	g.moves = g.p.LegalMoves(g.moves[:0])
	g.idx = g.idx[:0]
	side := g.p.SideToMove()
	for _, m := range g.moves {
		g.idx = append(g.idx, g.r.Index.Index(m, side))
	}
	g.valid = true
}

// Hash identifies the position as the encoding sees it: the rules engine's
// hash with the repetition count and the 50-move counter mixed in.
func (g *Game) Hash() uint64 {
	h := g.p.Hash()
	h ^= (uint64(g.p.HalfMoveClock()) + 1) * 0x9e3779b97f4a7c15
	h ^= uint64(g.p.Repetitions()+1) * 0xc2b2ae3d27d4eb4f
	return h
}

// Outcome returns the game's result and how it ended: the rules' result,
// or a draw by env.LengthCap when the rules say the game goes on but
// MaxPlies plies have been played.
func (g *Game) Outcome() (env.Result, env.Termination) {
	g.gen()
	res, why := g.p.StatusOf(len(g.moves))
	if res == env.Ongoing && AtLengthCap(g.p.Ply(), g.r.MaxPlies) {
		return env.Draw, env.LengthCap
	}
	return res, why
}

// Status reports whether the game is over and its value for the side to
// move: +1 won, 0 drawn, -1 lost.
func (g *Game) Status() (bool, float32) {
	res, _ := g.Outcome()
	return res != env.Ongoing, float32(res.For(g.p.SideToMove()))
}

// LegalMoves appends the policy indices of the legal moves to buf[:0].
func (g *Game) LegalMoves(buf []int) []int {
	g.gen()
	return append(buf[:0], g.idx...)
}

// Move returns the legal move with policy index idx.
func (g *Game) Move(idx int) (env.Move, error) {
	g.gen()
	for i, x := range g.idx {
		if x == idx {
			return g.moves[i], nil
		}
	}
	return env.NoMove, fmt.Errorf("agent: policy index %d is not a legal move of %s", idx, g.p)
}

// Play makes the legal move with policy index move.
func (g *Game) Play(move int) {
	var m env.Move
	if g.valid {
		for i, x := range g.idx {
			if x == move {
				m = g.moves[i]
				break
			}
		}
	} else {
		m = g.r.Index.Decode(g.p, move)
	}
	if m == env.NoMove {
		panic(fmt.Sprintf("agent: Play(%d): not a legal move of %s", move, g.p))
	}
	g.p.DoMove(m)
	g.valid = false
}

// Encode writes the position's input planes.
func (g *Game) Encode(planes []float32) { g.r.Encoder.Encode(g.p, planes) }

// Clone returns an independent copy of the game.
func (g *Game) Clone() mcts.Game { return &Game{r: g.r, p: g.p.Clone()} }

// CopyFrom makes g a copy of src (a *Game of the same rules), reusing g's
// storage.
func (g *Game) CopyFrom(src mcts.Game) {
	s := src.(*Game)
	g.r = s.r
	g.p.CopyFrom(s.p)
	g.valid = false
}

// Material returns the material balance for the side to move in pawns,
// pieces in hand included.
func (g *Game) Material() float64 {
	us := g.p.SideToMove()
	them := us.Other()
	sum := 0.0
	for t := 1; t < len(g.r.values); t++ {
		if v := g.r.values[t]; v != 0 {
			sum += v * float64(g.p.Count(us, t)+g.p.InHand(us, t)-g.p.Count(them, t)-g.p.InHand(them, t))
		}
	}
	return sum
}

// EncodeText encodes the position given as position text, ply plies into
// its game, with the repetition count it had there (as training data stores
// them), into planes and its legal-move mask into legal (every value of both
// is written: Shape().InputSize() and Shape().PolicySize values). The text
// carries no history: repetitions restores the count the repetition plane
// shows (env.Position.SetRepetitions) and ply the length-cap plane, so the
// planes are the ones self-play's search saw. A position outside any game
// has ply 0 and repetitions 0.
func (r *Rules) EncodeText(text string, ply, repetitions int, planes, legal []float32) error {
	p, err := r.Variant.ParsePosition(text)
	if err != nil {
		return fmt.Errorf("position %q: %w", text, err)
	}
	if err := p.SetRepetitions(repetitions); err != nil {
		return fmt.Errorf("position %q: %w", text, err)
	}
	s := r.Shape()
	if len(planes) < s.InputSize() || len(legal) < s.PolicySize {
		return fmt.Errorf("agent: EncodeText needs %d planes and %d mask values, got %d and %d",
			s.InputSize(), s.PolicySize, len(planes), len(legal))
	}
	r.Encoder.EncodeAt(p, ply, planes[:s.InputSize()])
	clear(legal[:s.PolicySize])
	var buf [env.MaxMoves]env.Move
	side := p.SideToMove()
	for _, m := range p.LegalMoves(buf[:0]) {
		legal[r.Index.Index(m, side)] = 1
	}
	return nil
}
