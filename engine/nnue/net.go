package nnue

import (
	"fmt"
	"math"
	"math/rand/v2"

	"bomberzero/env"
)

// Default sizes of a new net.
const (
	DefaultHidden = 128
	DefaultL2     = 16
	DefaultScale  = 400
)

// MaxScore bounds the centipawns a net returns, well inside the engine's
// mate scores.
const MaxScore = 20000

// Net is a learned evaluation: two perspectives sharing one input layer.
// The input layer (Features x H, with bias) gives one accumulator per
// perspective; the side to move's and the opponent's, concatenated (2H),
// go through a clipped ReLU [0,1], a dense layer 2H x L2, a clipped ReLU
// and a dense layer L2 x 1. Beside them runs a linear path, as
// Stockfish's PSQT: each feature has one weight PSQT[f], summed over each
// perspective's active features; half the difference of the side to
// move's sum and the opponent's is added to the last layer's output, and
// that times Scale is the score in centipawns for the side to move.
// SetMaterial starts the path at the variant's piece values, so that a net
// counts material before it is trained and training learns corrections.
// Every matrix is stored row-major with
// its input index first: W1[f*H+j] is feature f's weight into hidden unit
// j, W2[i*L2+j] the weight of concatenated input i into unit j.
type Net struct {
	Variant  string      // the variant's name, as env.LoadVariant takes it
	Layout   string      // FeatureSet.Layout of the variant
	Kings    KingBuckets // FeatureSet.KingBuckets: the set to build for the net
	Mirror   bool        // FeatureSet.Options().Mirror: the set's file mirror
	Features int         // FeatureSet.Len
	H, L2    int
	Scale    float32 // centipawns per unit of output

	W1 []float32 // Features x H
	B1 []float32 // H
	W2 []float32 // 2H x L2
	B2 []float32 // L2
	W3 []float32 // L2 (x 1)
	B3 float32
	// PSQT is the linear path, one weight a feature, in output units
	// (centipawns / Scale).
	PSQT []float32 // Features

	// Base names the evaluation the net corrects: "" (none: the net's
	// score is the whole evaluation) or BaseClassical (a residual net: the
	// engine adds the net's score to the classical evaluation's, built
	// over the piece values BaseTable, so that a net with W3, B3 and PSQT
	// zero is the classical evaluation itself and training only learns
	// what it misses).
	Base string
	// BaseTable is the piece values (centipawns by type) of the classical
	// base evaluation; empty without a base.
	BaseTable []int32

	// Meta is free text about the net (how it was trained), kept in the
	// file's header.
	Meta map[string]string
}

// Options returns the feature set options the net was built for.
func (n *Net) Options() Options { return Options{Kings: n.Kings, Mirror: n.Mirror} }

// BaseClassical is Net.Base of a residual net over the classical
// evaluation.
const BaseClassical = "classical"

// maxBaseValue bounds a base table's piece values (centipawns).
const maxBaseValue = 100000

// NewNet returns a net for feature set fs with h hidden units a
// perspective and l2 in the second layer, its weights drawn at random from
// seed (He-style uniform ranges, small enough that a fresh net scores near
// zero) and Scale DefaultScale.
func NewNet(fs *FeatureSet, h, l2 int, seed uint64) *Net {
	n := &Net{
		Variant: fs.Variant(), Layout: fs.Layout(), Kings: fs.KingBuckets(), Mirror: fs.fileWise, Features: fs.Len(), H: h, L2: l2, Scale: DefaultScale,
		W1: make([]float32, fs.Len()*h), B1: make([]float32, h),
		W2: make([]float32, 2*h*l2), B2: make([]float32, l2),
		W3: make([]float32, l2), PSQT: make([]float32, fs.Len()),
	}
	r := rand.New(rand.NewPCG(seed, 0x6e6e7565))
	fill := func(w []float32, limit float64, base float64) {
		for i := range w {
			w[i] = float32(base + (2*r.Float64()-1)*limit)
		}
	}
	// About 40 features are on at once: keep accumulators near [0, 1].
	fill(n.W1, 0.1, 0)
	fill(n.B1, 0.1, 0.5)
	fill(n.W2, math.Sqrt(1/float64(h)), 0)
	fill(n.B2, 0.1, 0.5)
	fill(n.W3, math.Sqrt(1/float64(l2))*0.5, 0)
	return n
}

// NewResidual returns a residual net over the classical evaluation with
// piece values table (see Net.Base): NewNet's hidden layers, but the last
// layer, its bias and the linear path zero, so that the net adds nothing
// until it is trained.
func NewResidual(fs *FeatureSet, h, l2 int, seed uint64, table []int32) *Net {
	n := NewNet(fs, h, l2, seed)
	n.MakeResidual(table)
	return n
}

// MakeResidual turns a new net (NewNet, NewFactoredNet: its linear path
// zero) into a residual one over the classical evaluation with piece
// values table: the last layer and its bias zero, so that it adds nothing
// until it is trained.
func (n *Net) MakeResidual(table []int32) {
	clear(n.W3)
	n.B3 = 0
	n.Base, n.BaseTable = BaseClassical, append([]int32(nil), table...)
}

// Check reports the first inconsistency of the net's sizes or a weight
// that is not finite.
func (n *Net) Check() error {
	switch {
	case n.Features < 1 || n.H < 1 || n.L2 < 1:
		return fmt.Errorf("sizes features %d, hidden %d, l2 %d; want all positive", n.Features, n.H, n.L2)
	case n.H > 4096 || n.L2 > 1024 || n.Features > 1<<16:
		return fmt.Errorf("sizes features %d, hidden %d, l2 %d; want at most 65536, 4096, 1024", n.Features, n.H, n.L2)
	case !finite32(n.Scale) || n.Scale <= 0:
		return fmt.Errorf("scale %v; want a positive number", n.Scale)
	}
	for _, t := range n.tensors() {
		if len(t.data) != t.want {
			return fmt.Errorf("%s has %d weights; want %d", t.name, len(t.data), t.want)
		}
		for i, x := range t.data {
			if !finite32(x) {
				return fmt.Errorf("%s[%d] is %v; want a finite number", t.name, i, x)
			}
		}
	}
	if !finite32(n.B3) {
		return fmt.Errorf("B3 is %v; want a finite number", n.B3)
	}
	switch n.Base {
	case "":
		if len(n.BaseTable) != 0 {
			return fmt.Errorf("base table of %d values without a base; want none", len(n.BaseTable))
		}
	case BaseClassical:
		if len(n.BaseTable) < 2 {
			return fmt.Errorf("base %s with a table of %d values; want one value per piece type", n.Base, len(n.BaseTable))
		}
		for t, v := range n.BaseTable {
			if v < -maxBaseValue || v > maxBaseValue {
				return fmt.Errorf("base table value of type %d is %d; want -%d to %d centipawns", t, v, maxBaseValue, maxBaseValue)
			}
		}
	default:
		return fmt.Errorf("base %q; want none or %q", n.Base, BaseClassical)
	}
	return nil
}

type tensor struct {
	name  string
	data  []float32
	want  int
	shape []int
}

// tensors lists the net's weight arrays in file order (B3 is in the header).
func (n *Net) tensors() []tensor {
	return []tensor{
		{"W1", n.W1, n.Features * n.H, []int{n.Features, n.H}},
		{"B1", n.B1, n.H, []int{n.H}},
		{"W2", n.W2, 2 * n.H * n.L2, []int{2 * n.H, n.L2}},
		{"B2", n.B2, n.L2, []int{n.L2}},
		{"W3", n.W3, n.L2, []int{n.L2}},
		{"PSQT", n.PSQT, n.Features, []int{n.Features}},
	}
}

// SetMaterial sets the linear path to the piece values table (centipawns
// by piece type, as agent.Values.Table gives) over feature set fs: a
// feature of the perspective's own piece of type t is worth table[t], the
// opponent's -table[t], and each hand feature the drop type's value, so
// that the path alone returns the material balance for the side to move.
// Types beyond the table count zero. Every king bucket's block gets the
// same values; in a factored training net (Features == fs.TrainLen()) only
// the shared block does, the buckets' own blocks are left zero.
func (n *Net) SetMaterial(fs *FeatureSet, table []int32) {
	val := func(t int) float32 {
		if t < 0 || t >= len(table) {
			return 0
		}
		return float32(table[t]) / n.Scale
	}
	clear(n.PSQT)
	block := n.PSQT[:fs.perBucket]
	for s := range fs.cells {
		for t := 1; t <= fs.types; t++ {
			for _, pc := range [2]env.Color{env.White, env.Black} {
				if f := fs.Board(env.White, pc, t, env.Square(s)); f >= 0 {
					if pc == env.White {
						block[f] = val(t)
					} else {
						block[f] = -val(t)
					}
				}
			}
		}
	}
	for k := 1; k <= fs.maxHand; k++ {
		block[fs.Hand(env.White, env.White, k)] = val(fs.dropType)
		block[fs.Hand(env.White, env.Black, k)] = -val(fs.dropType)
	}
	if n.Features == fs.Len() {
		for b := 1; b < fs.Buckets(); b++ {
			copy(n.PSQT[b*fs.perBucket:], block)
		}
	}
}

// NewFactoredNet returns a training net for the bucketed feature set fs in
// its factored layout (ActiveTrain's features, fs.TrainLen of them): the
// shared block's rows drawn as NewNet draws them, every bucket's own block
// zero, so that the net starts as one unbucketed net seen from every
// bucket. Fold turns it into the net the engine plays.
func NewFactoredNet(fs *FeatureSet, h, l2 int, seed uint64) *Net {
	n := NewNet(fs, h, l2, seed)
	per := fs.perBucket
	t := n.Clone()
	t.Features = fs.TrainLen()
	t.Layout = factoredLayout(fs)
	t.W1 = make([]float32, t.Features*h)
	copy(t.W1, n.W1[:per*h])
	t.PSQT = make([]float32, t.Features)
	return t
}

// factoredLayout is the layout fingerprint of fs's factored training nets.
func factoredLayout(fs *FeatureSet) string { return fs.Layout() + "+shared" }

// Fold returns the net the engine plays from training net t of bucketed
// feature set fs (NewFactoredNet, Unfold): each bucket's rows plus the
// shared block's. A net of an unbucketed set is returned as a copy.
func Fold(fs *FeatureSet, t *Net) (*Net, error) {
	if fs.Buckets() == 1 {
		return t.Clone(), nil
	}
	if t.Layout != factoredLayout(fs) || t.Features != fs.TrainLen() {
		return nil, fmt.Errorf("fold: net of layout %s (%d features); want the factored layout %s (%d)", t.Layout, t.Features, factoredLayout(fs), fs.TrainLen())
	}
	h, per := t.H, fs.perBucket
	n := t.Clone()
	n.Layout, n.Features = fs.Layout(), fs.Len()
	n.W1 = make([]float32, n.Features*h)
	n.PSQT = make([]float32, n.Features)
	for b := range fs.Buckets() {
		for f := range per {
			dst := n.W1[(b*per+f)*h : (b*per+f+1)*h]
			copy(dst, t.W1[((1+b)*per+f)*h:((1+b)*per+f+1)*h])
			axpy(dst, t.W1[f*h:(f+1)*h], 1)
			n.PSQT[b*per+f] = t.PSQT[(1+b)*per+f] + t.PSQT[f]
		}
	}
	return n, nil
}

// Unfold returns the factored training net of net n of bucketed feature
// set fs: the shared block zero and each bucket's block n's, so that Fold
// gives n back. A net of an unbucketed set is returned as a copy.
func Unfold(fs *FeatureSet, n *Net) (*Net, error) {
	if fs.Buckets() == 1 {
		return n.Clone(), nil
	}
	if n.Layout != fs.Layout() || n.Features != fs.Len() {
		return nil, fmt.Errorf("unfold: net of layout %s (%d features); want %s (%d)", n.Layout, n.Features, fs.Layout(), fs.Len())
	}
	h, per := n.H, fs.perBucket
	t := n.Clone()
	t.Layout, t.Features = factoredLayout(fs), fs.TrainLen()
	t.W1 = make([]float32, t.Features*h)
	copy(t.W1[per*h:], n.W1)
	t.PSQT = make([]float32, t.Features)
	copy(t.PSQT[per:], n.PSQT)
	return t, nil
}

func finite32(x float32) bool {
	f := float64(x)
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

// Clone returns a deep copy of n.
func (n *Net) Clone() *Net {
	c := *n
	c.W1 = append([]float32(nil), n.W1...)
	c.B1 = append([]float32(nil), n.B1...)
	c.W2 = append([]float32(nil), n.W2...)
	c.B2 = append([]float32(nil), n.B2...)
	c.W3 = append([]float32(nil), n.W3...)
	c.PSQT = append([]float32(nil), n.PSQT...)
	c.BaseTable = append([]int32(nil), n.BaseTable...)
	if n.Meta != nil {
		c.Meta = make(map[string]string, len(n.Meta))
		for k, v := range n.Meta {
			c.Meta[k] = v
		}
	}
	return &c
}

// Output returns the net's raw output (before Scale) for the two
// perspectives' active features, the side to move's first, computed from
// scratch. It allocates; the Evaluator is the fast path.
func (n *Net) Output(us, them []int32) float32 {
	x := make([]float32, 2*n.H)
	var psq [2]float64
	for half, feats := range [2][]int32{us, them} {
		a := x[half*n.H : (half+1)*n.H]
		copy(a, n.B1)
		for _, f := range feats {
			addRow(a, n.W1[int(f)*n.H:int(f+1)*n.H])
			psq[half] += float64(n.PSQT[f])
		}
	}
	h2 := make([]float32, n.L2)
	return n.head(x, h2) + float32((psq[0]-psq[1])/2)
}

// head runs the layers after the accumulators: x (2H, clipped as read)
// to the raw output, with h2 (L2) as scratch.
func (n *Net) head(x, h2 []float32) float32 {
	copy(h2, n.B2)
	l2 := n.L2
	w2 := n.W2[:len(x)*l2]
	if head16Fast(h2, x, w2) {
		return n.out(h2)
	}
	for i, v := range x {
		if v <= 0 {
			continue
		}
		if v > 1 {
			v = 1
		}
		axpy(h2, w2[i*l2:i*l2+l2], v)
	}
	return n.out(h2)
}

// out is the last layer: clipped h2 to the raw output.
func (n *Net) out(h2 []float32) float32 {
	out := n.B3
	w3 := n.W3[:len(h2)]
	for j, v := range h2 {
		if v <= 0 {
			continue
		}
		if v > 1 {
			v = 1
		}
		out += v * w3[j]
	}
	return out
}

// Centipawns turns a raw output into the score the engine uses.
func (n *Net) Centipawns(out float32) int32 {
	cp := float64(out) * float64(n.Scale)
	switch {
	case cp > MaxScore:
		return MaxScore
	case cp < -MaxScore:
		return -MaxScore
	case math.IsNaN(cp):
		return 0
	}
	return int32(math.Round(cp))
}

func addRow(a, w []float32) {
	if addRowFast(a, w) {
		return
	}
	w = w[:len(a)]
	for i, x := range w {
		a[i] += x
	}
}

func subRow(a, w []float32) {
	if subRowFast(a, w) {
		return
	}
	w = w[:len(a)]
	for i, x := range w {
		a[i] -= x
	}
}

func axpy(y, x []float32, a float32) {
	x = x[:len(y)]
	for i, v := range x {
		y[i] += a * v
	}
}

// AddRow adds w[:len(a)] to a, with the AVX2 kernel where it runs: the
// trainer's gather of a feature's weight row into an accumulator and
// scatter of a gradient into it.
func AddRow(a, w []float32) { addRow(a, w) }

// AddClipped adds clip(x[i]) (clipped to [0,1]) times row i of w (len(x)
// rows of len(h) values, row-major) to h, with the AVX2 kernel where it
// runs: the first dense layer after the accumulators.
func AddClipped(h, x, w []float32) {
	l := len(h)
	w = w[:len(x)*l]
	if head16Fast(h, x, w) {
		return
	}
	for i, v := range x {
		if v <= 0 {
			continue
		}
		if v > 1 {
			v = 1
		}
		axpy(h, w[i*l:i*l+l], v)
	}
}
