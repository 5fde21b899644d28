package nnue

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
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
// holes get no feature. With king buckets (KingBuckets) that block of
// features is repeated once per bucket of the perspective's own king
// square, and a perspective's active features are those of its king's
// bucket (Stockfish's HalfKP idea at the granularity of board zones, so
// that the first layer can weigh a piece by where the king it threatens or
// shields stands). With the file mirror (Options.Mirror) a perspective
// whose own king stands on the left half of the board sees the board
// reflected file-wise, as Stockfish's HalfKAv2_hm does: a piece's weights
// are learned from both wings' positions, and the net learns one bit of
// where its king is. It never changes after NewFeatureSet returns.
type FeatureSet struct {
	variant string
	types   int // piece types 1..types
	cells   int
	files   int
	ranks   int
	// cellIndex[view][s] is square s's index among the oriented cells
	// of a view (perspective c, plus 2 when it is file-mirrored), -1 for
	// a cell that has none.
	cellIndex [4][maxCells]int16
	n         int // oriented cells with a feature
	board     int // board features: 2 * types * n
	dropType  int // 0 without drops
	maxHand   int // hand features per relative colour
	perBucket int // board and hand features: one bucket's block
	kings     KingBuckets
	fileWise  bool // Options.Mirror
	// bucket[c][s] is the bucket of perspective c's king on square s.
	bucket [2][maxCells]uint8
	// flip[s] is whether a perspective whose king is on s sees the board
	// file-mirrored (the file test does not depend on the colour).
	flip   [maxCells]bool
	total  int
	layout string
}

// KingBuckets divides the board, seen from a perspective, into zones of its
// own king's square: Files equal groups of files and Ranks zones of ranks,
// one per rank from the perspective's back rank, the last taking the rest.
// The zero value (or 1x1) is no buckets.
type KingBuckets struct{ Files, Ranks int }

// MaxKingBuckets bounds the buckets of a feature set.
const MaxKingBuckets = 64

// Count returns the number of buckets (1 without buckets).
func (k KingBuckets) Count() int { return max(k.Files, 1) * max(k.Ranks, 1) }

// String returns the scheme as FxR ("" without buckets), as
// ParseKingBuckets reads it.
func (k KingBuckets) String() string {
	if k.Count() == 1 {
		return ""
	}
	return fmt.Sprintf("%dx%d", max(k.Files, 1), max(k.Ranks, 1))
}

// ParseKingBuckets reads a scheme written FxR (files by ranks, e.g. 3x3),
// or "" and "none" for no buckets.
func ParseKingBuckets(s string) (KingBuckets, error) {
	if s == "" || s == "none" {
		return KingBuckets{}, nil
	}
	f, r, ok := strings.Cut(s, "x")
	nf, err1 := strconv.Atoi(f)
	nr, err2 := strconv.Atoi(r)
	if !ok || err1 != nil || err2 != nil || nf < 1 || nr < 1 {
		return KingBuckets{}, fmt.Errorf("king buckets %q: want FILESxRANKS (e.g. 3x3) or none", s)
	}
	k := KingBuckets{nf, nr}
	if err := k.Validate(); err != nil {
		return KingBuckets{}, err
	}
	return k, nil
}

// Validate reports a scheme that no board takes: negative zone counts or
// more than MaxKingBuckets buckets.
func (k KingBuckets) Validate() error {
	switch {
	case k.Files < 0 || k.Ranks < 0:
		return fmt.Errorf("king buckets %dx%d: want positive zone counts", k.Files, k.Ranks)
	case k.Count() > MaxKingBuckets:
		return fmt.Errorf("king buckets %s: %d buckets; want at most %d", k, k.Count(), MaxKingBuckets)
	}
	return nil
}

// check reports a scheme that does not fit a board of files x ranks.
func (k KingBuckets) check(files, ranks int) error {
	if err := k.Validate(); err != nil {
		return err
	}
	if k.Files > files || k.Ranks > ranks {
		return fmt.Errorf("king buckets %s on a %dx%d board: want at most %d file zones and %d rank zones", k, files, ranks, files, ranks)
	}
	return nil
}

// Options are a feature set's choices beyond its variant: king buckets
// and the file mirror. The zero value is the plain layout.
type Options struct {
	// Kings are the king buckets (KingBuckets; the zero value for none).
	Kings KingBuckets
	// Mirror reflects a perspective's squares file-wise (a<->j on 10
	// files) while its own king stands on a file below files/2 (a..e of
	// 10, a..d of 8), and leaves them unreflected without a king on the
	// board. With buckets too, the bucket is taken on the reflected king
	// square, so the file zones divide the files/2.. right half only (at
	// most files - files/2 file zones). A board whose holes are not
	// symmetric under the file mirror does not take it.
	Mirror bool
}

// String returns the options as flags would spell them: "kings FxR",
// "mirror", both, or "none".
func (o Options) String() string {
	var parts []string
	if o.Kings.Count() > 1 {
		parts = append(parts, "kings "+o.Kings.String())
	}
	if o.Mirror {
		parts = append(parts, "mirror")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// NewFeatureSet returns variant v's feature layout without king buckets.
func NewFeatureSet(v *env.Variant) *FeatureSet {
	fs, _ := NewFeatureSetWith(v, Options{})
	return fs
}

// FeatureSetOf returns the feature set of net n over variant v: v's layout
// with n's king buckets and file mirror. NewEvaluator still checks that
// they match.
func FeatureSetOf(v *env.Variant, n *Net) (*FeatureSet, error) {
	fs, err := NewFeatureSetWith(v, n.Options())
	if err != nil {
		return nil, fmt.Errorf("net's %w", err)
	}
	return fs, nil
}

// NewBucketedFeatureSet returns variant v's feature layout with king
// buckets k, or an error when k does not fit the board. Without a royal
// piece every position is in bucket 0.
func NewBucketedFeatureSet(v *env.Variant, k KingBuckets) (*FeatureSet, error) {
	return NewFeatureSetWith(v, Options{Kings: k})
}

// checkMirror reports a board the file mirror does not fit: a hole whose
// file-wise reflection is a square.
func checkMirror(v *env.Variant) error {
	g := v.Geo
	for s := range g.Cells() {
		m := env.Square(reflectFile(s, g.Files))
		if g.IsReal(env.Square(s)) != g.IsReal(m) {
			hole, real := g.Name(env.Square(s)), g.Name(m)
			if g.IsReal(env.Square(s)) {
				hole, real = real, hole
			}
			return fmt.Errorf("file mirror: variant %s's board is not symmetric file-wise (%s is a hole, its mirror %s a square)", v.Name, hole, real)
		}
	}
	return nil
}

// NewFeatureSetWith returns variant v's feature layout with options o, or
// an error when o's king buckets do not fit the board (with the mirror:
// its right half) or the board does not take the mirror.
func NewFeatureSetWith(v *env.Variant, o Options) (*FeatureSet, error) {
	g := v.Geo
	k := o.Kings
	if err := k.check(g.Files, g.Ranks); err != nil {
		return nil, err
	}
	lo := 0 // the first file a king's zone counts from
	if o.Mirror {
		if err := checkMirror(v); err != nil {
			return nil, err
		}
		lo = g.Files / 2
		if k.Files > g.Files-lo {
			return nil, fmt.Errorf("king buckets %s with the file mirror on a %dx%d board: want at most %d file zones (the kings' half)", k, g.Files, g.Ranks, g.Files-lo)
		}
	}
	if k.Count() == 1 {
		k = KingBuckets{}
	}
	fs := &FeatureSet{variant: v.Name, types: len(v.Pieces) - 1, cells: g.Cells(), files: g.Files, ranks: g.Ranks, kings: k, fileWise: o.Mirror}
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
		for view := range fs.cellIndex {
			fs.cellIndex[view][s] = -1
		}
		if s < fs.cells && g.IsReal(env.Square(s)) {
			fs.cellIndex[0][s] = index[s]
			fs.cellIndex[1][s] = index[fs.mirror(s)]
			if o.Mirror {
				// The holes are symmetric file-wise, so the
				// reflected cells have features too.
				fs.cellIndex[2][s] = index[fs.fileMirror(s)]
				fs.cellIndex[3][s] = index[fs.fileMirror(fs.mirror(s))]
			}
		}
		if o.Mirror && s < fs.cells {
			fs.flip[s] = s%fs.files < lo
		}
	}
	fs.board = 2 * fs.types * fs.n
	fs.perBucket = fs.board
	if t := v.DropType(); t != 0 {
		start := v.NewPosition()
		fs.dropType = t
		fs.maxHand = max(start.InHand(env.White, t), start.InHand(env.Black, t), 1)
		fs.perBucket += 2 * fs.maxHand
	}
	fs.total = fs.perBucket * k.Count()
	if k.Count() > 1 {
		for s := range fs.cells {
			for c := range 2 {
				o := s
				if c == 1 {
					o = fs.mirror(s)
				}
				if fs.flip[o] {
					o = fs.fileMirror(o)
				}
				fz := (o%fs.files - lo) * k.Files / (fs.files - lo)
				rz := min(o/fs.files, k.Ranks-1)
				fs.bucket[c][s] = uint8(rz*k.Files + fz)
			}
		}
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
	if k.Count() > 1 {
		// Only bucketed sets say so: an unbucketed set keeps the
		// fingerprint nets had before buckets existed.
		fmt.Fprintf(&b, " kings %s", k)
	}
	if o.Mirror {
		// The same for the mirror: a plain set's fingerprint stays.
		b.WriteString(" mirror")
	}
	sum := sha256.Sum256([]byte(b.String()))
	fs.layout = hex.EncodeToString(sum[:8])
	return fs, nil
}

// mirror returns cell s reflected rank-wise.
func (fs *FeatureSet) mirror(s int) int {
	return (fs.ranks-1-s/fs.files)*fs.files + s%fs.files
}

// fileMirror returns cell s reflected file-wise.
func (fs *FeatureSet) fileMirror(s int) int { return reflectFile(s, fs.files) }

// reflectFile returns cell s of a board files wide reflected file-wise.
func reflectFile(s, files int) int { return s/files*files + files - 1 - s%files }

// Len returns the number of features.
func (fs *FeatureSet) Len() int { return fs.total }

// KingBuckets returns the set's king buckets (the zero value for none).
func (fs *FeatureSet) KingBuckets() KingBuckets { return fs.kings }

// Options returns the set's king buckets and file mirror.
func (fs *FeatureSet) Options() Options { return Options{Kings: fs.kings, Mirror: fs.fileWise} }

// Mirrored reports whether perspective c sees pos file-mirrored: the set
// mirrors and c's king stands on the left half of the board.
func (fs *FeatureSet) Mirrored(pos *env.Position, c env.Color) bool {
	if !fs.fileWise {
		return false
	}
	k := pos.KingSquare(c)
	return k != env.NoSquare && int(k) < fs.cells && fs.flip[k]
}

// view returns perspective c's view of pos: the index of cellIndex.
func (fs *FeatureSet) view(pos *env.Position, c env.Color) int {
	if fs.Mirrored(pos, c) {
		return int(c) + 2
	}
	return int(c)
}

// Buckets returns the number of king buckets (1 without buckets).
func (fs *FeatureSet) Buckets() int { return fs.kings.Count() }

// PerBucket returns the features of one bucket's block: Board and Hand
// index inside it.
func (fs *FeatureSet) PerBucket() int { return fs.perBucket }

// Bucket returns the bucket of perspective c's king in pos (0 without
// buckets or without a king on the board), with the mirror that of its
// file-mirrored square when it stands on the left half.
func (fs *FeatureSet) Bucket(pos *env.Position, c env.Color) int {
	if fs.kings.Count() == 1 {
		return 0
	}
	k := pos.KingSquare(c)
	if k == env.NoSquare || int(k) >= fs.cells {
		return 0
	}
	return int(fs.bucket[c][k])
}

// TrainLen returns the number of features of the factored training layout
// (ActiveTrain): one shared block and one block per bucket, or Len without
// buckets.
func (fs *FeatureSet) TrainLen() int {
	if fs.kings.Count() == 1 {
		return fs.total
	}
	return fs.total + fs.perBucket
}

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
// s seen from perspective c inside one bucket's block (add the bucket
// times PerBucket for the set's index), -1 when s has none (a hole). It
// is the view without the file mirror (Mirrored false).
func (fs *FeatureSet) Board(c env.Color, pc env.Color, t int, s env.Square) int32 {
	return fs.boardIn(int(c), c, pc, t, s)
}

// boardIn is Board in view (perspective c, plus 2 when file-mirrored).
func (fs *FeatureSet) boardIn(view int, c env.Color, pc env.Color, t int, s env.Square) int32 {
	i := fs.cellIndex[view][s]
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
// seen from perspective c (k from 1 to the set's maximum) inside one
// bucket's block, -1 when none.
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
	buf = fs.block(pos, c, buf[:0])
	if off := int32(fs.Bucket(pos, c) * fs.perBucket); off != 0 {
		for i := range buf {
			buf[i] += off
		}
	}
	return buf
}

// ActiveTrain appends the features of the factored training layout on in
// pos seen from perspective c to buf[:0]: each block feature twice, once
// in the shared block (index f) and once in the block of c's king bucket
// (PerBucket + bucket*PerBucket + f), so that what all buckets share is
// learned from every position. Fold adds the shared block into each
// bucket's. Without buckets it is Active. A buffer of capacity
// 2*MaxActive does not allocate.
func (fs *FeatureSet) ActiveTrain(pos *env.Position, c env.Color, buf []int32) []int32 {
	if fs.kings.Count() == 1 {
		return fs.Active(pos, c, buf)
	}
	buf = fs.block(pos, c, buf[:0])
	n := len(buf)
	off := int32((1 + fs.Bucket(pos, c)) * fs.perBucket)
	for i := range n {
		buf = append(buf, buf[i]+off)
	}
	return buf
}

// block appends the features on in pos seen from perspective c inside one
// bucket's block to buf.
func (fs *FeatureSet) block(pos *env.Position, c env.Color, buf []int32) []int32 {
	view := fs.view(pos, c)
	for s := range fs.cells {
		q := pos.At(env.Square(s))
		if q == env.NoPiece {
			continue
		}
		if f := fs.boardIn(view, c, q.Color(), q.Type(), env.Square(s)); f >= 0 {
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
