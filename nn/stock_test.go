package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"bomberzero/eval"
)

// TestFusedConvEqualsStockGorgoniaConv2d checks the fused convolution (the
// im2col + one SGEMM written straight into the channel-major layout, with
// folded bias, residual add and ReLU) against Gorgonia's stock Conv2d on the
// same random input, followed by the same bias, add and ReLU done by hand.
func TestFusedConvEqualsStockGorgoniaConv2d(t *testing.T) {
	for _, k := range []int{3, 1} {
		r := rand.New(rand.NewPCG(uint64(k), 21))
		const cin, cout, n, h, w = 5, 7, 3, 6, 4
		l := newTestConv(r, cin, cout, k, true, false)
		x := randSlice(r, n*cin*h*w, 1) // NCHW
		skip := randSlice(r, n*cout*h*w, 1)

		g := G.NewGraph()
		xn := G.NewTensor(g, tensor.Float32, 4, G.WithShape(n, cin, h, w), G.WithName("x"),
			G.WithValue(tensor.New(tensor.WithBacking(append([]float32(nil), x...)), tensor.WithShape(n, cin, h, w))))
		wn := G.NewTensor(g, tensor.Float32, 4, G.WithShape(cout, cin, k, k), G.WithName("w"),
			G.WithValue(tensor.New(tensor.WithBacking(append([]float32(nil), l.weight.Data...)), tensor.WithShape(cout, cin, k, k))))
		y, err := G.Conv2d(xn, wn, tensor.Shape{k, k}, []int{k / 2, k / 2}, []int{1, 1}, []int{1, 1})
		if err != nil {
			t.Fatal(err)
		}
		vm := G.NewTapeMachine(g)
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		stock := y.Value().Data().([]float32) // NCHW
		vm.Close()

		kern := newConvKernel(l, normBias, n, h, w, nil, false)
		xc := make([]float32, len(x))
		nchwToCNHW(x, n, n, cin, h*w, xc)
		sc := make([]float32, len(skip))
		nchwToCNHW(skip, n, n, cout, h*w, sc)
		kern.forward(xc, sc)

		var worst float64
		for p := 0; p < n; p++ {
			for c := 0; c < cout; c++ {
				for sq := 0; sq < h*w; sq++ {
					i := (p*cout+c)*h*w + sq
					want := math.Max(0, float64(stock[i])+float64(l.bias.Data[c])+float64(skip[i]))
					got := float64(kern.y[(c*n+p)*h*w+sq])
					// Relative to at least 1, the scale of the terms: a sum
					// that cancels to near 0 keeps the terms' rounding error,
					// which differs between BLAS kernels (FMA or not).
					worst = max(worst, math.Abs(got-want)/math.Max(math.Abs(want), 1))
				}
			}
		}
		if worst > 1e-4 {
			t.Errorf("%dx%d: fused conv differs from stock Conv2d by relative %.3g, want <= 1e-4", k, k, worst)
		}
	}
}

// stockNet builds the whole network from Gorgonia's stock ops (Conv2d,
// broadcast arithmetic for BatchNorm with its running statistics, Add,
// Rectify, Reshape, Transpose, Mul) on NCHW input, the plain way, and returns
// the policy logits (N, P, H, W) and WDL logits (N, 3) after running it.
func stockNet(t *testing.T, net *Net, planes []float32, n int) (logits, wdl []float32) {
	t.Helper()
	cfg := net.cfg
	g := G.NewGraph()
	must := func(x *G.Node, err error) *G.Node {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	konst := func(name string, data []float32, shape ...int) *G.Node {
		return G.NewTensor(g, tensor.Float32, len(shape), G.WithShape(shape...), G.WithName(name),
			G.WithValue(tensor.New(tensor.WithBacking(append([]float32(nil), data...)), tensor.WithShape(shape...))))
	}
	perChannel := func(name string, v []float32) *G.Node { return konst(name, v, 1, len(v), 1, 1) }
	bc := []byte{0, 2, 3}
	layer := func(l *convLayer, name string, x *G.Node, skip *G.Node) *G.Node {
		w := konst(name+".w", l.weight.Data, l.weight.Shape...)
		z := must(G.Conv2d(x, w, tensor.Shape{l.k, l.k}, []int{l.k / 2, l.k / 2}, []int{1, 1}, []int{1, 1}))
		if l.gamma != nil {
			sd := make([]float32, l.cout)
			for i, v := range l.vari.Data {
				sd[i] = float32(math.Sqrt(float64(v) + bnEpsilon))
			}
			z = must(G.BroadcastSub(z, perChannel(name+".mean", l.mean.Data), nil, bc))
			z = must(G.BroadcastHadamardDiv(z, perChannel(name+".sd", sd), nil, bc))
			z = must(G.BroadcastHadamardProd(z, perChannel(name+".gamma", l.gamma.Data), nil, bc))
			z = must(G.BroadcastAdd(z, perChannel(name+".beta", l.beta.Data), nil, bc))
		} else {
			z = must(G.BroadcastAdd(z, perChannel(name+".bias", l.bias.Data), nil, bc))
		}
		if skip != nil {
			z = must(G.Add(z, skip))
		}
		if l.relu {
			z = must(G.Rectify(z))
		}
		return z
	}
	dense := func(l *denseLayer, name string, x *G.Node) *G.Node {
		w := konst(name+".w", l.weight.Data, l.out, l.in)
		y := must(G.Mul(x, must(G.Transpose(w, 1, 0))))
		y = must(G.BroadcastAdd(y, konst(name+".b", l.bias.Data, 1, l.out), nil, []byte{0}))
		if l.relu {
			y = must(G.Rectify(y))
		}
		return y
	}
	x := konst("planes", planes[:n*cfg.Channels*cfg.Height*cfg.Width], n, cfg.Channels, cfg.Height, cfg.Width)
	y := layer(net.t.stem, "stem", x, nil)
	for i, b := range net.t.blocks {
		h := layer(b[0], fmt.Sprintf("b%d.1", i), y, nil)
		y = layer(b[1], fmt.Sprintf("b%d.2", i), h, y)
	}
	p := layer(net.t.polOut, "pout", layer(net.t.polConv, "pconv", y, nil), nil)
	v := layer(net.t.valConv, "vconv", y, nil)
	v = must(G.Reshape(v, tensor.Shape{n, cfg.ValueFilters * cfg.Height * cfg.Width}))
	v = dense(net.t.fc2, "fc2", dense(net.t.fc1, "fc1", v))
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	return append([]float32(nil), p.Value().Data().([]float32)...), append([]float32(nil), v.Value().Data().([]float32)...)
}

func TestFusedInferenceEqualsStockGorgoniaGraph(t *testing.T) {
	cfg := tinyConfig()
	for seed := uint64(0); seed < 2; seed++ {
		net, err := New(cfg, seed+20)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 20))
		randomizeStats(net, r)
		const n = 4
		b := randomBatch(cfg, n, r)
		wantP, wantV := stockNet(t, net, b.Planes, n)

		ev, err := NewEvaluator(net.Fold(), n)
		if err != nil {
			t.Fatal(err)
		}
		eb := eval.NewBatch(cfg.Shape(), n)
		copy(eb.Planes, b.Planes)
		copy(eb.Legal, b.Legal)
		if err := ev.Evaluate(eb); err != nil {
			t.Fatal(err)
		}
		g := ev.graphs[len(ev.graphs)-1]
		hw := cfg.Height * cfg.Width
		lay := g.logitLayout()
		var worst float64
		for pos := 0; pos < n; pos++ {
			for i := 0; i < cfg.PolicyPlanes*hw; i++ {
				plane, y, x := i/hw, i%hw/cfg.Width, i%cfg.Width
				got := float64(g.policy[(plane*n+pos)*lay.plane+lay.origin+y*lay.row+x] + lay.bias[plane])
				want := float64(wantP[pos*cfg.PolicyPlanes*hw+i])
				worst = max(worst, math.Abs(got-want)/math.Max(math.Abs(want), 1))
			}
			for j := 0; j < 3; j++ {
				got, want := float64(g.wdl[j*n+pos]), float64(wantV[pos*3+j])
				worst = max(worst, math.Abs(got-want)/math.Max(math.Abs(want), 1))
			}
		}
		if worst > 1e-4 {
			t.Errorf("seed %d: fused logits differ from the stock Gorgonia graph's by relative %.3g, want <= 1e-4", seed, worst)
		}
	}
}
