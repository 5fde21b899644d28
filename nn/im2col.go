package nn

// The network keeps every activation channel-major across the batch (CNHW):
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
// positions [p0, p1) only: cols then has (p1-p0)*h*w columns.
func im2colChannel(x []float32, ci, n, h, w, k int, cols []float32, p0, p1 int) {
	hw := h * w
	cols1 := (p1 - p0) * hw
	pad := k / 2
	{
		src := x[(ci*n+p0)*hw : (ci*n+p1)*hw]
		for ky := 0; ky < k; ky++ {
			dy := ky - pad
			ylo, yhi := max(0, -dy), min(h, h-dy)
			for kx := 0; kx < k; kx++ {
				dx := kx - pad
				row := cols[((ci*k+ky)*k+kx)*cols1:][:cols1]
				// Columns xx with 0 <= xx+dx < w are valid.
				x0, x1 := max(0, -dx), min(w, w-dx)
				off := dy*w + dx
				for p := 0; p < p1-p0; p++ {
					s := src[p*hw : (p+1)*hw]
					d := row[p*hw : (p+1)*hw]
					if ylo >= yhi {
						clear(d)
						continue
					}
					clear(d[:ylo*w])
					clear(d[yhi*w:])
					// One copy covers every valid square; the squares it
					// wraps onto from the next or previous rank are zeroed.
					start, end := ylo*w+x0, (yhi-1)*w+x1
					copy(d[start:end], s[start+off:end+off])
					for y := ylo; y < yhi; y++ {
						r := d[y*w : (y+1)*w]
						clear(r[:x0])
						clear(r[x1:])
					}
				}
			}
		}
	}
}

// col2im is im2col's adjoint: it adds every entry of cols back onto the
// input position it was copied from, writing (not adding to) dx.
func col2im(cols []float32, cin, n, h, w, k int, dx []float32, par bool) {
	hw := h * w
	cols1 := n * hw
	pad := k / 2
	forEach(par, cin, func(ci int) {
		dst := dx[ci*cols1 : (ci+1)*cols1]
		clear(dst)
		for ky := 0; ky < k; ky++ {
			dy := ky - pad
			for kx := 0; kx < k; kx++ {
				dxo := kx - pad
				row := cols[((ci*k+ky)*k+kx)*cols1:][:cols1]
				x0, x1 := max(0, -dxo), min(w, w-dxo)
				for p := 0; p < n; p++ {
					s := row[p*hw : (p+1)*hw]
					d := dst[p*hw : (p+1)*hw]
					for y := 0; y < h; y++ {
						sy := y + dy
						if sy < 0 || sy >= h {
							continue
						}
						dr := d[sy*w+x0+dxo : sy*w+x1+dxo]
						sr := s[y*w+x0 : y*w+x1]
						for i, v := range sr {
							dr[i] += v
						}
					}
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
