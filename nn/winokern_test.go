package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// winoSentinel is the NaN bit pattern that marks elements a kernel must not
// write; a kernel computing from finite inputs can never produce it.
const winoSentinel = 0x7fc0dead

// winoKernCase is one shape of a tile-row call: c channels, tiles tiles,
// and the slack added to the minimal strides and slice lengths.
type winoKernCase struct {
	c, tiles, slack int
	skip, relu      bool
}

func winoKernCases() []winoKernCase {
	var cs []winoKernCase
	for _, c := range []int{8, 16, 32, 64, 72} {
		for _, tiles := range []int{1, 2, 5, 6} {
			for _, slack := range []int{0, 8, 13} {
				for _, skip := range []bool{false, true} {
					for _, relu := range []bool{false, true} {
						cs = append(cs, winoKernCase{c, tiles, slack, skip, relu})
					}
				}
			}
		}
	}
	return cs
}

func (k winoKernCase) String() string {
	return fmt.Sprintf("c=%d/tiles=%d/slack=%d/skip=%v/relu=%v", k.c, k.tiles, k.slack, k.skip, k.relu)
}

func winoRandom(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

func winoSentinels(n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = math.Float32frombits(winoSentinel)
	}
	return x
}

// winoCheckWrites fails unless dst holds the sentinel exactly where written
// is false and a finite value where it is true.
func winoCheckWrites(t *testing.T, name string, dst []float32, written []bool) {
	t.Helper()
	for i, v := range dst {
		isSentinel := math.Float32bits(v) == winoSentinel
		if written[i] && (isSentinel || math.IsNaN(float64(v)) || math.IsInf(float64(v), 0)) {
			t.Fatalf("%s: element %d should have been written, holds %v", name, i, v)
		}
		if !written[i] && !isSentinel {
			t.Fatalf("%s: element %d is outside the contract but was overwritten with %v", name, i, v)
		}
	}
}

// winoSameBits fails unless got and want are the same bits everywhere.
func winoSameBits(t *testing.T, name string, got, want []float32) {
	t.Helper()
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: element %d: fast kernel %v (%#x), Go reference %v (%#x)",
				name, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

var (
	winoBT = [4][4]float64{{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}}
	winoAT = [2][4]float64{{1, 1, 1, 0}, {0, 1, -1, -1}}
)

func TestWinoInputRowFastEqualsGoAndGoEqualsMatrixFormula(t *testing.T) {
	if !avx2Kernels {
		t.Log("no AVX2 kernels in this build or on this CPU: checking the Go kernel only")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range winoKernCases() {
		if k.skip || k.relu { // not parameters of the input transform
			continue
		}
		c, tiles := k.c, k.tiles
		rowStride := (2*tiles+2)*c + k.slack
		dstStride := tiles*c + k.slack
		src := winoRandom(r, 3*rowStride+(2*tiles+2)*c+k.slack)
		n := 15*dstStride + tiles*c + k.slack
		fast, ref := winoSentinels(n), winoSentinels(n)
		winoInputRow(fast, dstStride, src, rowStride, c, tiles)
		winoInputRowGo(ref, dstStride, src, rowStride, c, tiles)
		winoSameBits(t, k.String(), fast, ref)

		written := make([]bool, n)
		for tx := 0; tx < tiles; tx++ {
			for ch := 0; ch < c; ch++ {
				var d [4][4]float64
				for a := range 4 {
					for b := range 4 {
						d[a][b] = float64(src[a*rowStride+(2*tx+b)*c+ch])
					}
				}
				for i := range 4 {
					for j := range 4 {
						// V[i][j] = Σ Bᵀ[i][a] d[a][b] Bᵀ[j][b], with the
						// magnitude of its terms for the tolerance.
						var v, mag float64
						for a := range 4 {
							for b := range 4 {
								term := winoBT[i][a] * d[a][b] * winoBT[j][b]
								v += term
								mag += math.Abs(term)
							}
						}
						idx := (4*i+j)*dstStride + tx*c + ch
						written[idx] = true
						if got := float64(ref[idx]); math.Abs(got-v) > 1e-6*mag {
							t.Fatalf("%v: tile %d channel %d V[%d][%d] = %v, want %v", k, tx, ch, i, j, got, v)
						}
					}
				}
			}
		}
		winoCheckWrites(t, k.String()+"/fast", fast, written)
		winoCheckWrites(t, k.String()+"/go", ref, written)
	}
}

func TestWinoOutputRowFastEqualsGoAndGoEqualsMatrixFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, k := range winoKernCases() {
		c, tiles := k.c, k.tiles
		mStride := tiles*c + k.slack
		rowStride := 2*tiles*c + k.slack
		m := winoRandom(r, 15*mStride+tiles*c+k.slack)
		bias := winoRandom(r, c+k.slack)
		n := rowStride + 2*tiles*c + k.slack
		var skip []float32
		if k.skip {
			skip = winoRandom(r, n)
		}
		fast, ref := winoSentinels(n), winoSentinels(n)
		winoOutputRow(fast, rowStride, m, mStride, bias, skip, c, tiles, k.relu)
		winoOutputRowGo(ref, rowStride, m, mStride, bias, skip, c, tiles, k.relu)
		winoSameBits(t, k.String(), fast, ref)

		written := make([]bool, n)
		negatives := 0
		for tx := 0; tx < tiles; tx++ {
			for ch := 0; ch < c; ch++ {
				for i := range 2 {
					for j := range 2 {
						// Y[i][j] = Σ Aᵀ[i][a] M[a][b] Aᵀ[j][b].
						v, mag := float64(bias[ch]), math.Abs(float64(bias[ch]))
						for a := range 4 {
							for b := range 4 {
								term := winoAT[i][a] * float64(m[(4*a+b)*mStride+tx*c+ch]) * winoAT[j][b]
								v += term
								mag += math.Abs(term)
							}
						}
						idx := i*rowStride + (2*tx+j)*c + ch
						if skip != nil {
							v += float64(skip[idx])
							mag += math.Abs(float64(skip[idx]))
						}
						if v < 0 {
							negatives++
						}
						if k.relu {
							v = max(v, 0)
						}
						written[idx] = true
						if got := float64(ref[idx]); math.Abs(got-v) > 1e-6*mag {
							t.Fatalf("%v: tile %d channel %d Y[%d][%d] = %v, want %v", k, tx, ch, i, j, got, v)
						}
					}
				}
			}
		}
		if negatives == 0 {
			t.Fatalf("%v: no negative pre-activation, so the ReLU was not exercised", k)
		}
		winoCheckWrites(t, k.String()+"/fast", fast, written)
		winoCheckWrites(t, k.String()+"/go", ref, written)
	}
}

// An inference layer may add its residual in place: skip == dst.
func TestWinoOutputRowInPlaceSkipEqualsSeparateSkip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	c, tiles := 64, 5
	mStride, rowStride := tiles*c+8, 2*tiles*c+8
	m := winoRandom(r, 15*mStride+tiles*c)
	bias := winoRandom(r, c)
	skip := winoRandom(r, rowStride+2*tiles*c)
	want := append([]float32(nil), skip...)
	winoOutputRowGo(want, rowStride, m, mStride, bias, skip, c, tiles, true)
	for _, kern := range []struct {
		name string
		f    func(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool)
	}{{"fast", winoOutputRow}, {"go", winoOutputRowGo}} {
		got := append([]float32(nil), skip...)
		kern.f(got, rowStride, m, mStride, bias, got, c, tiles, true)
		winoSameBits(t, kern.name, got, want)
	}
}

func TestWinoKernelsPanicInGoOnShortSlices(t *testing.T) {
	c, tiles := 16, 3
	rowStride, dstStride := (2*tiles+2)*c, tiles*c
	src := make([]float32, 3*rowStride+(2*tiles+2)*c)
	dst := make([]float32, 15*dstStride+tiles*c)
	m := make([]float32, 15*dstStride+tiles*c)
	bias := make([]float32, c)
	out := make([]float32, 2*tiles*c+2*tiles*c)
	calls := map[string]func(){
		"input src":   func() { winoInputRow(dst, dstStride, src[:len(src)-1], rowStride, c, tiles) },
		"input dst":   func() { winoInputRow(dst[:len(dst)-1], dstStride, src, rowStride, c, tiles) },
		"output m":    func() { winoOutputRow(out, 2*tiles*c, m[:len(m)-1], dstStride, bias, nil, c, tiles, false) },
		"output dst":  func() { winoOutputRow(out[:len(out)-1], 2*tiles*c, m, dstStride, bias, nil, c, tiles, false) },
		"output bias": func() { winoOutputRow(out, 2*tiles*c, m, dstStride, bias[:c-1], nil, c, tiles, false) },
		"output skip": func() { winoOutputRow(out, 2*tiles*c, m, dstStride, bias, out[:len(out)-1], c, tiles, false) },
	}
	for name, call := range calls {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: a slice one element short did not panic", name)
				}
			}()
			call()
		}()
	}
	// The exact lengths are enough.
	winoInputRow(dst, dstStride, src, rowStride, c, tiles)
	winoOutputRow(out, 2*tiles*c, m, dstStride, bias, out, c, tiles, true)
}

func TestWinoKernelsDoNotAllocate(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	c, tiles := 64, 5
	rowStride, stride := (2*tiles+2)*c, tiles*c
	src := winoRandom(r, 4*rowStride)
	v := make([]float32, 16*stride)
	bias := winoRandom(r, c)
	out := make([]float32, 2*rowStride)
	skip := winoRandom(r, 2*rowStride)
	for name, f := range map[string]func(){
		"winoInputRow":    func() { winoInputRow(v, stride, src, rowStride, c, tiles) },
		"winoInputRowGo":  func() { winoInputRowGo(v, stride, src, rowStride, c, tiles) },
		"winoOutputRow":   func() { winoOutputRow(out, rowStride, v, stride, bias, skip, c, tiles, true) },
		"winoOutputRowGo": func() { winoOutputRowGo(out, rowStride, v, stride, bias, skip, c, tiles, true) },
	} {
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%s allocates %v times per call", name, a)
		}
	}
}

// The benchmarks transform one tile row of a 10x10 board (5 tiles) with 64
// channels; ns/tile-ch is the time per tile and channel, and the bytes are
// those read and written.
func BenchmarkWinoInputRow(b *testing.B) {
	c, tiles := 64, 5
	rowStride, stride := (2*tiles+2)*c, tiles*c
	r := rand.New(rand.NewPCG(9, 10))
	src := winoRandom(r, 4*rowStride)
	v := make([]float32, 16*stride)
	for _, kern := range []struct {
		name string
		f    func(dst []float32, dstStride int, src []float32, rowStride, c, tiles int)
	}{{"fast", winoInputRow}, {"go", winoInputRowGo}} {
		b.Run(kern.name, func(b *testing.B) {
			b.SetBytes(int64(4 * (4*(2*tiles+2)*c + 16*tiles*c)))
			for b.Loop() {
				kern.f(v, stride, src, rowStride, c, tiles)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tiles*c), "ns/tile-ch")
		})
	}
}

func BenchmarkWinoOutputRow(b *testing.B) {
	c, tiles := 64, 5
	rowStride, stride := 2*tiles*c, tiles*c
	r := rand.New(rand.NewPCG(11, 12))
	m := winoRandom(r, 16*stride)
	bias := winoRandom(r, c)
	skip := winoRandom(r, 2*rowStride)
	out := make([]float32, 2*rowStride)
	for _, kern := range []struct {
		name string
		f    func(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool)
	}{{"fast", winoOutputRow}, {"go", winoOutputRowGo}} {
		b.Run(kern.name, func(b *testing.B) {
			b.SetBytes(int64(4 * (16*tiles*c + c + 2*4*tiles*c)))
			for b.Loop() {
				kern.f(out, rowStride, m, stride, bias, skip, c, tiles, true)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tiles*c), "ns/tile-ch")
		})
	}
}
