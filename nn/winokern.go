package nn

// The two transforms of the NHWC Winograd F(2x2, 3x3) inference path (see
// winograd.go for the algorithm), one tile row at a time. Every element of a
// tile is a vector of c contiguous float32 channels. On amd64 with AVX2 they
// run as assembly (package nn/internal/winoasm) that gives the same bits as the Go
// reference below for ordinary numbers: the same operations in the same
// order. The kernels make no alignment assumption and never allocate.

// winoInputRow writes the transformed input V = Bᵀ d B of tiles
// consecutive 4x4 tiles of one tile row. Tile tx (0 <= tx < tiles) reads
// d[a][b][ch] = src[a*rowStride + (2*tx+b)*c + ch] for a, b in 0..3 and ch
// in 0..c-1, and writes V[ξ][ch] to dst[ξ*dstStride + tx*c + ch] for ξ =
// 4*i+j in 0..15. It writes nothing else. c should be a positive multiple
// of 8 for the fast kernel (other c take the Go kernel).
func winoInputRow(dst []float32, dstStride int, src []float32, rowStride, c, tiles int) {
	winoInputRowImpl(dst, dstStride, src, rowStride, c, tiles)
}

// winoOutputRow writes the inverse transform Y = Aᵀ M A of tiles
// consecutive tiles of one tile row. Tile tx reads M[ξ][ch] = m[ξ*mStride +
// tx*c + ch] and, for i, j in 0..1, writes
//
//	v = Y[i][j][ch] + bias[ch] (+ skip[i*rowStride + (2*tx+j)*c + ch] when skip != nil)
//	dst[i*rowStride + (2*tx+j)*c + ch] = max(v, 0) if relu, else v
//
// and nothing else. skip may be dst itself (an in-place residual add): each
// element is read before its own store. c should be a positive multiple of
// 8 for the fast kernel (other c take the Go kernel).
func winoOutputRow(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool) {
	winoOutputRowImpl(dst, rowStride, m, mStride, bias, skip, c, tiles, relu)
}

// winoInputRowGo is the portable reference of winoInputRow: per column b,
// r0 = d0-d2, r1 = d1+d2, r2 = d2-d1, r3 = d1-d3 (Bᵀ d), then per row i,
// V[i] = (r_i[0]-r_i[2], r_i[1]+r_i[2], r_i[2]-r_i[1], r_i[1]-r_i[3]).
func winoInputRowGo(dst []float32, dstStride int, src []float32, rowStride, c, tiles int) {
	if tiles <= 0 || c <= 0 {
		return
	}
	// Reslicing below checks only capacities: check the lengths once.
	_ = src[3*rowStride+(2*tiles+2)*c-1]
	_ = dst[15*dstStride+tiles*c-1]
	for tx := 0; tx < tiles; tx++ {
		var d [4][4][]float32
		for a := range d {
			for b := range d[a] {
				d[a][b] = src[a*rowStride+(2*tx+b)*c:][:c]
			}
		}
		var v [16][]float32
		for xi := range v {
			v[xi] = dst[xi*dstStride+tx*c:][:c]
		}
		for ch := 0; ch < c; ch++ {
			var r [4][4]float32
			for b := 0; b < 4; b++ {
				d0, d1, d2, d3 := d[0][b][ch], d[1][b][ch], d[2][b][ch], d[3][b][ch]
				r[0][b], r[1][b], r[2][b], r[3][b] = d0-d2, d1+d2, d2-d1, d1-d3
			}
			for i := 0; i < 4; i++ {
				q := r[i]
				v[4*i][ch] = q[0] - q[2]
				v[4*i+1][ch] = q[1] + q[2]
				v[4*i+2][ch] = q[2] - q[1]
				v[4*i+3][ch] = q[1] - q[3]
			}
		}
	}
}

// winoOutputRowGo is the portable reference of winoOutputRow: per column
// j', s0 = (M0+M1)+M2 and s1 = (M1-M2)-M3 over the rows of M, then Y[i][0]
// = (s_i[0]+s_i[1])+s_i[2] and Y[i][1] = (s_i[1]-s_i[2])-s_i[3], then
// + bias, + skip, ReLU, each sum left to right.
func winoOutputRowGo(dst []float32, rowStride int, m []float32, mStride int, bias, skip []float32, c, tiles int, relu bool) {
	if tiles <= 0 || c <= 0 {
		return
	}
	// Reslicing below checks only capacities: check the lengths once.
	last := rowStride + 2*tiles*c - 1
	_ = dst[last]
	_ = m[15*mStride+tiles*c-1]
	_ = bias[c-1]
	if skip != nil {
		_ = skip[last]
	}
	bias = bias[:c]
	for tx := 0; tx < tiles; tx++ {
		var mm [16][]float32
		for xi := range mm {
			mm[xi] = m[xi*mStride+tx*c:][:c]
		}
		var out, sk [4][]float32
		for k := range out {
			off := (k/2)*rowStride + (2*tx+k%2)*c
			out[k] = dst[off:][:c]
			if skip != nil {
				sk[k] = skip[off:][:c]
			}
		}
		for ch := 0; ch < c; ch++ {
			var s0, s1 [4]float32
			for j := 0; j < 4; j++ {
				m0, m1, m2, m3 := mm[j][ch], mm[4+j][ch], mm[8+j][ch], mm[12+j][ch]
				s0[j] = m0 + m1 + m2
				s1[j] = m1 - m2 - m3
			}
			y := [4]float32{
				s0[0] + s0[1] + s0[2], s0[1] - s0[2] - s0[3],
				s1[0] + s1[1] + s1[2], s1[1] - s1[2] - s1[3],
			}
			b := bias[ch]
			for k, v := range y {
				v += b
				if skip != nil {
					v += sk[k][ch]
				}
				if relu {
					v = max(v, 0)
				}
				out[k][ch] = v
			}
		}
	}
}
