package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Param is one named tensor of a network: a learnable weight (with its
// gradient) or a BatchNorm running statistic (no gradient). Data is shared by
// every graph built from the network; graphs only write Data through the
// optimizer (weights) or training-mode BatchNorm (running statistics).
type Param struct {
	Name  string    // checkpoint name, e.g. "block0.conv1.weight"
	Shape []int     // PyTorch-style shape: conv weights (Cout, Cin, k, k), dense (out, in)
	Data  []float32 // the values, row-major
	Grad  []float32 // d(loss)/d(Data) after a training step's backward pass; nil for statistics
	Decay bool      // whether L2 regularisation applies (weights, not biases or BatchNorm)
}

// newParam allocates a zero Param; learnable ones get a gradient buffer.
func newParam(name string, learn, decay bool, shape ...int) *Param {
	n := 1
	for _, d := range shape {
		n *= d
	}
	p := &Param{Name: name, Shape: shape, Data: make([]float32, n), Decay: decay}
	if learn {
		p.Grad = make([]float32, n)
	}
	return p
}

// Learnable reports whether the optimizer updates p.
func (p *Param) Learnable() bool { return p.Grad != nil }

// fill sets every value of p to v.
func (p *Param) fill(v float32) {
	for i := range p.Data {
		p.Data[i] = v
	}
}

// heNormal fills p with He-normal values for a layer of fanIn inputs.
func (p *Param) heNormal(r *rand.Rand, fanIn int) {
	std := math.Sqrt(2 / float64(fanIn))
	for i := range p.Data {
		p.Data[i] = float32(r.NormFloat64() * std)
	}
}

// shapeString formats a shape like (64, 30, 3, 3).
func shapeString(s []int) string {
	out := "("
	for i, d := range s {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprint(d)
	}
	return out + ")"
}
