package nnue

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/env"
)

// variantsUnderTest is every built-in variant and every option each one
// accepts.
func variantsUnderTest(t testing.TB) []*env.Variant {
	t.Helper()
	var out []*env.Variant
	for _, name := range env.VariantNames() {
		v, err := env.LoadVariant(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
		for _, o := range env.OptionNames() {
			if v, err := env.LoadVariant(name + "+" + o); err == nil {
				out = append(out, v)
			}
		}
	}
	return out
}

func mustVariant(t testing.TB, name string) *env.Variant {
	t.Helper()
	v, err := env.LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// reference is a from-scratch forward pass in float64.
func reference(n *Net, fs *FeatureSet, pos *env.Position) float64 {
	us := pos.SideToMove()
	x := make([]float64, 2*n.H)
	for half, c := range [2]env.Color{us, us.Other()} {
		for j := range n.H {
			x[half*n.H+j] = float64(n.B1[j])
		}
		for _, f := range fs.Active(pos, c, nil) {
			for j := range n.H {
				x[half*n.H+j] += float64(n.W1[int(f)*n.H+j])
			}
		}
	}
	clip := func(v float64) float64 { return math.Min(1, math.Max(0, v)) }
	out := float64(n.B3)
	for j := range n.L2 {
		h := float64(n.B2[j])
		for i := range x {
			h += clip(x[i]) * float64(n.W2[i*n.L2+j])
		}
		out += clip(h) * float64(n.W3[j])
	}
	for half, c := range [2]env.Color{us, us.Other()} {
		sign := 0.5 - float64(half)
		for _, f := range fs.Active(pos, c, nil) {
			out += sign * float64(n.PSQT[f])
		}
	}
	return out * float64(n.Scale)
}

// withPSQT sets n's linear path to material values plus noise, so that
// tests see every feature's weight.
func withPSQT(n *Net, fs *FeatureSet, seed uint64) *Net {
	table := make([]int32, fs.types+1)
	for t := range table {
		table[t] = int32(100 * t)
	}
	n.SetMaterial(fs, table)
	r := rand.New(rand.NewPCG(seed, 3))
	for i := range n.PSQT {
		n.PSQT[i] += float32(r.Float64()-0.5) * 0.1
	}
	return n
}

// scratch is the float32 forward pass from scratch, in centipawns.
func scratch(n *Net, fs *FeatureSet, pos *env.Position) float64 {
	us := pos.SideToMove()
	return float64(n.Output(fs.Active(pos, us, nil), fs.Active(pos, us.Other(), nil))) * float64(n.Scale)
}

func TestFeaturesAreDistinctInRangeAndMirrored(t *testing.T) {
	for _, v := range variantsUnderTest(t) {
		fs := NewFeatureSet(v)
		pos := v.NewPosition()
		for c := range env.Color(2) {
			seen := map[int32]bool{}
			feats := fs.Active(pos, c, make([]int32, 0, fs.MaxActive()))
			if len(feats) == 0 {
				t.Fatalf("%s: no features at the start", v.Name)
			}
			for _, f := range feats {
				if f < 0 || int(f) >= fs.Len() || seen[f] {
					t.Fatalf("%s: feature %d out of range %d or repeated", v.Name, f, fs.Len())
				}
				seen[f] = true
			}
		}
		// The start positions are symmetric: White's view of White equals Black's view of Black.
		w, b := fs.Active(pos, env.White, nil), fs.Active(pos, env.Black, nil)
		if !sameSet(w, b) && symmetricStart(v) {
			t.Errorf("%s: the start position's features differ between the perspectives", v.Name)
		}
	}
}

func symmetricStart(v *env.Variant) bool {
	pos := v.NewPosition()
	g := v.Geo
	for s := range g.Cells() {
		q := pos.At(env.Square(s))
		m := (g.Ranks-1-s/g.Files)*g.Files + s%g.Files
		r := pos.At(env.Square(m))
		if (q == env.NoPiece) != (r == env.NoPiece) || (q != env.NoPiece && (q.Type() != r.Type() || q.Color() == r.Color())) {
			return false
		}
	}
	return true
}

func sameSet(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[int32]int{}
	for _, f := range a {
		m[f]++
	}
	for _, f := range b {
		m[f]--
	}
	for _, k := range m {
		if k != 0 {
			return false
		}
	}
	return true
}

// bucketSchemes are the feature options the evaluator tests run: none,
// king buckets 3x2 where the board has room for them, and on the boards
// that take the file mirror, the mirror alone and with buckets 2x2.
func bucketSchemes(t testing.TB, v *env.Variant) []*FeatureSet {
	t.Helper()
	out := []*FeatureSet{NewFeatureSet(v)}
	if fs, err := NewBucketedFeatureSet(v, KingBuckets{3, 2}); err == nil {
		out = append(out, fs)
	} else if v.Geo.Files >= 3 && v.Geo.Ranks >= 2 {
		t.Fatalf("%s: %v", v.Name, err)
	}
	if !fileSymmetric(v) {
		return out
	}
	for _, o := range []Options{{Mirror: true}, {Kings: KingBuckets{2, 2}, Mirror: true}} {
		fs, err := NewFeatureSetWith(v, o)
		if err != nil {
			t.Fatalf("%s %s: %v", v.Name, o, err)
		}
		out = append(out, fs)
	}
	return out
}

func TestIncrementalEqualsScratchInEveryVariant(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for vi, v := range variantsUnderTest(t) {
		for _, fs := range bucketSchemes(t, v) {
			n := withPSQT(NewNet(fs, 32, 8, uint64(vi)), fs, uint64(vi))
			e, err := NewEvaluator(n, fs, "test")
			if err != nil {
				t.Fatal(err)
			}
			var saved []*env.Position
			buf := make([]env.Move, 0, 256)
			buckets := map[int]bool{}
			mirrored := map[bool]bool{}
			for game := range 3 {
				pos := v.NewPosition()
				for ply := 0; ply < 120; ply++ {
					check := func(p *env.Position) {
						t.Helper()
						got := float64(e.Output(p)) * float64(n.Scale)
						if want := scratch(n, fs, p); math.Abs(got-want) > 1e-3 {
							t.Fatalf("%s %s game %d ply %d: incremental %.6f cp, from scratch %.6f (%s)", v.Name, fs.Options(), game, ply, got, want, p)
						}
						if ref := reference(n, fs, p); math.Abs(got-ref) > 1e-2 {
							t.Fatalf("%s %s game %d ply %d: %.6f cp, float64 reference %.6f", v.Name, fs.Options(), game, ply, got, ref)
						}
					}
					check(pos)
					buckets[fs.Bucket(pos, env.White)] = true
					mirrored[fs.Mirrored(pos, env.White)] = true
					if len(saved) > 0 && r.IntN(8) == 0 { // a jump to an unrelated position and back
						check(saved[r.IntN(len(saved))])
					}
					if r.IntN(10) == 0 {
						saved = append(saved, pos.Clone())
					}
					if res, _ := pos.Status(); res != env.Ongoing {
						break
					}
					moves := pos.LegalMoves(buf[:0])
					pos.DoMove(moves[r.IntN(len(moves))])
				}
			}
			if fs.Buckets() > 1 && len(buckets) < 2 && v.KingType() != 0 {
				t.Logf("%s: the random games kept White's king in one bucket", v.Name)
			}
			if fs.Options().Mirror && len(mirrored) < 2 && v.KingType() != 0 {
				t.Logf("%s: the random games kept White's king on one side of the middle file", v.Name)
			}
		}
	}
}

// A bucket is the zone of the perspective's own king square, seen from
// that side: files in equal groups, ranks counted from its back rank.
func TestKingBucketsZoneTheOwnKingsSquare(t *testing.T) {
	v := mustVariant(t, "fbgc") // 10 x 10
	fs, err := NewBucketedFeatureSet(v, KingBuckets{3, 2})
	if err != nil {
		t.Fatal(err)
	}
	if fs.Buckets() != 6 || fs.Len() != 6*fs.PerBucket() || fs.TrainLen() != 7*fs.PerBucket() {
		t.Fatalf("buckets %d, len %d, train len %d, block %d", fs.Buckets(), fs.Len(), fs.TrainLen(), fs.PerBucket())
	}
	sq := func(file, rank int) int { return rank*10 + file }
	for _, c := range []struct {
		color      env.Color
		file, rank int
		want       int
	}{
		{env.White, 0, 0, 0}, {env.White, 3, 0, 0}, {env.White, 4, 0, 1}, {env.White, 6, 0, 1},
		{env.White, 7, 0, 2}, {env.White, 9, 0, 2}, {env.White, 0, 1, 3}, {env.White, 5, 7, 4},
		{env.White, 9, 9, 5},
		// Black's back rank is rank 9: its king there is in a back-rank bucket.
		{env.Black, 0, 9, 0}, {env.Black, 9, 9, 2}, {env.Black, 5, 8, 4}, {env.Black, 0, 0, 3},
	} {
		if got := int(fs.bucket[c.color][sq(c.file, c.rank)]); got != c.want {
			t.Errorf("%v king on file %d rank %d: bucket %d, want %d", c.color, c.file, c.rank, got, c.want)
		}
	}
	pos := v.NewPosition()
	if w, b := fs.Bucket(pos, env.White), fs.Bucket(pos, env.Black); w != b || w >= 3 {
		t.Errorf("start position: White's bucket %d, Black's %d; want the same back-rank bucket", w, b)
	}
	if NewFeatureSet(v).Layout() == fs.Layout() {
		t.Error("the bucketed layout has the unbucketed fingerprint")
	}
	for _, bad := range []KingBuckets{{11, 1}, {1, 11}, {-1, 2}, {8, 9}} {
		if _, err := NewBucketedFeatureSet(v, bad); err == nil {
			t.Errorf("buckets %+v on a 10x10 board: no error", bad)
		}
	}
}

func TestParseKingBuckets(t *testing.T) {
	for _, c := range []struct {
		in   string
		want KingBuckets
		err  bool
	}{
		{"", KingBuckets{}, false}, {"none", KingBuckets{}, false}, {"3x2", KingBuckets{3, 2}, false},
		{"1x1", KingBuckets{1, 1}, false}, {"3", KingBuckets{}, true}, {"0x2", KingBuckets{}, true},
		{"ax2", KingBuckets{}, true}, {"9x9", KingBuckets{}, true}, {"3x-1", KingBuckets{}, true},
	} {
		got, err := ParseKingBuckets(c.in)
		if (err != nil) != c.err || (!c.err && got != c.want) {
			t.Errorf("ParseKingBuckets(%q) = %+v, %v", c.in, got, err)
		}
		if !c.err && got.Count() > 1 {
			if back, _ := ParseKingBuckets(got.String()); back != got {
				t.Errorf("%q does not round-trip: %q", c.in, got.String())
			}
		}
	}
}

// The factored training net and the net Fold makes of it score every
// position alike, and Fold undoes Unfold.
func TestFoldKeepsTheFactoredNetsScores(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, name := range []string{"fbgc", "chess", "fbgc+superpower"} {
		v := mustVariant(t, name)
		fs, err := NewBucketedFeatureSet(v, KingBuckets{3, 2})
		if err != nil {
			t.Fatal(err)
		}
		tr := withPSQT(NewFactoredNet(fs, 16, 8, 1), fs, 2)
		for i := range tr.W1 { // every block non-zero, as after training
			tr.W1[i] += float32(r.Float64()-0.5) * 0.05
		}
		for i := range tr.PSQT {
			tr.PSQT[i] += float32(r.Float64()-0.5) * 0.05
		}
		n, err := Fold(fs, tr)
		if err != nil {
			t.Fatal(err)
		}
		if n.Features != fs.Len() || n.Layout != fs.Layout() || n.Kings != fs.KingBuckets() {
			t.Fatalf("%s: folded net has %d features, layout %s, kings %v", name, n.Features, n.Layout, n.Kings)
		}
		buf := make([]env.Move, 0, 256)
		pos := v.NewPosition()
		for ply := range 80 {
			us := pos.SideToMove()
			want := tr.Output(fs.ActiveTrain(pos, us, nil), fs.ActiveTrain(pos, us.Other(), nil))
			got := n.Output(fs.Active(pos, us, nil), fs.Active(pos, us.Other(), nil))
			if math.Abs(float64(got-want)) > 1e-4 {
				t.Fatalf("%s ply %d: folded %v, factored %v", name, ply, got, want)
			}
			if res, _ := pos.Status(); res != env.Ongoing {
				break
			}
			moves := pos.LegalMoves(buf[:0])
			pos.DoMove(moves[r.IntN(len(moves))])
		}
		un, err := Unfold(fs, n)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Fold(fs, un)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n.W1 {
			if back.W1[i] != n.W1[i] {
				t.Fatalf("%s: Fold(Unfold(n)).W1[%d] = %v, want %v", name, i, back.W1[i], n.W1[i])
			}
		}
		if _, err := Fold(fs, n); err == nil {
			t.Errorf("%s: folding a folded net: no error", name)
		}
	}
}

// With its dense layers silent, a net whose linear path SetMaterial set
// evaluates the material balance, in every variant (hands included).
func TestSetMaterialCountsMaterial(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	for _, v := range variantsUnderTest(t) {
		fs := NewFeatureSet(v)
		n := NewNet(fs, 8, 8, 1)
		clear(n.W3)
		n.B3 = 0
		table := make([]int32, len(v.Pieces))
		for ty := 1; ty < len(table); ty++ {
			if !v.Pieces[ty].Royal {
				table[ty] = int32(50 * ty)
			}
		}
		n.SetMaterial(fs, table)
		e, _ := NewEvaluator(n, fs, "m")
		pos := v.NewPosition()
		buf := make([]env.Move, 0, 256)
		for ply := 0; ply < 80; ply++ {
			us := pos.SideToMove()
			var want int32
			for ty := 1; ty < len(table); ty++ {
				want += table[ty] * int32(pos.Count(us, ty)-pos.Count(us.Other(), ty))
			}
			if d := fs.dropType; d != 0 {
				want += table[d] * int32(min(pos.InHand(us, d), fs.maxHand)-min(pos.InHand(us.Other(), d), fs.maxHand))
			}
			if got := e.Evaluate(pos); got != want {
				t.Fatalf("%s ply %d: %d cp; want the material %d (%s)", v.Name, ply, got, want, pos)
			}
			if res, _ := pos.Status(); res != env.Ongoing {
				break
			}
			moves := pos.LegalMoves(buf[:0])
			pos.DoMove(moves[r.IntN(len(moves))])
		}
	}
}

// TestNewResidualAddsNothing: an untrained residual net's correction is
// exactly zero in every position, so the engine over it is the classical
// one; a trained one (W3 set) is not.
func TestNewResidualAddsNothing(t *testing.T) {
	for _, name := range []string{"fbgc", "chess"} {
		v := mustVariant(t, name)
		fs := NewFeatureSet(v)
		n := NewResidual(fs, 16, 8, 5, []int32{0, 100, 300})
		if err := n.Check(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pos := v.NewPosition()
		r := rand.New(rand.NewPCG(9, 9))
		trained := n.Clone()
		trained.W3[0] = 1
		moved := false
		for range 40 {
			if got := scratch(n, fs, pos); got != 0 {
				t.Fatalf("%s: an untrained residual net outputs %v; want 0", name, got)
			}
			moved = moved || scratch(trained, fs, pos) != 0
			if res, _ := pos.Status(); res != env.Ongoing {
				break
			}
			ms := pos.LegalMoves(nil)
			pos.DoMove(ms[r.IntN(len(ms))])
		}
		if !moved {
			t.Errorf("%s: a residual net with W3 set outputs 0 everywhere; want a correction", name)
		}
	}
}

func TestEvaluateDoesNotAllocate(t *testing.T) {
	v := mustVariant(t, "fbgc")
	for _, o := range []Options{{}, {Mirror: true}, {Kings: KingBuckets{2, 2}, Mirror: true}} {
		fs, err := NewFeatureSetWith(v, o)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := NewEvaluator(NewNet(fs, DefaultHidden, DefaultL2, 1), fs, "t")
		pos := v.NewPosition()
		moves := pos.LegalMoves(nil)
		if a := testing.AllocsPerRun(100, func() {
			u := pos.DoMove(moves[3])
			e.Evaluate(pos)
			pos.UndoMove(u)
			e.Evaluate(pos)
			e.Reset() // the rebuild too
			e.Evaluate(pos)
		}); a != 0 {
			t.Fatalf("%s: %v allocations a call; want 0", o, a)
		}
	}
}

func TestFileRoundTripsAndRefusesBadFiles(t *testing.T) {
	v := mustVariant(t, "fbgc")
	fs := NewFeatureSet(v)
	n := withPSQT(NewNet(fs, 8, 4, 3), fs, 3)
	n.Meta = map[string]string{"by": "test"}
	dir := t.TempDir()
	path := filepath.Join(dir, "a.nnue")
	if err := WriteFile(path, n); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pos := v.NewPosition()
	if a, b := scratch(n, fs, pos), scratch(got, fs, pos); a != b || got.Meta["by"] != "test" || got.Variant != "fbgc" || got.Layout != fs.Layout() {
		t.Fatalf("read back %v, wrote %v", b, a)
	}
	data, _ := os.ReadFile(path)
	write := func(name string, d []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, d, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	damaged := append([]byte(nil), data...)
	damaged[len(damaged)-100] ^= 1
	res := NewResidual(fs, 8, 4, 3, []int32{0, 100, 300})
	resData, err := Encode(res)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Decode(resData); err != nil {
		t.Fatalf("a residual net: %v", err)
	} else if got.Base != BaseClassical || fmt.Sprint(got.BaseTable) != "[0 100 300]" {
		t.Fatalf("a residual net read back as base %q table %v; want classical [0 100 300]", got.Base, got.BaseTable)
	}
	nan := n.Clone()
	nan.W2[5] = float32(math.NaN())
	cases := []struct {
		name string
		path string
		want string
	}{
		{"damaged", write("damaged.nnue", damaged), "checksum"},
		{"truncated", write("short.nnue", data[:len(data)-200]), "truncated"},
		{"not a net", write("text.nnue", []byte("hello world, this is not a net file at all, not at all")), "not a bomberzero net file"},
		{"version", write("v5.nnue", rewriteHeader(t, data, `"version":3`, `"version":6`)), "version 6; this build reads versions 1 to 5"},
		{"v1 with PSQT", write("v1bad.nnue", rewriteHeader(t, data, `"version":3`, `"version":1`)), "want 5 (W1, B1, W2, B2, W3) in version 1"},
		{"base in v2", write("v2base.nnue", rewriteHeader(t, resData, `"version":3`, `"version":2`)), "want version 3 for a residual net"},
		{"unknown base", write("base.nnue", rewriteHeader(t, resData, `"base":"classical"`, `"base":"other"`)), `base "other"`},
		{"base table", write("table.nnue", rewriteHeader(t, resData, `"base_table":[0,`, `"base_table":[0,100001,`)), "want -100000 to 100000"},
		{"sizes", write("sizes.nnue", rewriteHeader(t, data, `"hidden":8`, `"hidden":9`)), "want"},
		{"missing", filepath.Join(dir, "none.nnue"), "none.nnue"},
	}
	for _, c := range cases {
		_, err := ReadFile(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), filepath.Base(c.path)) {
			t.Errorf("%s: error %v; want one naming the file and %q", c.name, err, c.want)
		}
	}
	if err := WriteFile(filepath.Join(dir, "nan.nnue"), nan); err == nil || !strings.Contains(err.Error(), "W2[5]") {
		t.Errorf("writing a NaN weight: %v; want an error naming W2[5]", err)
	}
	// A version 1 file (no linear path) reads with the path zero.
	old := n.Clone()
	clear(old.PSQT)
	v1, _ := Encode(old)
	v1 = v1[:len(v1)-32-4*old.Features]
	v1 = rewriteHeader(t, append(v1, make([]byte, 32)...), `"version":3`, `"version":1`)
	v1 = rewriteHeader(t, v1, fmt.Sprintf(`,{"name":"PSQT","shape":[%d]}`, old.Features), "")
	got, err = ReadFile(write("v1.nnue", v1))
	if err != nil {
		t.Fatalf("a version 1 file: %v", err)
	}
	if a, b := scratch(old, fs, pos), scratch(got, fs, pos); a != b || len(got.PSQT) != got.Features {
		t.Fatalf("version 1 read back %v, wrote %v", b, a)
	}
	other := NewFeatureSet(mustVariant(t, "chess"))
	if _, err := NewEvaluator(n, other, "x"); err == nil || !strings.Contains(err.Error(), "fbgc") || !strings.Contains(err.Error(), "chess") {
		t.Errorf("a fbgc net over chess: %v; want an error naming both", err)
	}
}

// rewriteHeader replaces old by new in the header and fixes the length
// and the checksum, so that only the change is wrong.
func rewriteHeader(t *testing.T, data []byte, old, new string) []byte {
	t.Helper()
	s := string(data[:len(data)-32])
	if !strings.Contains(s, old) {
		t.Fatalf("no %s in the header", old)
	}
	s = strings.Replace(s, old, new, 1)
	b := []byte(s)
	hl := int(b[8]) | int(b[9])<<8 | int(b[10])<<16 | int(b[11])<<24
	hl += len(new) - len(old)
	b[8], b[9], b[10], b[11] = byte(hl), byte(hl>>8), byte(hl>>16), byte(hl>>24)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

func BenchmarkNNUEEvaluate(b *testing.B) {
	v := mustVariant(b, "fbgc")
	fs := NewFeatureSet(v)
	e, _ := NewEvaluator(NewNet(fs, DefaultHidden, DefaultL2, 1), fs, "b")
	pos := v.NewPosition()
	moves := pos.LegalMoves(nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		u := pos.DoMove(moves[i%len(moves)])
		e.Evaluate(pos)
		pos.UndoMove(u)
	}
}

func TestKernelsAgreeWithGo(t *testing.T) {
	if !simd {
		t.Skip("no assembly kernels in this build or on this CPU")
	}
	defer func() { simd = true }()
	r := rand.New(rand.NewPCG(4, 4))
	v := mustVariant(t, "fbgc")
	fs := NewFeatureSet(v)
	for _, pos := range []*env.Position{v.NewPosition()} {
		for seed := range uint64(5) {
			n := NewNet(fs, DefaultHidden, DefaultL2, seed)
			for i := range n.W1 {
				n.W1[i] += float32(r.NormFloat64() * 0.2)
			}
			simd = true
			fast := scratch(n, fs, pos)
			simd = false
			slow := scratch(n, fs, pos)
			if math.Abs(fast-slow) > 1e-3 {
				t.Errorf("seed %d: kernels %.6f cp, Go %.6f", seed, fast, slow)
			}
		}
	}
}

func FuzzDecode(f *testing.F) {
	v := mustVariant(f, "chess")
	good, err := Encode(NewNet(NewFeatureSet(v), 8, 4, 1))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	mfs, err := NewFeatureSetWith(v, Options{Kings: KingBuckets{2, 2}, Mirror: true})
	if err != nil {
		f.Fatal(err)
	}
	mirrored, err := Encode(NewNet(mfs, 8, 4, 1))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mirrored)
	f.Add([]byte(magic + "\x05\x00\x00\x00{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Decode(data)
		if err != nil {
			return
		}
		if err := n.Check(); err != nil {
			t.Fatalf("decoded a net that does not check: %v", err)
		}
	})
}

// A bucketed net is written as version 4 with its buckets and read back
// whole; its buckets in an older version, or buckets that are not a
// scheme, are refused naming them.
func TestBucketedFileRoundTrips(t *testing.T) {
	v := mustVariant(t, "fbgc")
	fs, err := NewBucketedFeatureSet(v, KingBuckets{3, 2})
	if err != nil {
		t.Fatal(err)
	}
	n := withPSQT(NewNet(fs, 8, 4, 3), fs, 3)
	data, err := Encode(n)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kings != n.Kings || got.Features != fs.Len() {
		t.Fatalf("read back kings %v, %d features; wrote %v, %d", got.Kings, got.Features, n.Kings, n.Features)
	}
	rfs, err := FeatureSetOf(v, got)
	if err != nil {
		t.Fatal(err)
	}
	pos := v.NewPosition()
	if a, b := scratch(n, fs, pos), scratch(got, rfs, pos); a != b {
		t.Fatalf("read back scores %v, wrote %v", b, a)
	}
	if !strings.Contains(string(data), `"version":4`) {
		t.Error("a bucketed net not written as version 4")
	}
	plain, err := Encode(NewNet(NewFeatureSet(v), 8, 4, 3))
	if err != nil || !strings.Contains(string(plain), `"version":3`) || strings.Contains(string(plain), "king_buckets") {
		t.Errorf("an unbucketed net is not written as version 3 without buckets (%v)", err)
	}
	for _, c := range []struct{ old, new, want string }{
		{`"version":4`, `"version":3`, "version 3"},
		{`"king_buckets":"3x2"`, `"king_buckets":"0x2"`, "0x2"},
		{`"king_buckets":"3x2"`, `"king_buckets":"2x3"`, "layout"},
	} {
		err := useNet(v, rewriteHeader(t, data, c.old, c.new))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("header %s: %v; want an error naming %q", c.new, err, c.want)
		}
	}
}

// withHeader is a net file's start: the magic, the length and the header.
func withHeader(js string) []byte {
	b := []byte(magic)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(js)))
	return append(b, js...)
}

func TestReadHeaderIsBoundedAndNamesADamagedFile(t *testing.T) {
	v := mustVariant(t, "fbgc")
	fs := NewFeatureSet(v)
	good, err := Encode(withPSQT(NewNet(fs, 8, 4, 1), fs, 1))
	if err != nil {
		t.Fatal(err)
	}
	bfs, err := NewBucketedFeatureSet(v, KingBuckets{Files: 3, Ranks: 2})
	if err != nil {
		t.Fatal(err)
	}
	bucketed, err := Encode(NewNet(bfs, 8, 4, 1))
	if err != nil {
		t.Fatal(err)
	}
	huge := binary.LittleEndian.AppendUint32([]byte(magic), 1<<31)
	for _, c := range []struct {
		name    string
		data    []byte
		variant string // want this variant, or an error saying says
		says    string
	}{
		{"a net", good, "fbgc", ""},
		{"a bucketed net", bucketed, "fbgc", ""},
		{"buckets that are no scheme", withHeader(`{"version":4,"variant":"fbgc","king_buckets":"3"}`), "", "king buckets"},
		{"buckets in a version 3 header", withHeader(`{"version":3,"variant":"fbgc","king_buckets":"3x2"}`), "", "want version 4"},
		{"a mirrored header", withHeader(`{"version":5,"variant":"fbgc","mirror":true}`), "fbgc", ""},
		{"the mirror in a version 4 header", withHeader(`{"version":4,"variant":"fbgc","king_buckets":"2x2","mirror":true}`), "", "want version 5"},
		{"a net's header alone", good[:len(magic)+4+int(binary.LittleEndian.Uint32(good[len(magic):]))], "fbgc", ""},
		{"empty", nil, "", "not a bomberzero net file"},
		{"a checkpoint", []byte("{\"__metadata__\":{}}"), "", "not a bomberzero net file"},
		{"the magic alone", []byte(magic), "", "truncated"},
		{"a header length over the bound", huge, "", "want 2 to 65536"},
		{"a header cut short", withHeader(`{"version":3,"variant":"fbgc"}`)[:len(magic)+10], "", "truncated: 6 of the header's 30 bytes"},
		{"a header that is not JSON", withHeader(`{"version":3,"varia`), "", "header:"},
		{"a version from the future", withHeader(`{"version":99,"variant":"fbgc"}`), "", "version 99"},
		{"no variant", withHeader(`{"version":3}`), "", "names no variant"},
	} {
		h, err := ReadHeader(bytes.NewReader(c.data))
		switch {
		case c.says == "" && (err != nil || h.Variant != c.variant):
			t.Errorf("%s: variant %q, %v; want %q", c.name, h.Variant, err, c.variant)
		case c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says)):
			t.Errorf("%s: %v; want an error saying %q", c.name, err, c.says)
		}
	}
}

// FuzzReadHeader checks that no file makes the header reader panic or
// read past its bound, and that a header it accepts names a variant.
func FuzzReadHeader(f *testing.F) {
	f.Add(withHeader(`{"version":3,"variant":"fbgc","hidden":128,"l2":16}`))
	f.Add(withHeader(`{"version":3}`))
	f.Add(withHeader(`{"version":5,"variant":"fbgc","king_buckets":"2x2","mirror":true}`))
	f.Add([]byte(magic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		h, err := ReadHeader(r)
		if read := int64(len(data)) - int64(r.Len()); read > int64(len(magic)+4+MaxHeaderBytes) {
			t.Fatalf("read %d bytes, over the bound", read)
		}
		if err == nil && h.Variant == "" {
			t.Fatalf("a header without a variant accepted: %+v", h)
		}
	})
}

// useNet decodes a net file and builds an evaluator of it over variant v,
// returning the first error: what a player spec's eval= goes through.
func useNet(v *env.Variant, data []byte) error {
	n, err := Decode(data)
	if err != nil {
		return err
	}
	fs, err := FeatureSetOf(v, n)
	if err != nil {
		return err
	}
	_, err = NewEvaluator(n, fs, "x")
	return err
}
