package nn

import "math"

// refNet is an independent float64 implementation of the network's
// forward pass and loss, written the plain way (direct convolution loops
// over position-major NCHW tensors, BatchNorm from its definition), used as
// the truth the fused float32 graphs are checked against.
type refNet struct {
	cfg Config
	p   map[string][]float64 // every Param's values, by name
}

func newRefNet(n *Net) *refNet {
	r := &refNet{cfg: n.cfg, p: map[string][]float64{}}
	for _, p := range n.params {
		v := make([]float64, len(p.Data))
		for i, x := range p.Data {
			v[i] = float64(x)
		}
		r.p[p.Name] = v
	}
	return r
}

// conv is a k x k convolution, zero padding k/2, of x (positions x cin*hw).
func (r *refNet) conv(name string, x [][]float64, cin, cout, k int) [][]float64 {
	h, w := r.cfg.Height, r.cfg.Width
	wt := r.p[name+".weight"]
	out := make([][]float64, len(x))
	for pos, in := range x {
		o := make([]float64, cout*h*w)
		for co := 0; co < cout; co++ {
			for y := 0; y < h; y++ {
				for xx := 0; xx < w; xx++ {
					var s float64
					for ci := 0; ci < cin; ci++ {
						for ky := 0; ky < k; ky++ {
							for kx := 0; kx < k; kx++ {
								sy, sx := y+ky-k/2, xx+kx-k/2
								if sy < 0 || sy >= h || sx < 0 || sx >= w {
									continue
								}
								s += wt[((co*cin+ci)*k+ky)*k+kx] * in[(ci*h+sy)*w+sx]
							}
						}
					}
					o[(co*h+y)*w+xx] = s
				}
			}
		}
		out[pos] = o
	}
	return out
}

// norm applies BatchNorm (batch statistics when train, running statistics
// otherwise) or, for layers without one, the bias.
func (r *refNet) norm(name string, z [][]float64, c int, train bool) {
	hw := r.cfg.Height * r.cfg.Width
	if b, ok := r.p[name+".bias"]; ok {
		for _, v := range z {
			for i := range v {
				v[i] += b[i/hw]
			}
		}
		return
	}
	g, be := r.p[name+".bn.weight"], r.p[name+".bn.bias"]
	for ch := 0; ch < c; ch++ {
		mean, vari := r.p[name+".bn.running_mean"][ch], r.p[name+".bn.running_var"][ch]
		if train {
			var s, ss float64
			for _, v := range z {
				for i := ch * hw; i < (ch+1)*hw; i++ {
					s += v[i]
				}
			}
			mean = s / float64(len(z)*hw)
			for _, v := range z {
				for i := ch * hw; i < (ch+1)*hw; i++ {
					ss += (v[i] - mean) * (v[i] - mean)
				}
			}
			vari = ss / float64(len(z)*hw)
		}
		for _, v := range z {
			for i := ch * hw; i < (ch+1)*hw; i++ {
				v[i] = g[ch]*(v[i]-mean)/math.Sqrt(vari+bnEpsilon) + be[ch]
			}
		}
	}
}

func relu(z [][]float64) {
	for _, v := range z {
		for i := range v {
			v[i] = math.Max(0, v[i])
		}
	}
}

func (r *refNet) dense(name string, x [][]float64, out int, rl bool) [][]float64 {
	w, b := r.p[name+".weight"], r.p[name+".bias"]
	res := make([][]float64, len(x))
	for pos, in := range x {
		o := make([]float64, out)
		for j := range o {
			s := b[j]
			for i, v := range in {
				s += w[j*len(in)+i] * v
			}
			if rl {
				s = math.Max(0, s)
			}
			o[j] = s
		}
		res[pos] = o
	}
	return res
}

// forward returns each position's policy logits (eval index order), WDL
// logits and moves-left head output (in units of MovesLeftScale plies),
// and the short-term value head's tanh output (nil without the head).
func (r *refNet) forward(b *TrainBatch, train bool) (logits, wdl [][]float64, ml, sv []float64) {
	c := r.cfg
	in := c.Channels * c.Height * c.Width
	x := make([][]float64, b.Size)
	for pos := range x {
		x[pos] = make([]float64, in)
		for i := range x[pos] {
			x[pos][i] = float64(b.Planes[pos*in+i])
		}
	}
	layer := func(name string, x [][]float64, cin, cout, k int, rl bool, skip [][]float64) [][]float64 {
		z := r.conv(name, x, cin, cout, k)
		r.norm(name, z, cout, train)
		if skip != nil {
			for pos := range z {
				for i := range z[pos] {
					z[pos][i] += skip[pos][i]
				}
			}
		}
		if rl {
			relu(z)
		}
		return z
	}
	y := layer("stem", x, c.Channels, c.Filters, 3, true, nil)
	for i := 0; i < c.Blocks; i++ {
		h := layer(blockName(i, 1), y, c.Filters, c.Filters, 3, true, nil)
		if c.GlobalPool > 0 {
			r.pool("block"+string(rune('0'+i))+".pool", h)
		}
		y = layer(blockName(i, 2), h, c.Filters, c.Filters, 3, true, y)
	}
	p := layer("policy.conv", y, c.Filters, c.PolicyFilters, 1, true, nil)
	logits = layer("policy.logits", p, c.PolicyFilters, c.PolicyPlanes, 1, false, nil)
	v := layer("value.conv", y, c.Filters, c.ValueFilters, 1, true, nil)
	v = r.dense("value.fc1", v, c.ValueHidden, true)
	wdl = r.dense("value.fc2", v, 3, false)
	if c.ShortValue {
		for _, o := range r.dense("value.short", v, 1, false) {
			sv = append(sv, math.Tanh(o[0]))
		}
	}
	m := layer("moves_left.conv", y, c.Filters, c.ValueFilters, 1, true, nil)
	m = r.dense("moves_left.fc1", m, c.ValueHidden, true)
	for _, o := range r.dense("moves_left.fc2", m, 1, false) {
		ml = append(ml, o[0])
	}
	return logits, wdl, ml, sv
}

// pool adds to every channel of h (positions x Filters*hw), at every
// square, the dense layer name of the means and the maxima over the board
// of h's first GlobalPool channels.
func (r *refNet) pool(name string, h [][]float64) {
	hw, g, f := r.cfg.Height*r.cfg.Width, r.cfg.GlobalPool, r.cfg.Filters
	w, b := r.p[name+".weight"], r.p[name+".bias"]
	for _, v := range h {
		feats := make([]float64, 2*g)
		for ch := 0; ch < g; ch++ {
			m := math.Inf(-1)
			for _, x := range v[ch*hw : (ch+1)*hw] {
				feats[ch] += x / float64(hw)
				m = math.Max(m, x)
			}
			feats[g+ch] = m
		}
		for o := 0; o < f; o++ {
			s := b[o]
			for j, x := range feats {
				s += w[o*2*g+j] * x
			}
			for i := o * hw; i < (o+1)*hw; i++ {
				v[i] += s
			}
		}
	}
}

func blockName(i, conv int) string {
	return "block" + string(rune('0'+i)) + ".conv" + string(rune('0'+conv))
}

// loss returns the batch-mean policy and WDL cross-entropies, the
// moves-left Huber loss (quadratic within 10 plies of the target, linear
// beyond, in units of 20 plies) and the short-term value's squared error.
func (r *refNet) loss(b *TrainBatch, train bool) (policy, value, movesLeft, shortValue float64) {
	logits, wdl, ml, sv := r.forward(b, train)
	for pos, o := range sv {
		shortValue += (o - float64(b.ShortValue[pos])) * (o - float64(b.ShortValue[pos])) / float64(b.Size)
	}
	size := r.cfg.Shape().PolicySize
	for pos := 0; pos < b.Size; pos++ {
		lse := math.Inf(-1)
		for i := 0; i < size; i++ {
			if b.Legal[pos*size+i] != 0 {
				lse = logAddExp(lse, logits[pos][i])
			}
		}
		for i := 0; i < size; i++ {
			if b.Legal[pos*size+i] != 0 {
				policy -= float64(b.Policy[pos*size+i]) * (logits[pos][i] - lse)
			}
		}
		l := logAddExp(logAddExp(wdl[pos][0], wdl[pos][1]), wdl[pos][2])
		for j := 0; j < 3; j++ {
			value -= float64(b.WDL[pos*3+j]) * (wdl[pos][j] - l)
		}
		d := math.Abs(ml[pos] - float64(b.MovesLeft[pos])/20)
		if d <= 0.5 {
			movesLeft += d * d / 2
		} else {
			movesLeft += 0.5 * (d - 0.25)
		}
	}
	n := float64(b.Size)
	return policy / n, value / n, movesLeft / n, shortValue
}

func logAddExp(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	m := math.Max(a, b)
	return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
}
