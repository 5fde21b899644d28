package nn

// Training keeps every activation channel-major across the batch (CNHW):
// a tensor of C channels for n positions on an H x W board is C rows of
// n*H*W values, row c holding channel c of position 0, then position 1, and
// so on. A convolution is then one GEMM, weights (Cout x Cin*k*k) times
// columns (Cin*k*k x n*H*W), whose result is already the next CNHW tensor:
// no transpose anywhere in the tower.

// im2col writes the k x k (odd k, zero padding k/2) patches of positions
// [p0, p1) of the CNHW tensor x (cin channels, n positions of h x w) into
// cols, a (cin*k*k) x ((p1-p0)*h*w) row-major matrix: row (ci*k+ky)*k+kx,
// column (pos-p0)*h*w + y*w + xx holds x[ci][pos][y+ky-k/2][xx+kx-k/2], or
// 0 off the board. masks is tapMasks(m, h, w, k) for some m >= p1-p0.
//
// Each row is one masked copy across the slab's positions: a tap's shift is
// the same offset everywhere, and its mask zeroes the squares that fell off
// the board or wrapped onto the next rank or position.
func im2col(x []float32, cin, n, h, w, k int, cols []float32, p0, p1 int, masks []uint32) {
	hw := h * w
	cols1 := (p1 - p0) * hw
	stride := len(masks) / (k * k)
	pad := k / 2
	for ci := 0; ci < cin; ci++ {
		src := x[(ci*n+p0)*hw:][:cols1]
		for tap := 0; tap < k*k; tap++ {
			off := (tap/k-pad)*w + tap%k - pad
			row := cols[(ci*k*k+tap)*cols1:][:cols1]
			lo, hi := max(0, -off), min(cols1, cols1-off)
			if lo >= hi {
				clear(row)
				continue
			}
			maskedCopy(row[lo:hi], src[lo+off:hi+off], masks[tap*stride+lo:])
			clear(row[:lo])
			clear(row[hi:])
		}
	}
}

// col2im is im2col's adjoint for positions [p0, p1): it adds every entry
// of cols (the (cin*k*k) x ((p1-p0)*h*w) columns of those positions) that
// im2col would not have zeroed back onto the input square it was copied
// from, writing (not adding to) those positions of the CNHW tensor dx of n
// positions. masks is tapMasks(m, h, w, k) for some m >= p1-p0.
func col2im(cols []float32, cin, n, h, w, k int, dx []float32, p0, p1 int, masks []uint32) {
	hw := h * w
	cols1 := (p1 - p0) * hw
	stride := len(masks) / (k * k)
	pad := k / 2
	for ci := 0; ci < cin; ci++ {
		dst := dx[(ci*n+p0)*hw:][:cols1]
		clear(dst)
		for tap := 0; tap < k*k; tap++ {
			off := (tap/k-pad)*w + tap%k - pad
			row := cols[(ci*k*k+tap)*cols1:][:cols1]
			lo, hi := max(0, -off), min(cols1, cols1-off)
			if lo < hi {
				maskedAdd(dst[lo+off:hi+off], row[lo:hi], masks[tap*stride+lo:])
			}
		}
	}
}

// tapMasks returns the masks of a k x k convolution's taps on n positions
// of h x w squares: for tap ky*k+kx, n*h*w entries from index
// (ky*k+kx)*n*h*w, all ones at square (y, x) of each position when its
// source square (y+ky-k/2, x+kx-k/2) is on the board, 0 when not. Any
// prefix of whole positions serves a slab of fewer positions.
func tapMasks(n, h, w, k int) []uint32 {
	hw := h * w
	m := make([]uint32, k*k*n*hw)
	for tap := 0; tap < k*k; tap++ {
		dy, dx := tap/k-k/2, tap%k-k/2
		row := m[tap*n*hw:][:n*hw]
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				if y+dy < 0 || y+dy >= h || x+dx < 0 || x+dx >= w {
					continue
				}
				for p := 0; p < n; p++ {
					row[p*hw+y*w+x] = ^uint32(0)
				}
			}
		}
	}
	return m
}

// nchwToCNHW transposes size positions of c x hw values from the caller's
// position-major layout into the first size positions of the network's
// channel-major layout for a batch of n.
func nchwToCNHW(src []float32, size, n, c, hw int, dst []float32) {
	for p := 0; p < size; p++ {
		for ci := 0; ci < c; ci++ {
			copy(dst[(ci*n+p)*hw:(ci*n+p+1)*hw], src[(p*c+ci)*hw:(p*c+ci+1)*hw])
		}
	}
}
