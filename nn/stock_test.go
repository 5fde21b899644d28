package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestFusedConvEqualsStockGorgoniaConv2d checks the fused convolution (the
// im2col + one SGEMM written straight into the channel-major layout, with
// folded bias, residual add and ReLU) against Gorgonia's stock Conv2d on the
// same random input, followed by the same bias, add and ReLU done by hand.
func TestFusedConvEqualsStockGorgoniaConv2d(t *testing.T) {
	for _, k := range []int{3, 1} {
		r := rand.New(rand.NewPCG(uint64(k), 21))
		const cin, cout, n, h, w = 5, 7, 3, 6, 4
		m := n * h * w
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

		cols := make([]float32, cin*k*k*m)
		kern := newConvKernel(l, normBias, n, h, w, cols, nil, false)
		kern.serial = true
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
					worst = max(worst, math.Abs(got-want)/math.Max(math.Abs(want), 1e-3))
				}
			}
		}
		if worst > 1e-4 {
			t.Errorf("%dx%d: fused conv differs from stock Conv2d by relative %.3g, want <= 1e-4", k, k, worst)
		}
	}
}
