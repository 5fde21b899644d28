package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"bomberzero/nn/internal/avx2"
)

// bnSizes covers empty, tail-only, exact multiples of the 8-wide loop,
// multiples plus tails, and one channel row of a batch-256 10x10 tensor.
var bnSizes = []int{0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1000, 25600}

// bnSentinel is a NaN whose bits no kernel computes: entries past the end
// of an output must keep it.
const bnSentinel = 0x7fc0beef

// bnKernels is one implementation of the five passes.
type bnKernels struct {
	name      string
	normalize func(y, z []float32, mean, inv, scale, shift float32, skip []float32, relu bool)
	moments   func(z []float32) (float64, float64)
	maskSums  func(g, d, y, xhat []float32, relu bool) (float64, float64)
	biasSum   func(g, d, y []float32, relu bool) float64
	backward  func(out, g, xhat []float32, k, mdb, mdg float32)
}

// bnImpls is the Go reference first, then the assembly when this build
// and CPU have it.
func bnImpls() []bnKernels {
	impls := []bnKernels{{"Go", bnNormalizeGo, bnMomentsGo, bnMaskSumsGo, biasMaskSumGo, bnBackwardGo}}
	if avx2Kernels {
		impls = append(impls, bnKernels{"AVX2", avx2.Normalize, avx2.Moments, avx2.MaskSums, avx2.BiasMaskSum, avx2.Backward})
	}
	return impls
}

// withSentinels returns a copy of s[:n] followed by 3 sentinels.
func withSentinels(s []float32, n int) []float32 {
	out := make([]float32, n+3)
	copy(out, s[:n])
	for i := n; i < len(out); i++ {
		out[i] = math.Float32frombits(bnSentinel)
	}
	return out
}

// reluOutputs returns ReLU-like outputs: positives, exact +0 and -0,
// a few negatives and a NaN, so that every branch of the mask is hit.
func reluOutputs(r *rand.Rand, n int) []float32 {
	y := make([]float32, n)
	for i := range y {
		switch r.IntN(8) {
		case 0, 1:
			y[i] = 0
		case 2, 3:
			y[i] = float32(math.Copysign(0, -1))
		case 4:
			y[i] = -float32(r.Float64())
		case 5:
			if r.IntN(4) == 0 {
				y[i] = float32(math.NaN())
			} else {
				y[i] = float32(r.Float64())
			}
		default:
			y[i] = float32(r.Float64() * 3)
		}
	}
	return y
}

func bitsEqual(a, b []float32) int {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

func checkSentinels(t *testing.T, what string, s []float32, n int) {
	t.Helper()
	for i := n; i < len(s); i++ {
		if math.Float32bits(s[i]) != bnSentinel {
			t.Fatalf("%s: entry %d past the end (n=%d) was written", what, i, n)
		}
	}
}

func TestBNKernelsAssemblyEqualsGoBitForBit(t *testing.T) {
	impls := bnImpls()
	if len(impls) == 1 {
		t.Log("no assembly kernels in this build: checking the Go reference against itself only")
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range bnSizes {
		z := randSlice(r, n, 4)
		skip := randSlice(r, n, 2)
		d := randSlice(r, n, 1)
		xhat := randSlice(r, n, 3)
		y := reluOutputs(r, n)
		mean, inv, scale, shift := float32(r.Float64()-0.5), float32(0.5+r.Float64()), float32(r.Float64()*2-1), float32(r.Float64()-0.5)
		k, mdb, mdg := float32(r.Float64()*2), float32(r.Float64()-0.5), float32(r.Float64()-0.5)
		for _, relu := range []bool{false, true} {
			for _, withSkip := range []bool{false, true} {
				type result struct {
					z, y, g, gb, out []float32
					sum, sq, db, dg  float64
					bias             float64
				}
				var res []result
				for _, im := range impls {
					var rs result
					rs.z = withSentinels(z, n)
					rs.y = withSentinels(make([]float32, n), n)
					var sk []float32
					if withSkip {
						sk = skip
					}
					im.normalize(rs.y[:n], rs.z[:n], mean, inv, scale, shift, sk, relu)
					checkSentinels(t, im.name+" normalize z", rs.z, n)
					checkSentinels(t, im.name+" normalize y", rs.y, n)
					rs.sum, rs.sq = im.moments(z)
					rs.g = withSentinels(make([]float32, n), n)
					rs.db, rs.dg = im.maskSums(rs.g[:n], d, y, xhat, relu)
					checkSentinels(t, im.name+" maskSums g", rs.g, n)
					rs.gb = withSentinels(make([]float32, n), n)
					rs.bias = im.biasSum(rs.gb[:n], d, y, relu)
					checkSentinels(t, im.name+" biasMaskSum g", rs.gb, n)
					rs.out = withSentinels(make([]float32, n), n)
					im.backward(rs.out[:n], d, xhat, k, mdb, mdg)
					checkSentinels(t, im.name+" backward out", rs.out, n)
					res = append(res, rs)
				}
				for i := 1; i < len(res); i++ {
					a, b := res[0], res[i]
					where := fmt.Sprintf("%s n=%d relu=%v skip=%v", impls[i].name, n, relu, withSkip)
					for _, c := range []struct {
						what string
						a, b []float32
					}{{"normalize z", a.z, b.z}, {"normalize y", a.y, b.y}, {"maskSums g", a.g, b.g},
						{"biasMaskSum g", a.gb, b.gb}, {"backward out", a.out, b.out}} {
						if j := bitsEqual(c.a, c.b); j >= 0 {
							t.Fatalf("%s: %s[%d] = %v (%08x), Go gives %v (%08x)", where, c.what, j,
								c.b[j], math.Float32bits(c.b[j]), c.a[j], math.Float32bits(c.a[j]))
						}
					}
					for _, c := range []struct {
						what string
						a, b float64
					}{{"moments sum", a.sum, b.sum}, {"moments sq", a.sq, b.sq}, {"maskSums db", a.db, b.db},
						{"maskSums dg", a.dg, b.dg}, {"biasMaskSum", a.bias, b.bias}} {
						if math.Float64bits(c.a) != math.Float64bits(c.b) {
							t.Fatalf("%s: %s = %v, Go gives %v", where, c.what, c.b, c.a)
						}
					}
				}
			}
		}
	}
}

// within reports whether got is want to within rel times scale.
func within(got, want, scale, rel float64) bool { return math.Abs(got-want) <= rel*scale }

func TestBNKernelsMatchPlainFloat64Arithmetic(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range bnSizes {
		z := randSlice(r, n, 4)
		skip := randSlice(r, n, 2)
		d := randSlice(r, n, 1)
		xhat := randSlice(r, n, 3)
		y := reluOutputs(r, n)
		mean, inv, scale, shift := float32(0.3), float32(1.7), float32(-0.8), float32(0.25)
		k, mdb, mdg := float32(1.3), float32(0.1), float32(-0.4)
		for _, relu := range []bool{false, true} {
			// Sums: exact float64 products, one sequential float64 sum.
			var sum, sq, abs, db, dg, absDB, absDG float64
			gWant := make([]float32, n)
			for i := range n {
				f := float64(z[i])
				sum, sq, abs = sum+f, sq+f*f, abs+math.Abs(f)
				v := d[i]
				if relu && y[i] <= 0 {
					v = 0
				}
				gWant[i] = v
				db, dg = db+float64(v), dg+float64(v)*float64(xhat[i])
				absDB, absDG = absDB+math.Abs(float64(v)), absDG+math.Abs(float64(v)*float64(xhat[i]))
			}
			const rel = 1e-12
			gs, gq := bnMoments(z)
			if !within(gs, sum, abs, rel) || !within(gq, sq, sq, rel) {
				t.Fatalf("n=%d: moments = %v, %v; float64 gives %v, %v", n, gs, gq, sum, sq)
			}
			g := make([]float32, n)
			gdb, gdg := bnMaskSums(g, d, y, xhat, relu)
			if !within(gdb, db, absDB, rel) || !within(gdg, dg, absDG, rel) {
				t.Fatalf("n=%d relu=%v: maskSums = %v, %v; float64 gives %v, %v", n, relu, gdb, gdg, db, dg)
			}
			if j := bitsEqual(g, gWant); j >= 0 {
				t.Fatalf("n=%d relu=%v: maskSums g[%d] = %v, want %v (d %v, y %v)", n, relu, j, g[j], gWant[j], d[j], y[j])
			}
			gb := make([]float32, n)
			if b := biasMaskSum(gb, d, y, relu); !within(b, db, absDB, rel) {
				t.Fatalf("n=%d relu=%v: biasMaskSum = %v, float64 gives %v", n, relu, b, db)
			}
			if j := bitsEqual(gb, gWant); j >= 0 {
				t.Fatalf("n=%d relu=%v: biasMaskSum g[%d] = %v, want %v", n, relu, j, gb[j], gWant[j])
			}

			// Element-wise passes: a few float32 roundings from the float64 value.
			zz, yy := append([]float32(nil), z...), make([]float32, n)
			bnNormalize(yy, zz, mean, inv, scale, shift, skip, relu)
			out := make([]float32, n)
			bnBackward(out, d, xhat, k, mdb, mdg)
			const eps = 1.0 / (1 << 21) // 4 float32 roundings, with room
			for i := range n {
				xh := (float64(z[i]) - float64(mean)) * float64(inv)
				if !within(float64(zz[i]), xh, (math.Abs(float64(z[i]))+math.Abs(float64(mean)))*float64(inv), eps) {
					t.Fatalf("n=%d: normalized z[%d] = %v, float64 gives %v", n, i, zz[i], xh)
				}
				o := float64(scale)*xh + float64(shift) + float64(skip[i])
				mag := math.Abs(float64(scale)*xh) + math.Abs(float64(shift)) + math.Abs(float64(skip[i]))
				if relu {
					o = math.Max(o, 0)
				}
				if !within(float64(yy[i]), o, mag, eps) || (relu && yy[i] < 0) {
					t.Fatalf("n=%d relu=%v: y[%d] = %v, float64 gives %v", n, relu, i, yy[i], o)
				}
				b := float64(k) * (float64(d[i]) - float64(mdb) - float64(xhat[i])*float64(mdg))
				bmag := float64(k) * (math.Abs(float64(d[i])) + math.Abs(float64(mdb)) + math.Abs(float64(xhat[i])*float64(mdg)))
				if !within(float64(out[i]), b, bmag, eps) {
					t.Fatalf("n=%d: backward out[%d] = %v, float64 gives %v", n, i, out[i], b)
				}
			}
		}
	}
}

// The element-wise passes do the float32 operations of conv.go's loops in
// the same order, so on amd64 (where Go fuses no multiply-add) they give
// the same bits as those loops, copied here as they stood.
func TestBNElementwisePassesEqualTheOldConvLoops(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the old loops' float32 a*b+c may be fused on " + runtime.GOARCH)
	}
	r := rand.New(rand.NewPCG(31, 32))
	n := 1003
	z, skip, d, xhat := randSlice(r, n, 4), randSlice(r, n, 2), randSlice(r, n, 1), randSlice(r, n, 3)
	mean, inv, scale, shift := float32(0.3), float32(1.7), float32(-0.8), float32(0.25)
	k, mdb, mdg := float32(1.3), float32(0.1), float32(-0.4)
	for _, relu := range []bool{false, true} {
		for _, s := range [][]float32{nil, skip} {
			wantZ, wantY := make([]float32, n), make([]float32, n)
			for i, v := range z {
				xh := (v - mean) * inv
				wantZ[i] = xh
				o := scale*xh + shift
				if s != nil {
					o += s[i]
				}
				if relu {
					o = relu0(o)
				}
				wantY[i] = o
			}
			gotZ, gotY := append([]float32(nil), z...), make([]float32, n)
			bnNormalize(gotY, gotZ, mean, inv, scale, shift, s, relu)
			if j := bitsEqual(gotZ, wantZ); j >= 0 {
				t.Fatalf("relu=%v skip=%v: z[%d] = %v, old loop %v", relu, s != nil, j, gotZ[j], wantZ[j])
			}
			if j := bitsEqual(gotY, wantY); j >= 0 {
				t.Fatalf("relu=%v skip=%v: y[%d] = %v, old loop %v", relu, s != nil, j, gotY[j], wantY[j])
			}
		}
	}
	want := make([]float32, n)
	for i, v := range d {
		want[i] = k * (v - mdb - xhat[i]*mdg)
	}
	got := make([]float32, n)
	bnBackward(got, d, xhat, k, mdb, mdg)
	if j := bitsEqual(got, want); j >= 0 {
		t.Fatalf("backward out[%d] = %v, old loop %v", j, got[j], want[j])
	}
}

// backward calls bnBackward with out being g (no skip input) or xhat (a
// skip input): each element must be read before it is written.
func TestBNBackwardInPlaceEqualsOutOfPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for _, im := range bnImpls() {
		for _, n := range []int{7, 33, 1000} {
			g, xhat := randSlice(r, n, 1), randSlice(r, n, 3)
			want := make([]float32, n)
			im.backward(want, g, xhat, 1.5, 0.2, -0.3)
			g1 := append([]float32(nil), g...)
			im.backward(g1, g1, xhat, 1.5, 0.2, -0.3)
			x1 := append([]float32(nil), xhat...)
			im.backward(x1, g, x1, 1.5, 0.2, -0.3)
			if j := bitsEqual(g1, want); j >= 0 {
				t.Fatalf("%s n=%d: out=g gives out[%d] = %v, want %v", im.name, n, j, g1[j], want[j])
			}
			if j := bitsEqual(x1, want); j >= 0 {
				t.Fatalf("%s n=%d: out=xhat gives out[%d] = %v, want %v", im.name, n, j, x1[j], want[j])
			}
		}
	}
}

func TestBNKernelsPanicOnShortSlices(t *testing.T) {
	const n = 9
	a, s := make([]float32, n), make([]float32, n-1)
	for _, im := range bnImpls() {
		for name, call := range map[string]func(){
			"normalize short y":      func() { im.normalize(s, a, 0, 1, 1, 0, nil, true) },
			"normalize short skip":   func() { im.normalize(a, a, 0, 1, 1, 0, s, false) },
			"maskSums short d":       func() { im.maskSums(a, s, a, a, true) },
			"maskSums short y":       func() { im.maskSums(a, a, s, a, true) },
			"maskSums short xhat":    func() { im.maskSums(a, a, a, s, false) },
			"biasMaskSum short d":    func() { im.biasSum(a, s, a, false) },
			"biasMaskSum short y":    func() { im.biasSum(a, a, s, true) },
			"backward short g":       func() { im.backward(a, s, a, 1, 0, 0) },
			"backward short xhat":    func() { im.backward(a, a, s, 1, 0, 0) },
			"normalize short y (8)":  func() { im.normalize(a[:7], a[:8], 0, 1, 1, 0, nil, false) },
			"maskSums short d (cap)": func() { im.maskSums(a, a[:8:9], a, a, false) },
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s %s: no panic", im.name, name)
					}
				}()
				call()
			}()
		}
	}
}

func TestBNKernelsDoNotAllocate(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	const n = 1000
	z, skip, d, xhat, g, out := randSlice(r, n, 1), randSlice(r, n, 1), randSlice(r, n, 1), randSlice(r, n, 1), make([]float32, n), make([]float32, n)
	y := reluOutputs(r, n)
	var sink float64
	allocs := testing.AllocsPerRun(20, func() {
		bnNormalize(out, z, 0.1, 1.01, 0.9, 0.1, skip, true)
		s, q := bnMoments(z)
		db, dg := bnMaskSums(g, d, y, xhat, true)
		bnBackward(out, g, xhat, 1.1, 0.01, 0.02)
		sink += s + q + db + dg + biasMaskSum(g, d, y, true)
	})
	if allocs != 0 {
		t.Errorf("the BatchNorm kernels allocate %v times per call set, want 0 (sink %v)", allocs, sink)
	}
}

// BenchmarkBNKernels runs each pass over one channel row of a batch-256
// 10x10 training tensor (n = 25600), Go reference and assembly.
func BenchmarkBNKernels(b *testing.B) {
	r := rand.New(rand.NewPCG(61, 62))
	const n = 25600
	z, skip, d, xhat, g, out := randSlice(r, n, 1), randSlice(r, n, 1), randSlice(r, n, 1), randSlice(r, n, 1), make([]float32, n), make([]float32, n)
	y := reluOutputs(r, n)
	var sink float64
	for _, im := range bnImpls() {
		b.Run("normalize/"+im.name, func(b *testing.B) {
			b.SetBytes(4 * n * 3)
			for b.Loop() {
				im.normalize(out, z, 0, 1, 0.9, 0.1, skip, true)
			}
		})
		b.Run("moments/"+im.name, func(b *testing.B) {
			b.SetBytes(4 * n)
			for b.Loop() {
				s, q := im.moments(z)
				sink += s + q
			}
		})
		b.Run("maskSums/"+im.name, func(b *testing.B) {
			b.SetBytes(4 * n * 4)
			for b.Loop() {
				db, dg := im.maskSums(g, d, y, xhat, true)
				sink += db + dg
			}
		})
		b.Run("biasMaskSum/"+im.name, func(b *testing.B) {
			b.SetBytes(4 * n * 3)
			for b.Loop() {
				sink += im.biasSum(g, d, y, true)
			}
		})
		b.Run("backward/"+im.name, func(b *testing.B) {
			b.SetBytes(4 * n * 3)
			for b.Loop() {
				im.backward(out, g, xhat, 1.1, 0.01, 0.02)
			}
		})
	}
	_ = sink
}
