package nn

// The two transforms of the NHWC Winograd F(2x2, 3x3) inference path (see
// winograd.go for the algorithm), one tile row at a time. Every element of a
// tile is a vector of c contiguous float32 channels. On amd64 with AVX2 they
// run as assembly (package nn/internal/avx2) that gives the same bits as the Go
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
		o := 2 * tx * c
		d00, d01, d02, d03 := src[o:][:c], src[o+c:][:c], src[o+2*c:][:c], src[o+3*c:][:c]
		o += rowStride
		d10, d11, d12, d13 := src[o:][:c], src[o+c:][:c], src[o+2*c:][:c], src[o+3*c:][:c]
		o += rowStride
		d20, d21, d22, d23 := src[o:][:c], src[o+c:][:c], src[o+2*c:][:c], src[o+3*c:][:c]
		o += rowStride
		d30, d31, d32, d33 := src[o:][:c], src[o+c:][:c], src[o+2*c:][:c], src[o+3*c:][:c]
		v := dst[tx*c:]
		for i := 0; i < 4; i++ {
			// Row i of Bᵀ d is r_i = p - q, or p + q when add, for two rows
			// p and q of d.
			var p0, p1, p2, p3, q0, q1, q2, q3 []float32
			add := false
			switch i {
			case 0: // d0 - d2
				p0, p1, p2, p3, q0, q1, q2, q3 = d00, d01, d02, d03, d20, d21, d22, d23
			case 1: // d1 + d2
				p0, p1, p2, p3, q0, q1, q2, q3 = d10, d11, d12, d13, d20, d21, d22, d23
				add = true
			case 2: // d2 - d1
				p0, p1, p2, p3, q0, q1, q2, q3 = d20, d21, d22, d23, d10, d11, d12, d13
			case 3: // d1 - d3
				p0, p1, p2, p3, q0, q1, q2, q3 = d10, d11, d12, d13, d30, d31, d32, d33
			}
			v0 := v[(4*i)*dstStride:][:c]
			v1 := v[(4*i+1)*dstStride:][:c]
			v2 := v[(4*i+2)*dstStride:][:c]
			v3 := v[(4*i+3)*dstStride:][:c]
			p0, p1, p2, p3 = p0[:c], p1[:c], p2[:c], p3[:c]
			q0, q1, q2, q3 = q0[:c], q1[:c], q2[:c], q3[:c]
			if add {
				for ch := 0; ch < c; ch++ {
					r0, r1, r2, r3 := p0[ch]+q0[ch], p1[ch]+q1[ch], p2[ch]+q2[ch], p3[ch]+q3[ch]
					v0[ch], v1[ch], v2[ch], v3[ch] = r0-r2, r1+r2, r2-r1, r1-r3
				}
				continue
			}
			for ch := 0; ch < c; ch++ {
				r0, r1, r2, r3 := p0[ch]-q0[ch], p1[ch]-q1[ch], p2[ch]-q2[ch], p3[ch]-q3[ch]
				v0[ch], v1[ch], v2[ch], v3[ch] = r0-r2, r1+r2, r2-r1, r1-r3
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
		o := tx * c
		m0, m1, m2, m3 := m[o:][:c], m[o+mStride:][:c], m[o+2*mStride:][:c], m[o+3*mStride:][:c]
		o += 4 * mStride
		m4, m5, m6, m7 := m[o:][:c], m[o+mStride:][:c], m[o+2*mStride:][:c], m[o+3*mStride:][:c]
		o += 4 * mStride
		m8, m9, m10, m11 := m[o:][:c], m[o+mStride:][:c], m[o+2*mStride:][:c], m[o+3*mStride:][:c]
		o += 4 * mStride
		m12, m13, m14, m15 := m[o:][:c], m[o+mStride:][:c], m[o+2*mStride:][:c], m[o+3*mStride:][:c]
		o = 2 * tx * c
		y00, y01, y10, y11 := dst[o:][:c], dst[o+c:][:c], dst[o+rowStride:][:c], dst[o+rowStride+c:][:c]
		var k00, k01, k10, k11 []float32
		if skip != nil {
			k00, k01, k10, k11 = skip[o:][:c], skip[o+c:][:c], skip[o+rowStride:][:c], skip[o+rowStride+c:][:c]
		}
		for ch := 0; ch < c; ch++ {
			// Aᵀ M: one sum per column of M for each row of Aᵀ.
			s00, s10 := m0[ch]+m4[ch]+m8[ch], m4[ch]-m8[ch]-m12[ch]
			s01, s11 := m1[ch]+m5[ch]+m9[ch], m5[ch]-m9[ch]-m13[ch]
			s02, s12 := m2[ch]+m6[ch]+m10[ch], m6[ch]-m10[ch]-m14[ch]
			s03, s13 := m3[ch]+m7[ch]+m11[ch], m7[ch]-m11[ch]-m15[ch]
			// (Aᵀ M) A, + bias.
			b := bias[ch]
			v00, v01 := s00+s01+s02+b, s01-s02-s03+b
			v10, v11 := s10+s11+s12+b, s11-s12-s13+b
			if skip != nil {
				v00 += k00[ch]
				v01 += k01[ch]
				v10 += k10[ch]
				v11 += k11[ch]
			}
			if relu {
				v00, v01, v10, v11 = max(v00, 0), max(v01, 0), max(v10, 0), max(v11, 0)
			}
			y00[ch], y01[ch], y10[ch], y11[ch] = v00, v01, v10, v11
		}
	}
}
