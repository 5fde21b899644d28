package xboard

import (
	"fmt"
	"sort"
	"strings"

	"bomberzero/env"
)

// xboardType is the XBoard 4.9 piece type (its ChessSquare order: 0 Pawn,
// 1 Knight, 2 Bishop, 3 Rook, 4 Queen, 5 Ferz, 6 Alfil, ... 17 Falcon, 18
// Lance, ... 20 Unicorn) each of the family's letters is drawn as. The type
// decides the picture and what XBoard's own code does with the piece: only
// the Pawn (and the Lance) promote or capture en passant there, so only
// the pawns that do both are Pawns.
var xboardType = map[byte]int{
	'P': 0,  // pawn (grand, orthodox, sliding; ninja in fbgc-ninjapawns)
	'N': 1,  // knight
	'B': 2,  // bishop
	'R': 3,  // rook
	'Q': 4,  // queen
	'J': 5,  // ninja pawn of the Birds and Ninjas family: drawn as the Ferz ("Advisor")
	'G': 6,  // ninja guard: the Alfil ("Elephant"), a diagonal leaper
	'M': 10, // queen-guard: the Man ("Commoner"), a non-royal king
	'D': 13, // diagonal bomber: the Cardinal ("CrownedBishop")
	'F': 17, // flying bomber: the Falcon ("Hawk")
	'I': 20, // insane ninja knight: the Unicorn
}

// spareTypes are the XBoard types a letter outside xboardType gets, in order.
var spareTypes = []int{7, 8, 9, 11, 12, 14, 15, 16, 18, 19, 21, 22, 23, 24, 25, 26}

// standardBetza is what XBoard already knows of a type's moves: no piece
// command is sent for a piece that moves exactly so.
var standardBetza = map[int]string{1: "N", 2: "B", 3: "R", 4: "Q"}

// pieceTable maps each piece type of v (its index into v.Pieces) to an
// XBoard type; the king is -1 (XBoard's King, always last).
func pieceTable(v *env.Variant) (map[int]int, error) {
	out := map[int]int{}
	used := map[int]bool{}
	var rest []int
	for t := 1; t < len(v.Pieces); t++ {
		if t == v.KingType() {
			out[t] = -1
			continue
		}
		if x, ok := xboardType[v.Pieces[t].Letter]; ok && !used[x] {
			out[t], used[x] = x, true
			continue
		}
		rest = append(rest, t)
	}
	for _, t := range rest {
		i := 0
		for i < len(spareTypes) && used[spareTypes[i]] {
			i++
		}
		if i == len(spareTypes) {
			return nil, fmt.Errorf("xboard: variant %s has more piece types than XBoard 4.9 can draw", v.Name)
		}
		out[t], used[spareTypes[i]] = spareTypes[i], true
	}
	return out, nil
}

// pieceToChar writes XBoard's piece-to-letter table for v: a letter (or
// "." for a type the variant lacks) for each XBoard type up to the highest
// used, then the king, White's half and then Black's.
func pieceToChar(v *env.Variant, table map[int]int) string {
	top := 4
	for _, x := range table {
		top = max(top, x)
	}
	row := make([]byte, top+2)
	for i := range row {
		row[i] = '.'
	}
	for t, x := range table {
		if x < 0 {
			row[top+1] = v.Pieces[t].Letter
		} else {
			row[x] = v.Pieces[t].Letter
		}
	}
	return string(row) + strings.ToLower(string(row))
}

// holdings returns XBoard's holdings size for v: 0 without drops, else the
// dropped piece's place among the variant's pieces in XBoard's type order,
// plus one (XBoard keeps a piece in hand in the slot of its type).
func holdings(v *env.Variant, table map[int]int) int {
	d := v.DropType()
	if d == 0 {
		return 0
	}
	n := 1
	for t, x := range table {
		if t != d && x >= 0 && x < table[d] {
			n++
		}
	}
	return n
}

// Setup returns the lines that make XBoard 4.9 draw and follow variant v,
// sent after "variant NAME": a "setup (PIECETOCHAR) WxH+S_PARENT FEN" line
// and one "piece" line per piece whose moves XBoard does not know
// (docs/xboard.md). The parent is "fairy", or "bughouse" for a variant
// with drops (XBoard puts no captured piece in hand there: the family's
// stock in hand is fixed). Orthodox chess, XBoard's "normal", needs none.
func Setup(v *env.Variant) ([]string, error) {
	if knownToXBoard(v) {
		return nil, nil
	}
	table, err := pieceTable(v)
	if err != nil {
		return nil, err
	}
	parent := "fairy"
	if v.HasDrops() {
		parent = "bughouse"
	}
	g := v.Geo
	lines := []string{fmt.Sprintf("setup (%s) %dx%d+%d_%s %s", pieceToChar(v, table), g.Files, g.Ranks,
		holdings(v, table), parent, positionText(v.NewPosition()))}
	types := make([]int, 0, len(v.Pieces))
	for t := 1; t < len(v.Pieces); t++ {
		types = append(types, t)
	}
	sort.Slice(types, func(a, b int) bool { return v.Pieces[types[a]].Letter < v.Pieces[types[b]].Letter })
	for _, t := range types {
		pt := v.Pieces[t]
		if t == v.KingType() {
			lines = append(lines, kingLines(v, pt.Letter)...)
			continue
		}
		b := Betza(pt)
		if b == "" || b == standardBetza[table[t]] {
			continue
		}
		lines = append(lines, fmt.Sprintf("piece %c& %s", pt.Letter, b))
	}
	return lines, nil
}

// Betza describes a piece's moves in the Betza notation XBoard 4.9 reads,
// with its multi-leg "a" ("cafmR": a rook move that captures, then goes on
// in the same direction over empty squares), as near as the notation comes
// to the family's rules. It returns "" for the king (see kingLines) and for
// a piece it does not know; it knows the built-in pieces by name, and an
// unnamed piece by the family's letter. The flying moves are not all
// expressible (docs/xboard.md lists each gap): XBoard uses the strings to
// mark target squares and write move lists, and leaves legality to the
// engine when its legality testing is off.
func Betza(pt env.PieceType) string {
	switch pt.Pawn {
	case env.OrthodoxPawn:
		return "fmWfceFifmnD"
	case env.GrandPawn:
		// Two or three steps only from the start square (the rules allow
		// two from the third rank too).
		return "fmWfceFifmW3"
	case env.SlidingPawn:
		// The diagonal step onto an empty square is only allowed when an
		// enemy stands in front; XBoard always offers it.
		return "fmWfceFifmnDfmF"
	case env.NinjaPawn:
		// XBoard offers the long steps and sideways captures everywhere.
		return "fsmWfmW3fcFscW"
	}
	if pt.Royal {
		return ""
	}
	if b, ok := betzaByName[pt.Name]; ok {
		return b
	}
	// A piece an option adds without naming it (hangars' bomber comes from
	// the superpower option): the family's letter says what it is.
	return betzaByLetter[pt.Letter]
}

// betzaByLetter holds the family's fairy pieces by letter.
var betzaByLetter = map[byte]string{
	'F': betzaByName["flying bomber"],
	'D': betzaByName["diagonal bomber"],
	'G': betzaByName["ninja guard"],
	'M': betzaByName["queen-guard"],
	'I': betzaByName["insane ninja knight"],
}

// betzaByName holds the pieces of the built-in variants by name.
var betzaByName = map[string]string{
	"queen":             "Q",
	"rook":              "R",
	"bishop":            "B",
	"knight":            "N",
	"super jump knight": "NC",
	"queen-guard":       "K",
	// slide to empty squares; fly over the first enemy on a line and land
	// behind it (the limited bomber lands on the first square only, the
	// Super Power bomber on any: XBoard offers all); the 2-square leap over
	// anything, and the same leap capturing the piece it passes.
	"flying bomber":       "mRcafmRDcafmcW",
	"diagonal bomber":     "mBcafmBAcafmcF",
	"ninja guard":         "FAcafmcF",
	"leaping ninja guard": "FAcafmcFC",
	"insane ninja knight": "NKADcafmcK",
}

// kingLines returns the piece lines of the king (its letter k): a king's
// step and castling as XBoard's "O" atom, the king going N squares toward
// a rook at the edge ("j": one square in from it), once per distance the
// rules allow, read off a probe position. When the two wings allow
// different distances (fbgc: 1-3 toward i1, 1-4 toward b1) White's and
// Black's kings get one line each ("r" and "l" are mirrored for Black).
func kingLines(v *env.Variant, k byte) []string {
	wings, ok := castlings(v)
	if !ok || len(wings[0].dist)+len(wings[1].dist) == 0 {
		return []string{fmt.Sprintf("piece %c& K", k)}
	}
	atoms := func(w wing, dir string) string {
		var b strings.Builder
		for _, d := range w.dist {
			fmt.Fprintf(&b, "i%s%sO%d", dir, strings.Repeat("j", w.skip), d)
		}
		return b.String()
	}
	if equalInts(wings[0].dist, wings[1].dist) && wings[0].skip == wings[1].skip {
		return []string{fmt.Sprintf("piece %c& K%s", k, atoms(wings[0], "s"))}
	}
	// White's right is toward the h/j file; XBoard turns Black's moves
	// round, so Black's "l" points there.
	return []string{
		fmt.Sprintf("piece %c K%s%s", k, atoms(wings[0], "r"), atoms(wings[1], "l")),
		fmt.Sprintf("piece %c K%s%s", k+'a'-'A', atoms(wings[0], "l"), atoms(wings[1], "r")),
	}
}

// wing is the castling toward one side: the king's distances and how far
// the rook stands in from the board's edge.
type wing struct {
	dist []int
	skip int
}

// castlings reads White's castlings off the start position with White's
// back rank cleared of everything but the king and the rooks: wings[0]
// toward the last file, wings[1] toward file a. ok is false when the
// variant has no castling or the probe position cannot be built.
func castlings(v *env.Variant) (wings [2]wing, ok bool) {
	start := v.NewPosition()
	f := strings.Fields(start.String())
	if len(f) < 3 || f[2] == "-" {
		return wings, false
	}
	g := v.Geo
	ksq := start.KingSquare(env.White)
	if ksq == env.NoSquare {
		return wings, false
	}
	kr := g.Rank(ksq)
	keep := func(s env.Square, q env.Piece) bool {
		if q == env.NoPiece || g.Rank(s) != kr || q.Color() != env.White {
			return true
		}
		return q.Type() == v.KingType() || v.Pieces[q.Type()].Letter == 'R'
	}
	var b strings.Builder
	rookFile := [2]int{-1, g.Files}
	for r := g.FirstRank + g.Ranks - 1; r >= g.FirstRank; r-- {
		empty := 0
		for file := 0; file < g.Files; file++ {
			s := g.At(file, r)
			q := start.At(s)
			if g.IsReal(s) && (q == env.NoPiece || !keep(s, q)) {
				empty++
				continue
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
				empty = 0
			}
			if !g.IsReal(s) {
				b.WriteByte('*')
				continue
			}
			l := v.Pieces[q.Type()].Letter
			if q.Color() == env.Black {
				l += 'a' - 'A'
			} else if r == kr && l == 'R' {
				rookFile[0], rookFile[1] = max(rookFile[0], file), min(rookFile[1], file)
			}
			b.WriteByte(l)
		}
		if empty > 0 {
			fmt.Fprint(&b, empty)
		}
		if r > g.FirstRank {
			b.WriteByte('/')
		}
	}
	if i := strings.IndexByte(f[0], '['); i >= 0 {
		b.WriteString(f[0][i:])
	}
	probe, err := v.ParsePosition(b.String() + " " + strings.Join(f[1:], " "))
	if err != nil {
		return wings, false
	}
	seen := [2]map[int]bool{{}, {}}
	for _, m := range probe.LegalMoves(nil) {
		if m.Kind() != env.Castle {
			continue
		}
		d, w := g.File(m.To())-g.File(m.From()), 0
		if d < 0 {
			d, w = -d, 1
		}
		if !seen[w][d] {
			seen[w][d] = true
			wings[w].dist = append(wings[w].dist, d)
		}
	}
	for w := range wings {
		sort.Ints(wings[w].dist)
	}
	wings[0].skip = max(g.Files-1-rookFile[0], 0)
	wings[1].skip = max(rookFile[1], 0)
	return wings, true
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
