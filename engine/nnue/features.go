package nnue

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"bomberzero/env"
)

// maxCells bounds a board's cells (env's 16 x 16 grid).
const maxCells = 256

// FeatureSet is the input layout of a variant's net: one feature per
// (colour relative to the perspective, piece type, square seen from the
// perspective) and, in drop variants, one per (relative colour, type in
// hand, k) that is on while that side holds at least k of that type.
// Squares are seen from the perspective by mirroring the ranks for Black;
// holes get no feature. It never changes after NewFeatureSet returns.
type FeatureSet struct {
	variant string
	types   int // piece types 1..types
	cells   int
	files   int
	ranks   int
	// cellIndex[c][s] is square s's index among the perspective's
	// oriented cells, -1 for a cell that has none.
	cellIndex [2][maxCells]int16
	n         int // oriented cells with a feature
	board     int // board features: 2 * types * n
	dropType  int // 0 without drops
	maxHand   int // hand features per relative colour
	total     int
	layout    string
}

// NewFeatureSet returns variant v's feature layout.
func NewFeatureSet(v *env.Variant) *FeatureSet {
	g := v.Geo
	fs := &FeatureSet{variant: v.Name, types: len(v.Pieces) - 1, cells: g.Cells(), files: g.Files, ranks: g.Ranks}
	// An oriented cell gets a feature when it is a real square from
	// either side's point of view, so that boards whose holes are not
	// symmetric under the rank mirror keep one index per oriented cell.
	var used [maxCells]bool
	for s := range fs.cells {
		if g.IsReal(env.Square(s)) {
			used[s] = true
			used[fs.mirror(s)] = true
		}
	}
	var index [maxCells]int16
	for s := range fs.cells {
		index[s] = -1
		if used[s] {
			index[s] = int16(fs.n)
			fs.n++
		}
	}
	for s := range maxCells {
		fs.cellIndex[0][s], fs.cellIndex[1][s] = -1, -1
		if s < fs.cells && g.IsReal(env.Square(s)) {
			fs.cellIndex[0][s] = index[s]
			fs.cellIndex[1][s] = index[fs.mirror(s)]
		}
	}
	fs.board = 2 * fs.types * fs.n
	fs.total = fs.board
	if t := v.DropType(); t != 0 {
		start := v.NewPosition()
		fs.dropType = t
		fs.maxHand = max(start.InHand(env.White, t), start.InHand(env.Black, t), 1)
		fs.total += 2 * fs.maxHand
	}
	var b strings.Builder
	fmt.Fprintf(&b, "nnue-features-1 %dx%d types", fs.files, fs.ranks)
	for t := 1; t <= fs.types; t++ {
		b.WriteByte(' ')
		b.WriteByte(v.Pieces[t].Letter)
	}
	b.WriteString(" cells")
	for s := range fs.cells {
		fmt.Fprintf(&b, " %d", index[s])
	}
	fmt.Fprintf(&b, " drop %d hand %d", fs.dropType, fs.maxHand)
	sum := sha256.Sum256([]byte(b.String()))
	fs.layout = hex.EncodeToString(sum[:8])
	return fs
}

// mirror returns cell s reflected rank-wise.
func (fs *FeatureSet) mirror(s int) int {
	return (fs.ranks-1-s/fs.files)*fs.files + s%fs.files
}

// Len returns the number of features.
func (fs *FeatureSet) Len() int { return fs.total }

// Variant returns the name of the variant the set was built for.
func (fs *FeatureSet) Variant() string { return fs.variant }

// Layout returns the fingerprint of the layout: the first 16 hex digits of
// the SHA-256 of a text naming the board, the piece letters, the cells'
// indexes and the hand features. Nets store it; two variants with the
// same fingerprint share one input layout.
func (fs *FeatureSet) Layout() string { return fs.layout }

// MaxActive bounds the features Active returns for one perspective.
func (fs *FeatureSet) MaxActive() int { return fs.cells + 2*fs.maxHand }

// Board returns the feature of a piece of type t and colour pc on square
// s seen from perspective c, -1 when s has none (a hole).
func (fs *FeatureSet) Board(c env.Color, pc env.Color, t int, s env.Square) int32 {
	i := fs.cellIndex[c][s]
	if i < 0 || t < 1 || t > fs.types {
		return -1
	}
	rel := 0
	if pc != c {
		rel = 1
	}
	return int32((rel*fs.types+t-1)*fs.n + int(i))
}

// Hand returns the feature "side pc holds at least k of the drop type"
// seen from perspective c (k from 1 to the set's maximum), -1 when none.
func (fs *FeatureSet) Hand(c, pc env.Color, k int) int32 {
	if fs.dropType == 0 || k < 1 || k > fs.maxHand {
		return -1
	}
	rel := 0
	if pc != c {
		rel = 1
	}
	return int32(fs.board + rel*fs.maxHand + k - 1)
}

// Active appends the features on in pos seen from perspective c to
// buf[:0] and returns it; with a buffer of capacity MaxActive it does not
// allocate.
func (fs *FeatureSet) Active(pos *env.Position, c env.Color, buf []int32) []int32 {
	buf = buf[:0]
	for s := range fs.cells {
		q := pos.At(env.Square(s))
		if q == env.NoPiece {
			continue
		}
		if f := fs.Board(c, q.Color(), q.Type(), env.Square(s)); f >= 0 {
			buf = append(buf, f)
		}
	}
	if fs.dropType != 0 {
		for _, pc := range [2]env.Color{env.White, env.Black} {
			n := min(pos.InHand(pc, fs.dropType), fs.maxHand)
			for k := 1; k <= n; k++ {
				buf = append(buf, fs.Hand(c, pc, k))
			}
		}
	}
	return buf
}
