package env

import (
	"fmt"
	"sort"
)

// MoveIndex maps the legal moves of a variant's positions to a fixed-size
// policy vector and back. The vector is laid out plane-major, as package eval
// says: index = plane*Height*Width + rank*Width + file, where the square is
// seen from the mover's side (ranks flipped for Black, so the mover always
// plays "up") and the plane says what the move does from that square:
//
//   - ray planes: a displacement along one of the 8 lines by 1, 2, ...
//     cells (queen-like moves, king steps, bomber slides and bombings,
//     helicopter leaps, pawn moves, en passant);
//   - leap planes: each off-line displacement some piece leaps by (knight,
//     camel);
//   - promotion planes: for each promotion type but the first (which uses
//     the ray plane) and each pawn displacement that can promote;
//   - one castle plane, whose square is the king's destination;
//   - drop planes, one per push length (0 for a plain drop), whose square is
//     the drop square.
//
// A MoveIndex is built once per variant and is read-only afterwards, so any
// number of goroutines may share it. docs/encoding.md lists the layout.
type MoveIndex struct {
	v      *Variant
	h, w   int
	planes int
	names  []string

	// offPlane[(dy+h-1)*(2w-1) + dx+w-1] is the plane of a normal move by
	// (dx, dy) from the mover's view, or -1.
	offPlane []int16
	// promoPlane[j-1][same offset] is the plane of a promotion to the j-th
	// promotion type (j >= 1), or -1.
	promoPlane [][]int16
	promoRank  [maxTypes]int8 // position of a type in the promotion list, -1 if absent
	castle     int            // the castle plane, or -1
	drop       int            // the first drop plane, or -1
	// planeKind and planeOff decode a plane: its kind and displacement.
	planeKind []planeKind
	planeDX   []int8
	planeDY   []int8
	planePro  []int8 // promotion type for promotion planes
	view      [2][]int16
	unview    [2][]Square
}

// planeKind says what moves a policy plane holds.
type planeKind uint8

const (
	planeRay planeKind = iota
	planeLeap
	planePromo
	planeCastle
	planeDrop
)

// NewMoveIndex builds the move index of v from its board and pieces: a ray
// plane for every line displacement some piece can make, a leap plane for
// every other displacement some piece leaps by, promotion, castle and drop
// planes as the rules need.
func NewMoveIndex(v *Variant) *MoveIndex {
	g := v.Geo
	x := &MoveIndex{v: v, h: g.Ranks, w: g.Files, castle: -1, drop: -1}
	ow := 2*x.w - 1
	x.offPlane = make([]int16, (2*x.h-1)*ow)
	for i := range x.offPlane {
		x.offPlane[i] = -1
	}
	for i := range x.promoRank {
		x.promoRank[i] = -1
	}
	for j, t := range v.promoTo {
		if x.promoRank[t] < 0 {
			x.promoRank[t] = int8(j)
		}
	}
	// The farthest cell a line from any square reaches in each direction.
	var extent [8]int
	for s := 0; s < g.Cells(); s++ {
		if !g.real[s] {
			continue
		}
		for d := 0; d < 8; d++ {
			if ray := g.rays[s][d]; len(ray) > 0 {
				last := ray[len(ray)-1]
				k := max(iabs(g.File(last)-g.File(Square(s))), iabs(g.Rank(last)-g.Rank(Square(s))))
				extent[d] = max(extent[d], k)
			}
			if g.hops[s][d].land != NoSquare {
				extent[d] = max(extent[d], 2)
			}
		}
	}
	// Directions are symmetric under the rank flip; use both orientations.
	flip := func(d int) int { return dirIndex(dirDX[d], -dirDY[d]) }
	var reach [8]int // farthest ray plane needed per direction
	offs := map[[2]int]bool{}
	need := func(dx, dy int) {
		if dx == 0 && dy == 0 {
			return
		}
		if d, k := lineOf(dx, dy); d >= 0 {
			reach[d] = max(reach[d], min(k, max(extent[d], extent[flip(d)])))
			return
		}
		offs[[2]int{dx, dy}] = true
	}
	hasNinja := false
	for ti := 1; ti < len(v.Pieces); ti++ {
		t := &v.Pieces[ti]
		switch t.Pawn {
		case NotPawn:
		case NinjaPawn:
			hasNinja = true
			need(1, 0)
			need(-1, 0)
			fallthrough
		default:
			for k := 1; k <= 3; k++ {
				need(0, k)
			}
			need(1, 1)
			need(-1, 1)
			continue
		}
		for d := 0; d < 8; d++ {
			bit := uint8(1) << d
			if (t.slideMove|t.slideCap|t.bomb)&bit != 0 {
				for _, dd := range [2]int{d, flip(d)} {
					for k := 1; k <= max(extent[d], extent[flip(d)]); k++ {
						need(k*dirDX[dd], k*dirDY[dd])
					}
				}
			}
			if t.heli&bit != 0 {
				need(2*dirDX[d], 2*dirDY[d])
				need(2*dirDX[d], -2*dirDY[d])
			}
		}
		for s := range t.leaps {
			for _, lt := range t.leaps[s] {
				dx := g.File(lt.to) - g.File(Square(s))
				dy := g.Rank(lt.to) - g.Rank(Square(s))
				need(dx, dy)
				need(dx, -dy)
			}
		}
	}
	add := func(kind planeKind, dx, dy, promo int, name string) int {
		p := x.planes
		x.planes++
		x.planeKind = append(x.planeKind, kind)
		x.planeDX = append(x.planeDX, int8(dx))
		x.planeDY = append(x.planeDY, int8(dy))
		x.planePro = append(x.planePro, int8(promo))
		x.names = append(x.names, name)
		return p
	}
	off := func(dx, dy int) int { return (dy+x.h-1)*ow + dx + x.w - 1 }
	for d := 0; d < 8; d++ {
		for k := 1; k <= reach[d]; k++ {
			dx, dy := k*dirDX[d], k*dirDY[d]
			x.offPlane[off(dx, dy)] = int16(add(planeRay, dx, dy, 0, fmt.Sprintf("ray %s %d", dirNamesByIndex[d], k)))
		}
	}
	leaps := make([][2]int, 0, len(offs))
	for o := range offs {
		leaps = append(leaps, o)
	}
	sort.Slice(leaps, func(i, j int) bool {
		if leaps[i][1] != leaps[j][1] {
			return leaps[i][1] > leaps[j][1]
		}
		return leaps[i][0] < leaps[j][0]
	})
	for _, o := range leaps {
		if o[0] <= -x.w || o[0] >= x.w || o[1] <= -x.h || o[1] >= x.h {
			continue // never lands on the board
		}
		x.offPlane[off(o[0], o[1])] = int16(add(planeLeap, o[0], o[1], 0, fmt.Sprintf("leap %+d,%+d", o[0], o[1])))
	}
	// Pawn displacements that can reach the promotion rank.
	promoOffs := [][2]int{{-1, 1}, {0, 1}, {1, 1}}
	if hasNinja {
		promoOffs = append(promoOffs, [2]int{0, 2})
	}
	if len(v.promoTo) > 1 {
		x.promoPlane = make([][]int16, len(v.promoTo)-1)
		for j := 1; j < len(v.promoTo); j++ {
			tbl := make([]int16, len(x.offPlane))
			for i := range tbl {
				tbl[i] = -1
			}
			for _, o := range promoOffs {
				tbl[off(o[0], o[1])] = int16(add(planePromo, o[0], o[1], v.promoTo[j],
					fmt.Sprintf("promote to %c %+d,%+d", v.Pieces[v.promoTo[j]].Letter, o[0], o[1])))
			}
			x.promoPlane[j-1] = tbl
		}
	}
	if len(v.castles[White])+len(v.castles[Black]) > 0 {
		x.castle = add(planeCastle, 0, 0, 0, "castle (king's destination)")
	}
	if v.dropType != 0 {
		for k := 0; k <= v.pushMax; k++ {
			p := add(planeDrop, 0, k, v.dropType, fmt.Sprintf("drop %c, push %d", v.Pieces[v.dropType].Letter, k))
			if k == 0 {
				x.drop = p
			}
		}
	}
	for c := White; c <= Black; c++ {
		x.view[c] = make([]int16, g.Cells())
		x.unview[c] = make([]Square, g.Cells())
		for s := 0; s < g.Cells(); s++ {
			vs := s
			if c == Black {
				vs = (x.h-1-s/x.w)*x.w + s%x.w
			}
			x.view[c][s] = int16(vs)
			x.unview[c][vs] = Square(s)
		}
	}
	return x
}

// dirNamesByIndex names the 8 line directions, from the mover's view.
var dirNamesByIndex = [8]string{"N", "S", "E", "W", "NE", "NW", "SE", "SW"}

// lineOf returns the direction and distance of (dx, dy) when it lies on one
// of the 8 lines, or -1.
func lineOf(dx, dy int) (d, k int) {
	if dx != 0 && dy != 0 && iabs(dx) != iabs(dy) {
		return -1, 0
	}
	k = max(iabs(dx), iabs(dy))
	return dirIndex(isign(dx), isign(dy)), k
}

// dirIndex returns the direction index of the unit step (dx, dy).
func dirIndex(dx, dy int) int {
	for d := 0; d < 8; d++ {
		if dirDX[d] == dx && dirDY[d] == dy {
			return d
		}
	}
	return -1
}

func iabs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func isign(a int) int {
	switch {
	case a > 0:
		return 1
	case a < 0:
		return -1
	}
	return 0
}

// Planes returns the number of policy planes.
func (x *MoveIndex) Planes() int { return x.planes }

// Size returns the length of the policy vector: Planes*Height*Width.
func (x *MoveIndex) Size() int { return x.planes * x.h * x.w }

// PlaneNames describes each plane, for documentation and debugging.
func (x *MoveIndex) PlaneNames() []string { return append([]string(nil), x.names...) }

// Index returns the policy index of move m made by side c, or -1 if the
// index has no room for it (which no legal move of the variant gets).
func (x *MoveIndex) Index(m Move, c Color) int {
	g := x.v.Geo
	from, to := m.From(), m.To()
	hw := x.h * x.w
	switch m.Kind() {
	case Castle:
		if x.castle < 0 {
			return -1
		}
		return x.castle*hw + int(x.view[c][to])
	case Drop:
		k := iabs(g.Rank(to) - g.Rank(from))
		if x.drop < 0 || k > x.v.pushMax {
			return -1
		}
		return (x.drop+k)*hw + int(x.view[c][from])
	}
	w := x.w
	dx := int(to)%w - int(from)%w
	dy := int(to)/w - int(from)/w
	if c == Black {
		dy = -dy
	}
	o := (dy+x.h-1)*(2*w-1) + dx + w - 1
	plane := int(x.offPlane[o])
	if pr := m.Promotion(); pr != 0 {
		if j := x.promoRank[pr]; j > 0 {
			plane = int(x.promoPlane[j-1][o])
		}
	}
	if plane < 0 {
		return -1
	}
	return plane*hw + int(x.view[c][from])
}

// Decode returns the move of position p with policy index idx. idx must be
// the index of one of p's legal moves (as Index gives it); Decode rebuilds the
// move from the index and the position without generating moves, and returns
// NoMove when idx cannot name a move of p at all. Use Legal to check an index
// from an untrusted source.
func (x *MoveIndex) Decode(p *Position, idx int) Move {
	hw := x.h * x.w
	if idx < 0 || idx >= x.Size() {
		return NoMove
	}
	plane, vs := idx/hw, idx%hw
	c := p.side
	g := x.v.Geo
	sq := x.unview[c][vs]
	if !g.real[sq] {
		return NoMove
	}
	switch x.planeKind[plane] {
	case planeCastle:
		k := p.king[c]
		if k == NoSquare {
			return NoMove
		}
		return newMove(k, sq, 0, Castle)
	case planeDrop:
		dy := int(x.planeDY[plane])
		if c == Black {
			dy = -dy
		}
		to := g.At(g.File(sq), g.Rank(sq)+dy)
		if to == NoSquare {
			return NoMove
		}
		return newMove(sq, to, x.v.dropType, Drop)
	}
	dx, dy := int(x.planeDX[plane]), int(x.planeDY[plane])
	if c == Black {
		dy = -dy
	}
	to := g.At(g.File(sq)+dx, g.Rank(sq)+dy)
	if to == NoSquare || !g.real[to] {
		return NoMove
	}
	q := p.board[sq]
	if q == NoPiece || q.Color() != c {
		return NoMove
	}
	v := x.v
	t := &v.Pieces[q.Type()]
	if t.Pawn != NotPawn {
		promo := 0
		if v.relRank(c, g.Rank(to)) == v.promoRank {
			promo = v.promoTo[0]
			if x.planeKind[plane] == planePromo {
				promo = int(x.planePro[plane])
			}
		}
		if dx != 0 && t.Pawn != NinjaPawn && p.board[to] == NoPiece && p.isEP(to) && promo == 0 {
			return newMove(sq, to, 0, EnPassant)
		}
		return newMove(sq, to, promo, Normal)
	}
	promo := 0
	if v.landFrom&(1<<q.Type()) != 0 && v.landSq[c].has(to) {
		promo = v.landTo
	}
	m := newMove(sq, to, promo, Normal)
	if d := int(g.between[sq][to]) - 1; d >= 0 && t.fly&(1<<d) != 0 {
		for _, s := range g.rays[sq][d] {
			if s == to {
				break
			}
			if e := p.board[s]; e != NoPiece && e.Color() != c {
				m |= flyBit
				break
			}
		}
	}
	return m
}

// Legal returns the legal move of p with policy index idx, checking it
// against p's legal moves (buf is scratch space; MaxMoves is enough), and
// whether there is one.
func (x *MoveIndex) Legal(p *Position, idx int, buf []Move) (Move, bool) {
	m := x.Decode(p, idx)
	if m == NoMove || x.Index(m, p.side) != idx {
		return NoMove, false
	}
	for _, l := range p.LegalMoves(buf[:0]) {
		if l == m {
			return m, true
		}
	}
	return NoMove, false
}
