package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// directConv returns the 3x3 convolution (zero padding) of position p,
// channel co, square (y, x) of the NCHW-indexed input in (n x cin x h x w),
// with bias, in float64, and the sum of the absolute values of its terms.
func directConv(l *convLayer, in func(p, ci, y, x int) float64, p, co, y, x, h, w int) (v, mag float64) {
	v, mag = float64(l.bias.Data[co]), math.Abs(float64(l.bias.Data[co]))
	for ci := 0; ci < l.cin; ci++ {
		for ky := 0; ky < 3; ky++ {
			for kx := 0; kx < 3; kx++ {
				yy, xx := y+ky-1, x+kx-1
				if yy < 0 || yy >= h || xx < 0 || xx >= w {
					continue
				}
				t := float64(l.weight.Data[((co*l.cin+ci)*3+ky)*3+kx]) * in(p, ci, yy, xx)
				v += t
				mag += math.Abs(t)
			}
		}
	}
	return v, mag
}

func TestWinogradConvolutionEqualsTheDirectSum(t *testing.T) {
	for _, tc := range []struct {
		cin, cout, h, w, n int
		skip, relu         bool
	}{
		{3, 6, 4, 5, 3, false, true},     // channel padding, odd width
		{8, 8, 10, 10, 9, true, true},    // two slabs (8 positions each on 10x10)
		{30, 64, 10, 10, 2, false, true}, // the fbgc stem
		{5, 7, 5, 5, 23, true, false},    // odd board, two slabs of 22 and 1
		{16, 16, 1, 1, 2, true, true},    // one square: one tile, three outputs dropped
		{3, 5, 3, 7, 4, false, false},
		{64, 64, 8, 8, 4, true, true},
	} {
		t.Run(fmt.Sprintf("%dto%d_%dx%d_n%d", tc.cin, tc.cout, tc.h, tc.w, tc.n), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(tc.cin*100+tc.h), 3))
			l := newTestConv(r, tc.cin, tc.cout, 3, tc.relu, false)
			c := newWinoConv(l)
			geo := newPadGeom(tc.h, tc.w)
			sq := geo.squares()
			// Random board values in the interior, zero elsewhere.
			fill := func(ch, real int) []float32 {
				buf := make([]float32, tc.n*sq*ch)
				for p := 0; p < tc.n; p++ {
					for y := 0; y < tc.h; y++ {
						for x := 0; x < tc.w; x++ {
							for k := 0; k < real; k++ {
								buf[(p*sq+geo.at(y, x))*ch+k] = float32(2*r.Float64() - 1)
							}
						}
					}
				}
				return buf
			}
			x := fill(c.cin, tc.cin)
			var skip []float32
			if tc.skip {
				skip = fill(c.cout, tc.cout)
			}
			y := make([]float32, tc.n*sq*c.cout)
			slab := min(tc.n, winoSlabPositions(tc.h, tc.w))
			s := &inferScratch{v: make([]float32, 16*slab*geo.th*geo.tw*c.cin), m: make([]float32, 16*slab*geo.th*geo.tw*c.cout)}
			// A stale output (NaN) must be overwritten on the board and
			// never leak into the border.
			for i := range y {
				y[i] = float32(math.NaN())
			}
			for p := 0; p < tc.n; p++ {
				for yy := 0; yy < tc.h; yy++ {
					for xx := 0; xx < tc.w; xx++ {
						clear(y[(p*sq+geo.at(yy, xx))*c.cout:][:c.cout])
					}
				}
			}
			for i := range y {
				if math.IsNaN(float64(y[i])) {
					y[i] = 0 // the border starts zero, as the graph allocates it
				}
			}
			k := &winoKernel{c: c, geom: geo, n: tc.n, s: s, x: x, skip: skip, y: y}
			k.forward()

			in := func(p, ci, yy, xx int) float64 { return float64(x[(p*sq+geo.at(yy, xx))*c.cin+ci]) }
			onBoard := make([]bool, sq)
			for yy := 0; yy < tc.h; yy++ {
				for xx := 0; xx < tc.w; xx++ {
					onBoard[geo.at(yy, xx)] = true
				}
			}
			var worst float64
			for p := 0; p < tc.n; p++ {
				for i := 0; i < sq; i++ {
					for co := 0; co < c.cout; co++ {
						got := float64(y[(p*sq+i)*c.cout+co])
						if !onBoard[i] || co >= tc.cout {
							if got != 0 {
								t.Fatalf("position %d padded square %d channel %d = %v, want 0 (border and padding channels stay zero)", p, i, co, got)
							}
							continue
						}
						yy, xx := i/geo.pw-1, i%geo.pw-1
						want, mag := directConv(l, in, p, co, yy, xx, tc.h, tc.w)
						if skip != nil {
							sv := float64(skip[(p*sq+i)*c.cout+co])
							want += sv
							mag += math.Abs(sv)
						}
						if tc.relu {
							want = math.Max(want, 0)
						}
						worst = max(worst, math.Abs(got-want)/(1+mag))
					}
				}
			}
			if worst > 1e-6 {
				t.Errorf("Winograd output differs from the direct float64 sum by %.3g of the terms' magnitude, want <= 1e-6", worst)
			}
		})
	}
}

func TestWinogradWeightsTransformEachChannelPairByGgGt(t *testing.T) {
	// A kernel that is 1 at one tap: U = G e_(ky,kx) Gᵀ = outer(G[:,ky], G[:,kx]).
	g := [4][3]float64{{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}}
	const cin, cout, cinP, coutP = 2, 3, 8, 8
	for tap := 0; tap < 9; tap++ {
		w := make([]float32, cout*cin*9)
		w[(2*cin+1)*9+tap] = 1 // co 2, ci 1
		u := winogradWeights(w, cout, cin, coutP, cinP)
		ky, kx := tap/3, tap%3
		for xi := 0; xi < 16; xi++ {
			for ci := 0; ci < cinP; ci++ {
				for co := 0; co < coutP; co++ {
					want := 0.0
					if ci == 1 && co == 2 {
						want = g[xi/4][ky] * g[xi%4][kx]
					}
					if got := float64(u[(xi*cinP+ci)*coutP+co]); got != want {
						t.Fatalf("tap %d: U[ξ=%d][ci=%d][co=%d] = %v, want %v", tap, xi, ci, co, got, want)
					}
				}
			}
		}
	}
}
