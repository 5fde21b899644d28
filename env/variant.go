package env

import (
	"fmt"
	"sort"
	"strings"
)

// castleRule is one way to castle: king and rook squares, and which right it uses.
type castleRule struct {
	kingFrom, kingTo, rookFrom, rookTo Square
	right                              uint8 // one bit of Position.castle
	between                            []Square
}

// attackSrc is a square from which a piece of one of the types in mask
// removes a piece standing on the square the table belongs to by a leap or
// pawn capture.
type attackSrc struct {
	from Square
	mask uint16
}

// Variant is a compiled rule set: the board, the pieces, and every rule
// parameter, with the tables move generation needs. It never changes after
// LoadVariant returns and is shared by all positions of the variant.
type Variant struct {
	Name        string // the name it was loaded by, e.g. "fbgc+superpower"
	Description string // one line for "bomberzero variants"
	Geo         *Geometry
	Pieces      []PieceType // index 0 is unused; Piece.Type() indexes it
	StartFEN    string      // the start position text

	byLetter   [128]uint8
	king       int
	castles    [2][]castleRule
	castleMask [maxCells]uint8 // castling rights kept when a move touches the square
	castleFile [4]int          // rook file of each right, for text
	promoRank  int             // pawn parameters as White's rank numbers; Black's are mirrored
	middle     int
	double     int
	promoTo    []int

	dropType     int // 0 when the variant has no drops
	dropRank     [2]int
	pushMax      int
	dropNotation byte

	scepter     [2]sqSet // squares where that side's king wins
	scepterList [2][]Square
	landFrom    uint16 // types that promote on landing
	landTo      int
	landSq      [2]sqSet

	pawnCaps  [2][][]leapTarget // pawn capture targets per colour (diagonal forward)
	attackers [2][maxCells][]attackSrc
	lineTypes uint16 // types with any line or helicopter ability
	lineDirs  uint8  // directions any type slides-to-capture or bombs along
	heliDirs  uint8  // directions any type makes the helicopter leap in
	z         zobrist
}

// HasDrops says whether pieces in hand exist in this variant.
func (v *Variant) HasDrops() bool { return v.dropType != 0 }

// DropType returns the type index of the piece that can be dropped, 0 if none.
func (v *Variant) DropType() int { return v.dropType }

// PieceByLetter returns the type index for an upper-case letter, 0 if none.
func (v *Variant) PieceByLetter(c byte) int {
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	if c >= 128 {
		return 0
	}
	return int(v.byLetter[c])
}

// KingType returns the type index of the royal piece.
func (v *Variant) KingType() int { return v.king }

// PromotionTypes returns the type indexes a pawn may promote to.
func (v *Variant) PromotionTypes() []int { return append([]int(nil), v.promoTo...) }

// ScepterSquares returns the squares on which side c's king wins at once (none without the rule).
func (v *Variant) ScepterSquares(c Color) []Square { return append([]Square(nil), v.scepterList[c]...) }

// relRank turns a rank number seen from White into colour c's rank number.
func (v *Variant) relRank(c Color, r int) int {
	if c == White {
		return r
	}
	return v.Geo.Mirror(r)
}

// mirrorSq reflects a square rank-wise for Black.
func (v *Variant) mirrorSq(c Color, s Square) Square {
	if c == White {
		return s
	}
	g := v.Geo
	return g.At(g.File(s), g.Mirror(g.Rank(s)))
}

// fieldError is a semantic error in a variant's definition.
type fieldError struct {
	field, msg string
}

func (e *fieldError) Error() string { return fmt.Sprintf("field %s: %s", e.field, e.msg) }

func ferr(field, format string, a ...any) error {
	return &fieldError{field, fmt.Sprintf(format, a...)}
}

var dirNames = map[string]uint8{"orth": orthDirs, "orthogonal": orthDirs, "diag": diagDirs, "diagonal": diagDirs, "all": allDirs}

// compile turns a decoded variant file into a Variant.
func compile(name string, f *variantFile) (*Variant, error) {
	v := &Variant{Name: name, Description: f.Description, StartFEN: f.Start}
	if f.Files == 0 || f.Ranks == 0 {
		return nil, ferr("files/ranks", "expected the board size, e.g. files = 10 and ranks = 10")
	}
	g0, err := newGeometry(f.Files, f.Ranks, f.FirstRank, nil, false)
	if err != nil {
		return nil, ferr("files", "%v", err)
	}
	var holes []Square
	for i, h := range f.Holes {
		s, err := g0.ParseSquare(h)
		if err != nil {
			return nil, ferr(fmt.Sprintf("holes[%d]", i), "%v", err)
		}
		holes = append(holes, s)
	}
	var transparent bool
	switch f.HoleMode {
	case "", "block":
	case "transparent":
		transparent = true
	default:
		return nil, ferr("hole_mode", "%q: expected \"block\" or \"transparent\"", f.HoleMode)
	}
	if v.Geo, err = newGeometry(f.Files, f.Ranks, f.FirstRank, holes, transparent); err != nil {
		return nil, ferr("files", "%v", err)
	}
	g := v.Geo
	if err := v.compilePieces(f); err != nil {
		return nil, err
	}
	if err := v.compileRules(f); err != nil {
		return nil, err
	}
	v.buildAttackTables()
	v.z = newZobrist(g.Cells(), len(v.Pieces))
	if f.Start == "" {
		return nil, ferr("start", "expected the start position text")
	}
	if _, err := v.ParsePosition(f.Start); err != nil {
		return nil, ferr("start", "%v", err)
	}
	return v, nil
}

func (v *Variant) compilePieces(f *variantFile) error {
	letters := make([]string, 0, len(f.Pieces))
	for l := range f.Pieces {
		letters = append(letters, l)
	}
	sort.Strings(letters)
	if len(letters) == 0 || len(letters) >= maxTypes {
		return ferr("pieces", "expected 1 to %d piece types, got %d", maxTypes-1, len(letters))
	}
	v.Pieces = make([]PieceType, 1, len(letters)+1)
	g := v.Geo
	for _, l := range letters {
		pf := f.Pieces[l]
		field := "pieces." + l
		if len(l) != 1 || l[0] < 'A' || l[0] > 'Z' {
			return ferr(field, "piece letter %q: expected one upper-case letter", l)
		}
		t := PieceType{Letter: l[0], Name: pf.Name, Royal: pf.Royal}
		if pf.Pawn != "" {
			k, ok := pawnKindNames[pf.Pawn]
			if !ok {
				return ferr(field+".pawn", "%q: expected grand, orthodox, sliding or ninja", pf.Pawn)
			}
			t.Pawn = k
		}
		leapMode := map[[2]int]uint8{}
		for i, m := range pf.Moves {
			mf := fmt.Sprintf("%s.moves[%d]", field, i)
			mode := modeBoth
			switch m.Mode {
			case "", "both":
			case "move":
				mode = modeMove
			case "capture":
				mode = modeCapture
			default:
				return ferr(mf+".mode", "%q: expected both, move or capture", m.Mode)
			}
			var dirs uint8
			if m.Kind != "leap" {
				d, ok := dirNames[m.Dirs]
				if !ok {
					return ferr(mf+".dirs", "%q: expected orth, diag or all", m.Dirs)
				}
				dirs = d
			}
			switch m.Kind {
			case "slide":
				if mode&modeMove != 0 {
					t.slideMove |= dirs
				}
				if mode&modeCapture != 0 {
					t.slideCap |= dirs
				}
			case "bomb":
				t.bomb |= dirs
				switch m.Landing {
				case "", "limited":
				case "extended":
					t.bombExt = true
				default:
					return ferr(mf+".landing", "%q: expected limited or extended", m.Landing)
				}
			case "helicopter":
				t.heli |= dirs
			case "leap":
				if len(m.Offsets) == 0 {
					return ferr(mf+".offsets", "expected a list of [dx, dy] offsets, e.g. [[1, 2]]")
				}
				for _, o := range m.Offsets {
					if (o[0] == 0 && o[1] == 0) || o[0] < -maxFiles || o[0] > maxFiles || o[1] < -maxRanks || o[1] > maxRanks {
						return ferr(mf+".offsets", "offset %v: expected a non-zero offset within the board", o)
					}
					for _, s := range symmetries(o) {
						leapMode[s] |= mode
					}
				}
			default:
				return ferr(mf+".kind", "%q: expected slide, leap, bomb or helicopter", m.Kind)
			}
		}
		t.leapOffsets = make(map[[2]int]uint8, len(leapMode))
		for o, m := range leapMode {
			t.leapOffsets[o] = m
		}
		// A 2-cell leap along a helicopter direction is the helicopter move itself.
		for d := 0; d < 8; d++ {
			if t.heli&(1<<d) != 0 {
				delete(leapMode, [2]int{2 * dirDX[d], 2 * dirDY[d]})
			}
		}
		t.fly = t.bomb | t.heli
		offs := make([][2]int, 0, len(leapMode))
		for o := range leapMode {
			offs = append(offs, o)
		}
		sort.Slice(offs, func(i, j int) bool {
			if offs[i][0] != offs[j][0] {
				return offs[i][0] < offs[j][0]
			}
			return offs[i][1] < offs[j][1]
		})
		targets := g.leapTargets(offs)
		t.leaps = make([][]leapTarget, g.Cells())
		for s := range targets {
			for _, to := range targets[s] {
				dx := g.File(to) - g.File(Square(s))
				dy := g.Rank(to) - g.Rank(Square(s))
				lt := leapTarget{to: to, mode: leapMode[[2]int{dx, dy}]}
				if d := g.between[s][to]; d != 0 && (t.slideMove|t.slideCap|t.bomb)&(1<<(d-1)) != 0 {
					lt.line = d
				}
				t.leaps[s] = append(t.leaps[s], lt)
			}
		}
		if t.Pawn == NotPawn && len(offs) == 0 && t.slideMove|t.slideCap|t.bomb|t.heli == 0 {
			return ferr(field+".moves", "expected at least one movement primitive")
		}
		if t.Royal {
			if v.king != 0 {
				return ferr(field+".royal", "only one royal piece type is supported")
			}
			v.king = len(v.Pieces)
		}
		v.byLetter[t.Letter] = uint8(len(v.Pieces))
		v.Pieces = append(v.Pieces, t)
	}
	if v.king == 0 {
		return ferr("pieces", "expected one piece with royal = true (the king)")
	}
	return nil
}

func (v *Variant) compileRules(f *variantFile) error {
	g := v.Geo
	last := g.FirstRank + g.Ranks - 1
	rankOK := func(r int) bool { return r >= g.FirstRank && r <= last }
	hasPawn := false
	for _, t := range v.Pieces[1:] {
		if t.Pawn != NotPawn {
			hasPawn = true
		}
	}
	p := f.Pawns
	if hasPawn {
		if !rankOK(p.PromotionRank) {
			return ferr("pawns.promotion_rank", "%d: expected a rank number of the board (White's promotion rank)", p.PromotionRank)
		}
		if p.MiddleRank != 0 && !rankOK(p.MiddleRank) {
			return ferr("pawns.middle_rank", "%d: expected a rank number of the board", p.MiddleRank)
		}
		if p.DoubleStepRank != 0 && !rankOK(p.DoubleStepRank) {
			return ferr("pawns.double_step_rank", "%d: expected a rank number of the board", p.DoubleStepRank)
		}
		for i := 0; i < len(p.PromoteTo); i++ {
			t := v.PieceByLetter(p.PromoteTo[i])
			if t == 0 || t == v.king || v.Pieces[t].Pawn != NotPawn {
				return ferr("pawns.promote_to", "%q: expected letters of non-royal, non-pawn pieces of this variant", p.PromoteTo)
			}
			v.promoTo = append(v.promoTo, t)
		}
		if len(v.promoTo) == 0 {
			return ferr("pawns.promote_to", "expected the letters pawns promote to, e.g. \"QRBN\"")
		}
		v.promoRank, v.middle, v.double = p.PromotionRank, p.MiddleRank, p.DoubleStepRank
		if p.MiddleRank == 0 {
			v.middle = -100
		}
		if p.DoubleStepRank == 0 {
			v.double = -100
		}
	}
	for i := range v.castleMask {
		v.castleMask[i] = 0xf
	}
	for i, c := range f.Castling {
		field := fmt.Sprintf("castling[%d]", i)
		if len(c) != 4 {
			return ferr(field, "expected [king_from, king_to, rook_from, rook_to], got %d squares", len(c))
		}
		var sq [4]Square
		for j, name := range c {
			s, err := g.ParseSquare(name)
			if err != nil {
				return ferr(field, "%v", err)
			}
			sq[j] = s
		}
		if r := g.Rank(sq[0]); r != g.Rank(sq[1]) || r != g.Rank(sq[2]) || r != g.Rank(sq[3]) || sq[0] == sq[2] || sq[0] == sq[1] {
			return ferr(field, "expected king and rook squares on one rank, the king moving, king and rook starting on different squares")
		}
		for col := White; col <= Black; col++ {
			r := castleRule{kingFrom: v.mirrorSq(col, sq[0]), kingTo: v.mirrorSq(col, sq[1]),
				rookFrom: v.mirrorSq(col, sq[2]), rookTo: v.mirrorSq(col, sq[3])}
			for _, s := range []Square{r.kingFrom, r.kingTo, r.rookFrom, r.rookTo} {
				if s == NoSquare || !g.real[s] {
					return ferr(field, "Black's mirrored castling squares are not on the board")
				}
			}
			side := uint8(0)
			if g.File(r.rookFrom) < g.File(r.kingFrom) {
				side = 1
			}
			r.right = 1 << (uint8(col)*2 + side)
			v.castleFile[uint8(col)*2+side] = g.File(r.rookFrom)
			lo, hi := r.kingFrom, r.rookFrom
			if lo > hi {
				lo, hi = hi, lo
			}
			for s := lo + 1; s < hi; s++ {
				r.between = append(r.between, s)
			}
			v.castleMask[r.kingFrom] &^= 3 << (uint8(col) * 2)
			v.castleMask[r.rookFrom] &^= r.right
			v.castles[col] = append(v.castles[col], r)
		}
	}
	if f.Drops != nil {
		d := f.Drops
		if len(d.Piece) != 1 || v.PieceByLetter(d.Piece[0]) == 0 {
			return ferr("drops.piece", "%q: expected the letter of a piece of this variant", d.Piece)
		}
		v.dropType = v.PieceByLetter(d.Piece[0])
		if !rankOK(d.Rank) {
			return ferr("drops.rank", "%d: expected a rank number of the board", d.Rank)
		}
		if d.Push < 0 || d.Push > g.Ranks {
			return ferr("drops.push", "%d: expected 0 to %d", d.Push, g.Ranks)
		}
		v.dropRank = [2]int{d.Rank, g.Mirror(d.Rank)}
		v.pushMax = d.Push
		v.dropNotation = v.Pieces[v.dropType].Letter
		if d.Notation != "" {
			if len(d.Notation) != 1 || d.Notation[0] < 'A' || d.Notation[0] > 'Z' {
				return ferr("drops.notation", "%q: expected one upper-case letter", d.Notation)
			}
			v.dropNotation = d.Notation[0]
		}
	}
	for i, name := range f.Scepter {
		s, err := g.ParseSquare(name)
		if err != nil {
			return ferr(fmt.Sprintf("scepter[%d]", i), "%v", err)
		}
		for c := White; c <= Black; c++ {
			m := v.mirrorSq(c, s)
			if m == NoSquare || !g.real[m] {
				return ferr(fmt.Sprintf("scepter[%d]", i), "Black's mirrored square is not on the board")
			}
			v.scepter[c].add(m)
			v.scepterList[c] = append(v.scepterList[c], m)
		}
	}
	if lp := f.LandingPromotion; lp != nil {
		to := 0
		if len(lp.To) == 1 {
			to = v.PieceByLetter(lp.To[0])
		}
		if to == 0 || to == v.king || v.Pieces[to].Pawn != NotPawn {
			return ferr("landing_promotion.to", "%q: expected the letter of a non-royal, non-pawn piece of this variant", lp.To)
		}
		v.landTo = to
		for i := 0; i < len(lp.Pieces); i++ {
			t := v.PieceByLetter(lp.Pieces[i])
			if t == 0 || v.Pieces[t].Pawn != NotPawn || t == v.king {
				return ferr("landing_promotion.pieces", "%q: expected letters of non-pawn, non-royal pieces", lp.Pieces)
			}
			v.landFrom |= 1 << t
		}
		for i, name := range lp.Squares {
			s, err := g.ParseSquare(name)
			if err != nil {
				return ferr(fmt.Sprintf("landing_promotion.squares[%d]", i), "%v", err)
			}
			for c := White; c <= Black; c++ {
				m := v.mirrorSq(c, s)
				if m == NoSquare || !g.real[m] {
					return ferr(fmt.Sprintf("landing_promotion.squares[%d]", i), "Black's mirrored square is not on the board")
				}
				v.landSq[c].add(m)
			}
		}
	}
	return nil
}

// buildAttackTables precomputes, per square, where leapers and pawns that
// could remove a piece there stand.
func (v *Variant) buildAttackTables() {
	g := v.Geo
	n := g.Cells()
	for c := White; c <= Black; c++ {
		v.pawnCaps[c] = make([][]leapTarget, n)
		fwd := 1
		if c == Black {
			fwd = -1
		}
		for s := 0; s < n; s++ {
			if !g.real[s] {
				continue
			}
			for _, dx := range []int{-1, 1} {
				t := g.At(g.File(Square(s))+dx, g.Rank(Square(s))+fwd)
				if t != NoSquare && g.real[t] {
					v.pawnCaps[c][s] = append(v.pawnCaps[c][s], leapTarget{to: t, mode: modeCapture})
				}
			}
		}
	}
	for c := White; c <= Black; c++ {
		add := func(target, from Square, t int) {
			list := v.attackers[c][target]
			for i := range list {
				if list[i].from == from {
					list[i].mask |= 1 << t
					return
				}
			}
			v.attackers[c][target] = append(list, attackSrc{from, 1 << t})
		}
		for ti, t := range v.Pieces {
			if ti == 0 {
				continue
			}
			if t.slideMove|t.slideCap|t.bomb|t.heli != 0 {
				v.lineTypes |= 1 << ti
			}
			v.lineDirs |= t.slideCap | t.bomb
			v.heliDirs |= t.heli
			for s := 0; s < n; s++ {
				if !g.real[s] {
					continue
				}
				if t.Pawn != NotPawn {
					for _, lt := range v.pawnCaps[c][s] {
						add(lt.to, Square(s), ti)
					}
					if t.Pawn == NinjaPawn && v.relRank(c, g.Rank(Square(s))) > v.middle {
						for _, d := range []int{2, 3} {
							if to := g.steps[s][d]; to != NoSquare {
								add(to, Square(s), ti)
							}
						}
					}
					continue
				}
				for _, lt := range t.leaps[s] {
					if lt.mode&modeCapture != 0 {
						add(lt.to, Square(s), ti)
					}
				}
			}
		}
	}
}

// String describes the variant in one line.
func (v *Variant) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", v.Name, v.Description)
	return b.String()
}
