package nnue

import (
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"bomberzero/env"
	"bomberzero/env/envtest"
)

// fileSymmetric reports, independently of the feature set, whether v's
// holes are symmetric under the file mirror.
func fileSymmetric(v *env.Variant) bool {
	g := v.Geo
	for s := range g.Cells() {
		f, r := s%g.Files, s/g.Files
		if g.IsReal(env.Square(s)) != g.IsReal(env.Square(r*g.Files+g.Files-1-f)) {
			return false
		}
	}
	return true
}

// The boards whose holes are symmetric file-wise take the mirror; the
// others are refused naming the variant; the mirror changes the
// fingerprint of a mirrored set only.
func TestMirrorTakesTheFileSymmetricBoards(t *testing.T) {
	var took, refused []string
	for _, v := range variantsUnderTest(t) {
		fs, err := NewFeatureSetWith(v, Options{Mirror: true})
		if fileSymmetric(v) != (err == nil) {
			t.Fatalf("%s: file-symmetric %v, mirror error %v", v.Name, fileSymmetric(v), err)
		}
		if err != nil {
			if !strings.Contains(err.Error(), v.Name) || !strings.Contains(err.Error(), "hole") {
				t.Errorf("%s: %v; want an error naming the variant and a hole", v.Name, err)
			}
			refused = append(refused, v.Name)
			continue
		}
		took = append(took, v.Name)
		plain := NewFeatureSet(v)
		if fs.Layout() == plain.Layout() || fs.Len() != plain.Len() || !fs.Options().Mirror {
			t.Errorf("%s: mirrored layout %s (%d features), plain %s (%d)", v.Name, fs.Layout(), fs.Len(), plain.Layout(), plain.Len())
		}
		if plain.Options().Mirror || plain.Layout() != mustBucketed(t, v, KingBuckets{}).Layout() {
			t.Errorf("%s: the plain set changed with the mirror's constructor", v.Name)
		}
	}
	t.Logf("take the mirror: %s", strings.Join(took, " "))
	t.Logf("refuse it: %s", strings.Join(refused, " "))
	if len(took) == 0 {
		t.Fatal("no variant takes the mirror")
	}
}

// mustBucketed is NewBucketedFeatureSet, failing t on error.
func mustBucketed(t *testing.T, v *env.Variant, k KingBuckets) *FeatureSet {
	t.Helper()
	fs, err := NewBucketedFeatureSet(v, k)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// Buckets with the mirror zone the kings' half: at most files - files/2
// file zones, counted from the middle file.
func TestMirroredBucketsZoneTheKingsHalf(t *testing.T) {
	fbgc := mustVariant(t, "fbgc") // 10 x 10
	fs, err := NewFeatureSetWith(fbgc, Options{Kings: KingBuckets{2, 2}, Mirror: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		color      env.Color
		file, rank int
		want       int
		flip       bool
	}{
		// Files 5-7 are zone 0, 8-9 zone 1; files 0-4 mirror onto 9-5.
		{env.White, 5, 0, 0, false}, {env.White, 7, 0, 0, false}, {env.White, 8, 0, 1, false},
		{env.White, 9, 0, 1, false}, {env.White, 4, 0, 0, true}, {env.White, 0, 0, 1, true},
		{env.White, 1, 0, 1, true}, {env.White, 2, 0, 0, true}, {env.White, 3, 0, 0, true}, {env.White, 8, 5, 3, false},
		{env.Black, 0, 9, 1, true}, {env.Black, 5, 9, 0, false}, {env.Black, 4, 0, 2, true},
	} {
		s := c.rank*10 + c.file
		if got := int(fs.bucket[c.color][s]); got != c.want || fs.flip[s] != c.flip {
			t.Errorf("%v king on file %d rank %d: bucket %d mirrored %v, want %d %v", c.color, c.file, c.rank, got, fs.flip[s], c.want, c.flip)
		}
	}
	for _, c := range []struct {
		variant string
		kings   KingBuckets
		ok      bool
	}{
		{"fbgc", KingBuckets{5, 1}, true}, {"fbgc", KingBuckets{6, 1}, false},
		{"chess", KingBuckets{4, 2}, true}, {"chess", KingBuckets{5, 1}, false},
	} {
		_, err := NewFeatureSetWith(mustVariant(t, c.variant), Options{Kings: c.kings, Mirror: true})
		if (err == nil) != c.ok {
			t.Errorf("%s buckets %s with the mirror: error %v, want ok %v", c.variant, c.kings, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "file zones") {
			t.Errorf("%s buckets %s with the mirror: %v; want an error naming the file zones", c.variant, c.kings, err)
		}
	}
	if _, err := NewFeatureSetWith(mustVariant(t, "claustrophobia"), Options{Mirror: true}); err == nil ||
		!strings.Contains(err.Error(), "claustrophobia") {
		t.Errorf("claustrophobia with the mirror: %v; want an error naming the variant", err)
	}
}

// A perspective whose king is on the left half sees exactly the plain
// features of the file-mirrored position, one on the right half (or
// without a king) those of the position itself; on an even number of
// files a position and its file-mirror have the same mirrored features
// and buckets when both kings are on the board.
func TestMirroredFeaturesAreThoseOfTheReflectedPosition(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, v := range variantsUnderTest(t) {
		if !fileSymmetric(v) {
			continue
		}
		plain := NewFeatureSet(v)
		fs, err := NewFeatureSetWith(v, Options{Mirror: true})
		if err != nil {
			t.Fatal(err)
		}
		var bfs *FeatureSet
		if v.Geo.Files >= 4 && v.Geo.Ranks >= 2 {
			if bfs, err = NewFeatureSetWith(v, Options{Kings: KingBuckets{2, 2}, Mirror: true}); err != nil {
				t.Fatal(err)
			}
		}
		flips, checked := 0, 0
		buf := make([]env.Move, 0, 256)
		for game := range 4 {
			pos := v.NewPosition()
			for ply := 0; ply < 100; ply++ {
				q := envtest.ReflectFiles(t, pos)
				for c := range env.Color(2) {
					k := pos.KingSquare(c)
					left := k != env.NoSquare && v.Geo.File(k) < v.Geo.Files/2
					if fs.Mirrored(pos, c) != left {
						t.Fatalf("%s game %d ply %d: %v mirrored %v, king on %s", v.Name, game, ply, c, fs.Mirrored(pos, c), v.Geo.Name(k))
					}
					want := plain.Active(pos, c, nil)
					if left {
						want = plain.Active(q, c, nil)
						flips++
					}
					if got := fs.Active(pos, c, nil); !sameSet(got, want) {
						t.Fatalf("%s game %d ply %d: %v's mirrored features %v, want the plain ones of the %s position %v (%s)", v.Name, game, ply, c, got, map[bool]string{true: "reflected", false: "same"}[left], want, pos)
					}
					both := pos.KingSquare(env.White) != env.NoSquare && pos.KingSquare(env.Black) != env.NoSquare
					if v.Geo.Files%2 == 0 && both {
						checked++
						if a, b := fs.Active(pos, c, nil), fs.Active(q, c, nil); !sameSet(a, b) {
							t.Fatalf("%s game %d ply %d: %v's mirrored features differ between the position and its file-mirror (%s)", v.Name, game, ply, c, pos)
						}
						if bfs != nil && bfs.Bucket(pos, c) != bfs.Bucket(q, c) {
							t.Fatalf("%s game %d ply %d: %v's bucket %d, of the file-mirror %d", v.Name, game, ply, c, bfs.Bucket(pos, c), bfs.Bucket(q, c))
						}
					}
				}
				if res, _ := pos.Status(); res != env.Ongoing {
					break
				}
				moves := pos.LegalMoves(buf[:0])
				pos.DoMove(moves[r.IntN(len(moves))])
			}
		}
		if flips == 0 && v.KingType() != 0 {
			t.Errorf("%s: no king on the left half in 4 random games: the test saw no mirrored view", v.Name)
		}
		if v.Geo.Files%2 == 0 && v.KingType() != 0 && checked == 0 {
			t.Errorf("%s: no position with both kings checked", v.Name)
		}
	}
}

// A mirrored net scores a position and its file-mirror alike when both
// kings are on the board and no side may castle (the features are the
// same; only the order of the float32 sums differs: within 1e-3 cp).
func TestMirroredNetScoresAPositionAndItsMirrorAlike(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, name := range []string{"fbgc", "chess", "fbgc+superpower", "hangars", "birds-ninjas"} {
		v := mustVariant(t, name)
		for _, o := range []Options{{Mirror: true}, {Kings: KingBuckets{2, 2}, Mirror: true}} {
			fs, err := NewFeatureSetWith(v, o)
			if err != nil {
				t.Fatal(err)
			}
			n := withPSQT(NewNet(fs, 32, 8, 4), fs, 4)
			e, err := NewEvaluator(n, fs, "m")
			if err != nil {
				t.Fatal(err)
			}
			f := e.Fork()
			buf := make([]env.Move, 0, 256)
			pos := v.NewPosition()
			compared := 0
			for ply := 0; ply < 120; ply++ {
				q := envtest.ReflectFiles(t, pos)
				if pos.KingSquare(env.White) != env.NoSquare && pos.KingSquare(env.Black) != env.NoSquare {
					a, b := float64(e.Output(pos))*float64(n.Scale), float64(f.Output(q))*float64(n.Scale)
					if math.Abs(a-b) > 1e-3 {
						t.Fatalf("%s %s ply %d: %.6f cp, its file-mirror %.6f (%s)", name, o, ply, a, b, pos)
					}
					compared++
				}
				if res, _ := pos.Status(); res != env.Ongoing {
					break
				}
				moves := pos.LegalMoves(buf[:0])
				pos.DoMove(moves[r.IntN(len(moves))])
			}
			if compared < 10 {
				t.Errorf("%s %s: %d positions compared; want 10 or more", name, o, compared)
			}
			// The plain set does not have the symmetry: the test can fail.
			if o.Kings.Count() == 1 {
				pfs := NewFeatureSet(v)
				pn := withPSQT(NewNet(pfs, 32, 8, 4), pfs, 4)
				start := v.NewPosition()
				start.DoMove(start.LegalMoves(nil)[0])
				if a, b := scratch(pn, pfs, start), scratch(pn, pfs, envtest.ReflectFiles(t, start)); a == b {
					t.Errorf("%s: a plain net scores a position and its file-mirror alike (%v)", name, a)
				}
			}
		}
	}
}

// A mirrored net is written as version 5 with the mirror and read back
// whole; the mirror in an older version, or dropped from the header, is
// refused.
func TestMirroredFileRoundTrips(t *testing.T) {
	v := mustVariant(t, "fbgc")
	for _, o := range []Options{{Mirror: true}, {Kings: KingBuckets{2, 2}, Mirror: true}} {
		fs, err := NewFeatureSetWith(v, o)
		if err != nil {
			t.Fatal(err)
		}
		n := withPSQT(NewNet(fs, 8, 4, 3), fs, 3)
		data, err := Encode(n)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"version":5`) || !strings.Contains(string(data), `"mirror":true`) {
			t.Errorf("%s: a mirrored net not written as version 5 with mirror true", o)
		}
		got, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if got.Options() != o || got.Layout != fs.Layout() {
			t.Fatalf("%s: read back options %s, layout %s", o, got.Options(), got.Layout)
		}
		rfs, err := FeatureSetOf(v, got)
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewEvaluator(got, rfs, "m")
		if err != nil {
			t.Fatal(err)
		}
		pos := v.NewPosition()
		if a, b := scratch(n, fs, pos), float64(e.Output(pos))*float64(n.Scale); math.Abs(a-b) > 1e-3 {
			t.Fatalf("%s: read back scores %v, wrote %v", o, b, a)
		}
		h, err := ReadHeader(strings.NewReader(string(data)))
		if err != nil || !h.Mirror || h.Version != 5 {
			t.Errorf("%s: ReadHeader %+v, %v; want version 5 with the mirror", o, h, err)
		}
		for _, c := range []struct{ old, new, want string }{
			{`"version":5`, `"version":4`, "want version 5 for a mirrored net"},
			{`"mirror":true`, `"mirror":false`, "layout"},
		} {
			err := useNet(v, rewriteHeader(t, data, c.old, c.new))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s header %s: %v; want an error naming %q", o, c.new, err, c.want)
			}
		}
	}
	// A mirrored net of a board that does not take the mirror is refused
	// when loaded for it.
	cl := mustVariant(t, "claustrophobia")
	if _, err := FeatureSetOf(cl, &Net{Variant: cl.Name, Mirror: true}); err == nil || !strings.Contains(err.Error(), "claustrophobia") {
		t.Errorf("a mirrored claustrophobia net: %v; want an error naming the variant", err)
	}
}

// The shipped net, written before the mirror, still loads with its
// fingerprint, writes back byte for byte and scores as the float64
// reference does.
func TestShippedNetLoadsUnchanged(t *testing.T) {
	const path = "../../models/fbgc.nnue"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	n, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if n.Mirror || n.Options().Mirror {
		t.Fatal("the shipped net reads as mirrored")
	}
	again, err := Encode(n)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(data) {
		t.Errorf("the shipped net does not write back byte for byte (%d bytes, read %d)", len(again), len(data))
	}
	v := mustVariant(t, n.Variant)
	fs, err := FeatureSetOf(v, n)
	if err != nil {
		t.Fatal(err)
	}
	if fs.Layout() != n.Layout || NewFeatureSet(v).Layout() != n.Layout {
		t.Fatalf("the shipped net's layout %s, the set's %s", n.Layout, fs.Layout())
	}
	e, err := NewEvaluator(n, fs, "shipped")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(11, 12))
	pos := v.NewPosition()
	buf := make([]env.Move, 0, 256)
	for ply := range 60 {
		got := float64(e.Output(pos)) * float64(n.Scale)
		if ref := reference(n, fs, pos); math.Abs(got-ref) > 1e-2 {
			t.Fatalf("ply %d: %.6f cp, float64 reference %.6f", ply, got, ref)
		}
		if res, _ := pos.Status(); res != env.Ongoing {
			break
		}
		moves := pos.LegalMoves(buf[:0])
		pos.DoMove(moves[r.IntN(len(moves))])
	}
}

// BenchmarkNNUEKingCrossing evaluates two fbgc positions in turn whose
// only difference is White's king on f1 or e1: across the middle file, so
// that a mirrored set rebuilds White's accumulator at every call (and
// updates Black's by the difference), where the plain set updates both.
func BenchmarkNNUEKingCrossing(b *testing.B) {
	v := mustVariant(b, "fbgc")
	var pos [2]*env.Position
	for i, fen := range []string{
		"frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNB1KBNRF w - - 0 1",
		"frnbqkbnrf/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/FRNBK1BNRF w - - 0 1",
	} {
		p, err := v.ParsePosition(fen)
		if err != nil {
			b.Fatal(err)
		}
		pos[i] = p
	}
	for _, o := range []Options{{}, {Mirror: true}} {
		b.Run(o.String(), func(b *testing.B) {
			fs, err := NewFeatureSetWith(v, o)
			if err != nil {
				b.Fatal(err)
			}
			e, _ := NewEvaluator(NewNet(fs, DefaultHidden, DefaultL2, 1), fs, "b")
			if fs.Mirrored(pos[0], env.White) == fs.Mirrored(pos[1], env.White) && o.Mirror {
				b.Fatal("the two positions are seen alike by White")
			}
			b.ReportAllocs()
			for i := range b.N {
				e.Evaluate(pos[i&1])
			}
		})
	}
}
