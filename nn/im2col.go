package nn

// Training keeps every activation channel-major across the batch (CNHW):
// a tensor of C channels for n positions on an H x W board is C rows of
// n*H*W values, row c holding channel c of position 0, then position 1, and
// so on. A convolution is then one GEMM, weights (Cout x Cin*k*k) times
// columns (Cin*k*k x n*H*W), whose result is already the next CNHW tensor:
// no transpose anywhere in the tower.

// im2col writes the k x k (odd k, zero padding k/2) patches of the CNHW
// tensor x (cin channels, n positions of h x w) into cols, a
// (cin*k*k) x (n*h*w) row-major matrix: row (ci*k+ky)*k+kx, column
// pos*h*w + y*w + xx holds x[ci][pos][y+ky-k/2][xx+kx-k/2] or 0 off the board.
// par spreads the channels over goroutines.
func im2col(x []float32, cin, n, h, w, k int, cols []float32, par bool) {
	if !par {
		for ci := 0; ci < cin; ci++ {
			im2colChannel(x, ci, n, h, w, k, cols, 0, n)
		}
		return
	}
	forEach(true, cin, func(ci int) { im2colChannel(x, ci, n, h, w, k, cols, 0, n) })
}

// im2colChannel writes the k*k rows of cols that come from channel ci, for
// positions [p0, p1) only: cols then has (p1-p0)*h*w columns. Each row is
// one contiguous copy across all the positions (the tap's shift is the same
// offset everywhere), after which the squares that fell off the board, or
// wrapped onto the next rank or position, are zeroed.
func im2colChannel(x []float32, ci, n, h, w, k int, cols []float32, p0, p1 int) {
	hw := h * w
	np := p1 - p0
	cols1 := np * hw
	pad := k / 2
	src := x[(ci*n+p0)*hw : (ci*n+p1)*hw]
	for ky := 0; ky < k; ky++ {
		dy := ky - pad
		for kx := 0; kx < k; kx++ {
			dx := kx - pad
			row := cols[((ci*k+ky)*k+kx)*cols1:][:cols1]
			off := dy*w + dx
			lo, hi := max(0, -off), min(cols1, cols1-off)
			if lo < hi {
				copy(row[lo:hi], src[lo+off:hi+off])
			}
			zeroOffBoard(row, np, h, w, dy, dx)
		}
	}
}

// zeroOffBoard zeroes, in a row of np positions of h x w squares, every
// square (y, x) whose source square (y+dy, x+dx) is off the board.
func zeroOffBoard(row []float32, np, h, w, dy, dx int) {
	hw := h * w
	ylo, yhi := max(0, -dy), min(h, h-dy)
	x0, x1 := max(0, -dx), min(w, w-dx)
	for p := 0; p < np; p++ {
		r := row[p*hw : (p+1)*hw]
		if ylo >= yhi {
			clear(r)
			continue
		}
		for i := range r[:ylo*w] {
			r[i] = 0
		}
		for i := yhi * w; i < hw; i++ {
			r[i] = 0
		}
		if x0 == 0 && x1 == w {
			continue
		}
		// Column strips, walked with stride w (for a 3x3 kernel one
		// square per rank: a per-rank loop would cost more than the store).
		for x := 0; x < x0; x++ {
			for i := ylo*w + x; i < yhi*w; i += w {
				r[i] = 0
			}
		}
		for x := x1; x < w; x++ {
			for i := ylo*w + x; i < yhi*w; i += w {
				r[i] = 0
			}
		}
	}
}

// col2im is im2col's adjoint: it adds every entry of cols back onto the
// input position it was copied from, writing (not adding to) dx. It zeroes
// cols' entries that im2col would have zeroed (they carry no gradient), so
// that each row is then added in one contiguous pass; cols is scratch.
func col2im(cols []float32, cin, n, h, w, k int, dx []float32, par bool) {
	cols1 := n * h * w
	pad := k / 2
	forEach(par, cin, func(ci int) {
		dst := dx[ci*cols1 : (ci+1)*cols1]
		clear(dst)
		for ky := 0; ky < k; ky++ {
			dy := ky - pad
			for kx := 0; kx < k; kx++ {
				dxo := kx - pad
				row := cols[((ci*k+ky)*k+kx)*cols1:][:cols1]
				zeroOffBoard(row, n, h, w, dy, dxo)
				off := dy*w + dxo
				lo, hi := max(0, -off), min(cols1, cols1-off)
				if lo >= hi {
					continue
				}
				s := row[lo:hi]
				d := dst[lo+off : hi+off]
				d = d[:len(s)]
				for i, v := range s {
					d[i] += v
				}
			}
		}
	})
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
