package env

import "fmt"

// Encoder writes positions as the network's input planes: Channels planes of
// Height x Width float32 values (NCHW), seen from the side to move (ranks
// flipped for Black, so the side to move always plays "up"). The planes a
// variant gets depend on its rules; docs/encoding.md lists them:
//
//   - one plane per (piece type, side): the side to move's pieces first;
//   - holes (variants with holes), 1 on every missing cell;
//   - the repetition count of the position (0, 1 or 2 earlier occurrences);
//   - castling rights (variants with castling): the side to move's rights,
//     then the opponent's, each a constant plane;
//   - en-passant squares (variants whose pawns capture en passant);
//   - the 50-move counter, half-moves/100 in every cell;
//   - pieces in hand (variants with drops): count/stock for each side;
//   - the colour to move (only when the rules are not symmetric between
//     the sides);
//   - scepter squares (variants with the scepter rule): where the side to
//     move's king wins, then the opponent's;
//   - landing-promotion squares (Insane Ninja Knight): the side to move's,
//     then the opponent's;
//   - the game's progress towards the length cap, plies/cap clamped to 1 in
//     every cell (0 when the encoder has no cap), always the last plane, so
//     that a game drawn by the cap is never a surprise to the network.
//
// An Encoder is read-only after NewEncoder: any number of goroutines may
// share it.
type Encoder struct {
	v        *Variant
	h, w     int
	types    int // piece types (1..types)
	channels int
	names    []string

	holes     int // plane index, or -1
	rep       int
	castle    int // first castling plane, or -1
	rights    []uint8
	ep        int // or -1
	fifty     int
	hand      int // first hand plane, or -1
	handScale float32
	colour    int // or -1
	scepter   int // or -1
	landing   int // or -1
	ply       int // the length-cap plane
	maxPlies  int // the length cap in plies, 0 for none
	view      [2][]int16
}

// NewEncoder builds the encoder of v's positions for games capped at
// maxPlies plies (0: no cap, and the cap plane is always 0). The cap
// changes the plane's values, not the shape: a network reads positions of
// any cap.
func NewEncoder(v *Variant, maxPlies int) *Encoder {
	g := v.Geo
	e := &Encoder{v: v, h: g.Ranks, w: g.Files, types: len(v.Pieces) - 1,
		holes: -1, castle: -1, ep: -1, hand: -1, colour: -1, scepter: -1, landing: -1}
	add := func(name string) int {
		e.names = append(e.names, name)
		e.channels++
		return e.channels - 1
	}
	for _, side := range [2]string{"own", "opponent's"} {
		for t := 1; t <= e.types; t++ {
			add(fmt.Sprintf("%s %s (%c)", side, v.Pieces[t].Name, v.Pieces[t].Letter))
		}
	}
	for s := 0; s < g.Cells(); s++ {
		if !g.real[s] {
			e.holes = add("holes")
			break
		}
	}
	e.rep = add("repetitions")
	// Castling rights: bits 0-1 White's, 2-3 Black's, in the order seen
	// from the side to move.
	var have uint8
	for c := White; c <= Black; c++ {
		for _, r := range v.castles[c] {
			have |= r.right
		}
	}
	if have != 0 {
		for _, side := range [2]string{"own", "opponent's"} {
			for b := uint8(0); b < 2; b++ {
				if have&(1<<b|1<<(b+2)) == 0 {
					continue
				}
				p := add(fmt.Sprintf("%s castling right %s", side, [2]string{"K", "Q"}[b]))
				if e.castle < 0 {
					e.castle = p
				}
				e.rights = append(e.rights, b)
			}
		}
	}
	for t := 1; t <= e.types; t++ {
		if k := v.Pieces[t].Pawn; k != NotPawn && k != NinjaPawn {
			e.ep = add("en-passant squares")
			break
		}
	}
	e.fifty = add("50-move counter")
	start := v.NewPosition()
	if v.dropType != 0 {
		e.hand = add("own pieces in hand")
		add("opponent's pieces in hand")
		stock := max(start.hand[White][v.dropType], start.hand[Black][v.dropType], 1)
		e.handScale = 1 / float32(stock)
	}
	if !symmetric(start) {
		e.colour = add("black to move")
	}
	if len(v.scepterList[White])+len(v.scepterList[Black]) > 0 {
		e.scepter = add("own scepter squares")
		add("opponent's scepter squares")
	}
	if v.landFrom != 0 {
		e.landing = add("own landing-promotion squares")
		add("opponent's landing-promotion squares")
	}
	e.ply = add("plies played / length cap")
	e.maxPlies = max(maxPlies, 0)
	for c := White; c <= Black; c++ {
		e.view[c] = make([]int16, g.Cells())
		for s := 0; s < g.Cells(); s++ {
			vs := s
			if c == Black {
				vs = (e.h-1-s/e.w)*e.w + s%e.w
			}
			e.view[c][s] = int16(vs)
		}
	}
	return e
}

// symmetric says whether the start position is its own mirror image with
// the colours swapped (board, hands and side to move aside), so that the
// rules look the same to both sides and no colour plane is needed.
func symmetric(p *Position) bool {
	v := p.v
	g := v.Geo
	for s := 0; s < g.Cells(); s++ {
		m := v.mirrorSq(Black, Square(s))
		if g.real[s] != (m != NoSquare && g.real[m]) {
			return false
		}
		if !g.real[s] {
			continue
		}
		a, b := p.board[s], p.board[m]
		if (a == NoPiece) != (b == NoPiece) || a != NoPiece && (a.Type() != b.Type() || a.Color() == b.Color()) {
			return false
		}
	}
	return p.hand[White] == p.hand[Black]
}

// Channels returns the number of input planes.
func (e *Encoder) Channels() int { return e.channels }

// PlaneNames describes each input plane, for documentation and debugging.
func (e *Encoder) PlaneNames() []string { return append([]string(nil), e.names...) }

// Height returns the board ranks of a plane (grid rows, holes included).
func (e *Encoder) Height() int { return e.h }

// Width returns the board files of a plane (grid columns).
func (e *Encoder) Width() int { return e.w }

// InputSize returns the float32 values that encode one position:
// Channels*Height*Width.
func (e *Encoder) InputSize() int { return e.channels * e.h * e.w }

// MaterialWeights returns one weight per input plane such that, for any
// position's planes, the sum over planes of weight times the plane's sum of
// cells is the material balance for the side to move: the sum over piece
// types t of values[t] (indexed by piece type, values[0] unused) times the
// side to move's pieces of type t on the board and in hand less the
// opponent's. Planes that hold no pieces weigh 0. It lets an evaluator read
// material from planes alone (mcts.Material).
func (e *Encoder) MaterialWeights(values []float64) []float64 {
	w := make([]float64, e.channels)
	val := func(t int) float64 {
		if t < len(values) {
			return values[t]
		}
		return 0
	}
	for t := 1; t <= e.types; t++ {
		w[t-1], w[e.types+t-1] = val(t), -val(t)
	}
	if e.hand >= 0 {
		// A hand plane holds count*handScale in each of its h*w cells.
		per := val(int(e.v.dropType)) / (float64(e.h*e.w) * float64(e.handScale))
		w[e.hand], w[e.hand+1] = per, -per
	}
	return w
}

// MaxPlies returns the length cap the encoder measures progress against (0:
// none).
func (e *Encoder) MaxPlies() int { return e.maxPlies }

// Encode writes p's planes into dst, which must hold Channels*Height*Width
// values; every value is written. The cap plane counts p.Ply(), the moves
// played since the game's start. It allocates nothing.
func (e *Encoder) Encode(p *Position, dst []float32) { e.EncodeAt(p, p.Ply(), dst) }

// EncodeAt is Encode for a position ply plies into its game: for positions
// read back from text, which carries no history (training data stores the
// ply beside the text).
func (e *Encoder) EncodeAt(p *Position, ply int, dst []float32) {
	hw := e.h * e.w
	dst = dst[:e.channels*hw]
	clear(dst)
	v := e.v
	g := v.Geo
	us := p.side
	view := e.view[us]
	fill := func(plane int, x float32) {
		if x != 0 {
			pl := dst[plane*hw : (plane+1)*hw]
			for i := range pl {
				pl[i] = x
			}
		}
	}
	for s := 0; s < g.Cells(); s++ {
		q := p.board[s]
		if q == NoPiece {
			if e.holes >= 0 && !g.real[s] {
				dst[e.holes*hw+int(view[s])] = 1
			}
			continue
		}
		plane := q.Type() - 1
		if q.Color() != us {
			plane += e.types
		}
		dst[plane*hw+int(view[s])] = 1
	}
	fill(e.rep, float32(p.repetitions()))
	if e.castle >= 0 {
		for i, b := range e.rights {
			// The first half of the rights planes are own, the rest the opponent's.
			c := us
			if i >= len(e.rights)/2 {
				c = us.Other()
			}
			if p.castle&(1<<(b+2*uint8(c))) != 0 {
				fill(e.castle+i, 1)
			}
		}
	}
	if e.ep >= 0 {
		for i := 0; i < int(p.epN); i++ {
			dst[e.ep*hw+int(view[p.ep[i]])] = 1
		}
	}
	fill(e.fifty, float32(p.half)/100)
	if e.hand >= 0 {
		fill(e.hand, float32(p.hand[us][v.dropType])*e.handScale)
		fill(e.hand+1, float32(p.hand[us.Other()][v.dropType])*e.handScale)
	}
	if e.colour >= 0 && us == Black {
		fill(e.colour, 1)
	}
	if e.scepter >= 0 {
		// scepter[c] holds the squares where c's king wins.
		for i, c := range [2]Color{us, us.Other()} {
			for _, s := range v.scepterList[c] {
				dst[(e.scepter+i)*hw+int(view[s])] = 1
			}
		}
	}
	if e.landing >= 0 {
		for i, c := range [2]Color{us, us.Other()} {
			for s := 0; s < g.Cells(); s++ {
				if v.landSq[c].has(Square(s)) {
					dst[(e.landing+i)*hw+int(view[s])] = 1
				}
			}
		}
	}
	fill(e.ply, e.capProgress(ply))
}

// capProgress is the cap plane's value at ply: ply/cap clamped to [0, 1],
// 0 without a cap.
func (e *Encoder) capProgress(ply int) float32 {
	if e.maxPlies <= 0 || ply <= 0 {
		return 0
	}
	if ply >= e.maxPlies {
		return 1
	}
	return float32(ply) / float32(e.maxPlies)
}

// Repetitions returns how many times this position (same side to move) has
// occurred before since the last irreversible move: 0, 1, or 2 and more
// (the game is then drawn). The encoding and search hashes include it.
func (p *Position) Repetitions() int { return p.repetitions() }

// SetRepetitions gives a position read from text, which has no history,
// the repetition count n it had in its game (training data stores the
// count beside the text): its history is replaced by one in which the
// position occurred n times before, every fourth ply, so that Repetitions,
// the encoder's repetition plane and Status see what they saw in the game
// (n = 2 is a draw by repetition). Ply becomes 4n. A position cannot have
// recurred with fewer than 4n reversible half-moves on its clock: such an
// n is an error, and the position is left unchanged.
func (p *Position) SetRepetitions(n int) error {
	if n < 0 || 4*n > p.half {
		return fmt.Errorf("repetitions %d with half-move clock %d: want 0 to clock/4 earlier occurrences", n, p.half)
	}
	// Occurrences at distances 4, 8, ... 4n; the plies between hold a
	// hash that is not this position's.
	hist := make([]uint64, 4*n)
	for i := range hist {
		hist[i] = p.hash ^ 0x9e3779b97f4a7c15
		if i%4 == 0 {
			hist[i] = p.hash
		}
	}
	p.hist = hist
	return nil
}
