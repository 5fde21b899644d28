package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	"bomberzero/eval"
)

// randSlice returns n values uniform in [-scale, scale].
func randSlice(r *rand.Rand, n int, scale float64) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32((2*r.Float64() - 1) * scale)
	}
	return s
}

// dot is sum(a*b) in float64.
func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// checkGrad compares analytic gradients of a scalar function of vals with
// central differences at up to samples coordinates, within relative
// tolerance rtol (plus 5e-4 absolute for float32 rounding). loss recomputes
// the function from the current vals; kinked reports whether the last
// loss call switched any ReLU on or off relative to the unperturbed point,
// where a difference quotient straddles a kink and means nothing. Such
// coordinates are skipped, and the check fails if more than a third are.
func checkGrad(t *testing.T, name string, r *rand.Rand, vals, grad []float32, samples int, eps float32, rtol float64, loss func() float64, kinked func() bool) {
	t.Helper()
	checked, skipped := 0, 0
	for s := 0; s < samples && s < len(vals); s++ {
		i := s
		if len(vals) > samples {
			i = r.IntN(len(vals))
		}
		old := vals[i]
		vals[i] = old + eps
		lp := loss()
		kp := kinked()
		vals[i] = old - eps
		lm := loss()
		km := kinked()
		vals[i] = old
		if kp || km {
			skipped++
			continue
		}
		checked++
		num := (lp - lm) / (float64(old+eps) - float64(old-eps))
		ana := float64(grad[i])
		if math.Abs(num-ana) > rtol*math.Max(math.Abs(num), math.Abs(ana))+5e-4 {
			t.Errorf("%s[%d]: analytic gradient %.6g, numerical %.6g", name, i, ana, num)
		}
	}
	if skipped*3 > checked+skipped {
		t.Errorf("%s: %d of %d coordinates sit on ReLU kinks; the check proves too little", name, skipped, checked+skipped)
	}
}

// reluMask records which ReLU outputs are positive; changed reports whether
// the current outputs differ from the recorded ones.
type reluMask struct {
	outs func() [][]float32
	base []bool
}

func newReluMask(outs func() [][]float32) *reluMask {
	m := &reluMask{outs: outs}
	m.base = m.current()
	return m
}

func (m *reluMask) current() []bool {
	var b []bool
	for _, o := range m.outs() {
		for _, v := range o {
			b = append(b, v > 0)
		}
	}
	return b
}

func (m *reluMask) changed() bool {
	cur := m.current()
	for i := range cur {
		if cur[i] != m.base[i] {
			return true
		}
	}
	return false
}

// noKinks is the kink test of a smooth function.
func noKinks() bool { return false }

func newTestConv(r *rand.Rand, cin, cout, k int, relu, bn bool) *convLayer {
	l := &convLayer{cin: cin, cout: cout, k: k, relu: relu}
	l.weight = newParam("w", true, true, cout, cin, k, k)
	copy(l.weight.Data, randSlice(r, len(l.weight.Data), 0.5))
	if bn {
		l.gamma = newParam("g", true, false, cout)
		copy(l.gamma.Data, randSlice(r, cout, 1))
		for i := range l.gamma.Data {
			l.gamma.Data[i] += 1.5
		}
		l.beta = newParam("b", true, false, cout)
		copy(l.beta.Data, randSlice(r, cout, 0.5))
		l.mean = newParam("m", false, false, cout)
		l.vari = newParam("v", false, false, cout)
		l.vari.fill(1)
	} else {
		l.bias = newParam("bias", true, false, cout)
		copy(l.bias.Data, randSlice(r, cout, 0.5))
	}
	return l
}

func TestConvOpGradientsMatchNumericalDifferentiation(t *testing.T) {
	cases := []struct {
		name           string
		k              int
		relu, bn, skip bool
	}{
		{"3x3 BN ReLU", 3, true, true, false},
		{"3x3 BN residual ReLU", 3, true, true, true},
		{"3x3 BN linear", 3, false, true, false},
		{"1x1 BN ReLU", 1, true, true, false},
		{"1x1 bias linear", 1, false, false, false},
		{"3x3 bias residual ReLU", 3, true, false, true},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 7))
			const cin, cout, n, h, w = 3, 4, 2, 4, 5
			m := n * h * w
			l := newTestConv(r, cin, cout, tc.k, tc.relu, tc.bn)
			mode := normBias
			if tc.bn {
				mode = normBatch
			}
			k := newConvKernel(l, mode, n, h, w, nil, true)
			x := randSlice(r, cin*m, 1)
			var skip []float32
			if tc.skip {
				skip = randSlice(r, cout*m, 1)
			}
			rw := randSlice(r, cout*m, 1) // the objective is sum(rw * y)
			loss := func() float64 { k.forward(x, skip); return dot(rw, k.y) }
			loss()
			mask := newReluMask(func() [][]float32 {
				if l.relu {
					return [][]float32{k.y}
				}
				return nil
			})
			accum := randSlice(r, cin*m, 1)
			k.backward(rw, accum)
			dx := append([]float32(nil), k.dx...)
			for i := range dx {
				dx[i] -= accum[i] // backward adds accum to dx
			}
			dskip := append([]float32(nil), k.g...)
			wg := append([]float32(nil), l.weight.Grad...)
			const eps = 3e-3
			checkGrad(t, "x", r, x, dx, 30, eps, 1e-2, loss, mask.changed)
			checkGrad(t, "weight", r, l.weight.Data, wg, 30, eps, 1e-2, loss, mask.changed)
			if tc.bn {
				gg := append([]float32(nil), l.gamma.Grad...)
				bg := append([]float32(nil), l.beta.Grad...)
				checkGrad(t, "gamma", r, l.gamma.Data, gg, cout, eps, 1e-2, loss, mask.changed)
				checkGrad(t, "beta", r, l.beta.Data, bg, cout, eps, 1e-2, loss, mask.changed)
			} else {
				bg := append([]float32(nil), l.bias.Grad...)
				checkGrad(t, "bias", r, l.bias.Data, bg, cout, eps, 1e-2, loss, mask.changed)
			}
			if tc.skip {
				checkGrad(t, "skip", r, skip, dskip, 30, eps, 1e-2, loss, mask.changed)
			}
		})
	}
}

func TestConvIsTheSameSlabBySlab(t *testing.T) {
	// The columns are built, multiplied and folded back a slab of positions
	// at a time, the slabs spread over goroutines: any slab size gives the
	// same output, input gradient and weight gradient.
	r := rand.New(rand.NewPCG(5, 9))
	const cin, cout, n, h, w = 5, 6, 7, 3, 4
	m := n * h * w
	l := newTestConv(r, cin, cout, 3, true, true)
	x := randSlice(r, cin*m, 1)
	skip := randSlice(r, cout*m, 1)
	dy := randSlice(r, cout*m, 1)
	accum := randSlice(r, cin*m, 1)
	var wantY, wantDX, wantDW []float32
	for _, per := range []int{n, 1, 2, 3} {
		k := newConvKernel(l, normBatch, n, h, w, nil, true)
		k.slab = per
		k.forward(x, skip)
		k.backward(dy, accum)
		if wantY == nil {
			wantY = append([]float32(nil), k.y...)
			wantDX = append([]float32(nil), k.dx...)
			wantDW = append([]float32(nil), l.weight.Grad...)
			continue
		}
		for _, c := range []struct {
			name      string
			got, want []float32
		}{{"y", k.y, wantY}, {"dx", k.dx, wantDX}, {"dW", l.weight.Grad, wantDW}} {
			if d := maxRelDiff(c.got, c.want, 1); d > 1e-5 {
				t.Errorf("%d positions per slab: %s differs from one slab's by relative %.3g", per, c.name, d)
			}
		}
	}
}

func TestDenseOpGradientsMatchNumericalDifferentiation(t *testing.T) {
	for _, tc := range []struct {
		name string
		hw   int
		relu bool
	}{{"flattening ReLU", 6, true}, {"dense linear", 1, false}} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, uint64(tc.hw)))
			const c, out, n = 2, 5, 3
			l := &denseLayer{in: c * tc.hw, out: out, relu: tc.relu,
				weight: newParam("w", true, true, out, c*tc.hw), bias: newParam("b", true, false, out)}
			copy(l.weight.Data, randSlice(r, len(l.weight.Data), 0.5))
			copy(l.bias.Data, randSlice(r, out, 0.5))
			k := newDenseKernel(l, n, tc.hw, true)
			x := randSlice(r, c*n*tc.hw, 1)
			rw := randSlice(r, out*n, 1)
			loss := func() float64 { k.forward(x); return dot(rw, k.y) }
			loss()
			mask := newReluMask(func() [][]float32 {
				if l.relu {
					return [][]float32{k.y}
				}
				return nil
			})
			k.backward(rw, nil)
			dx := append([]float32(nil), k.dx...)
			wg := append([]float32(nil), l.weight.Grad...)
			bg := append([]float32(nil), l.bias.Grad...)
			// A second reader's gradient given as accum is added to dx.
			accum := randSlice(r, len(dx), 1)
			k.backward(rw, accum)
			for i := range dx {
				if want := dx[i] + accum[i]; k.dx[i] != want {
					t.Fatalf("dx[%d] with accum %v, want %v + %v", i, k.dx[i], dx[i], accum[i])
				}
			}
			checkGrad(t, "x", r, x, dx, 30, 1e-2, 1e-2, loss, mask.changed)
			checkGrad(t, "weight", r, l.weight.Data, wg, 30, 1e-2, 1e-2, loss, mask.changed)
			checkGrad(t, "bias", r, l.bias.Data, bg, out, 1e-2, 1e-2, loss, mask.changed)
		})
	}
}

func TestLossGradientsMatchNumericalDifferentiation(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	const n, hw, planes = 3, 4, 2
	size := planes * hw
	b := &TrainBatch{Batch: eval.Batch{Size: n, Legal: make([]float32, n*size), Policy: make([]float32, n*size), WDL: make([]float32, n*3),
		MovesLeft: []float32{10, 30, 200}}, ShortValue: []float32{0.5, -1, 0}}
	for pos := 0; pos < n; pos++ {
		var sum float32
		for i := 0; i < size; i++ {
			if r.IntN(2) == 0 || i == pos {
				b.Legal[pos*size+i] = 1
				b.Policy[pos*size+i] = r.Float32()
				sum += b.Policy[pos*size+i]
			}
		}
		for i := 0; i < size; i++ {
			b.Policy[pos*size+i] /= sum
		}
		b.WDL[pos*3+r.IntN(3)] = 1
	}
	k := newLossKernel(n, hw, planes)
	k.batch = b
	k.mlWeight, k.svWeight = 0.3, 0.8
	logits := randSlice(r, planes*n*hw, 2)
	wdl := randSlice(r, 3*n, 2)
	// Moves-left outputs (units of 20 plies) on both sides of the Huber
	// threshold: 0.1 plies from target 10 (quadratic), 1.5 units under 30
	// (linear), 5 units over 200 (linear).
	ml := []float32{0.6, 0, 15}
	sv := []float32{0.3, -2, 0.1} // raw outputs: tanh 0.29 against 0.5, -0.96 against -1, 0.1 against 0
	loss := func() float64 {
		k.forward(logits, wdl, ml, sv)
		return k.policy + k.value + k.mlWeight*k.movesLeft + k.svWeight*k.shortValue
	}
	loss()
	dp := append([]float32(nil), k.dPolicy...)
	dv := append([]float32(nil), k.dWDL...)
	dm := append([]float32(nil), k.dML...)
	ds := append([]float32(nil), k.dSV...)
	var want float64
	for pos, o := range sv {
		e := math.Tanh(float64(o)) - float64(b.ShortValue[pos])
		want += e * e / n
	}
	if math.Abs(k.shortValue-want) > 1e-9 {
		t.Errorf("short-term value loss %v, want %v", k.shortValue, want)
	}
	if want := (0.5*0.01 + 0.5*(1.5-0.25) + 0.5*(5-0.25)) / n; math.Abs(k.movesLeft-want) > 1e-6 {
		t.Errorf("moves-left loss %v, want %v", k.movesLeft, want)
	}
	checkGrad(t, "policy logits", r, logits, dp, len(logits), 1e-2, 1e-2, loss, noKinks)
	checkGrad(t, "wdl logits", r, wdl, dv, len(wdl), 1e-2, 1e-2, loss, noKinks)
	checkGrad(t, "moves-left outputs", r, ml, dm, len(ml), 1e-2, 1e-2, loss, noKinks)
	checkGrad(t, "short-term value outputs", r, sv, ds, len(sv), 1e-2, 1e-2, loss, noKinks)
	for i, g := range dp {
		pos := (i / hw) % n
		idx := (i/(n*hw))*hw + i%hw
		if b.Legal[pos*size+idx] == 0 && g != 0 {
			t.Errorf("illegal move %d of position %d has gradient %v, want 0", idx, pos, g)
		}
	}
}
