package nn

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// kernelOp is a custom Gorgonia op: one fused step of the network (a
// convolution with its BatchNorm or bias, residual add and ReLU; a dense
// layer; the loss; or one of their backward passes). Its output is a
// preallocated tensor backed by the kernel's own buffer, so running it
// allocates nothing; its inputs are bound to the buffers of the nodes it
// reads when the graph is built, which Gorgonia's node edges mirror and
// which fix the order the ops run in. Do checks that the values Gorgonia
// passes are those very buffers.
type kernelOp struct {
	name   string        // unique within the graph: Gorgonia hash-conses ops by hash
	inputs []hm.Type     // the types of the nodes it reads
	expect []uintptr     // the address of each input's data, set when the op joins a graph
	out    *tensor.Dense // the preallocated output
	run    func()        // computes out (nil for ops that only expose a buffer)
}

var _ G.Op = (*kernelOp)(nil)

// newKernelOp makes an op whose output has shape and is backed by buf.
func newKernelOp(name string, buf []float32, shape []int, run func(), inputs ...*G.Node) *kernelOp {
	types := make([]hm.Type, len(inputs))
	for i, in := range inputs {
		types[i] = in.Type()
	}
	size := 1
	for _, d := range shape {
		size *= d
	}
	return &kernelOp{name: name, inputs: types, run: run,
		out: tensor.New(tensor.WithBacking(buf[:size]), tensor.WithShape(shape...))}
}

// Arity is the number of nodes the op reads.
func (o *kernelOp) Arity() int { return len(o.inputs) }

// Type is the op's function type: its inputs' types to a float32 tensor.
func (o *kernelOp) Type() hm.Type {
	ts := make([]hm.Type, 0, len(o.inputs)+1)
	ts = append(ts, o.inputs...)
	ts = append(ts, G.TensorType{Dims: o.out.Dims(), Of: tensor.Float32})
	return hm.NewFnType(ts...)
}

// InferShape returns the fixed output shape.
func (o *kernelOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return o.out.Shape().Clone(), nil
}

// Do runs the kernel and returns its preallocated output.
func (o *kernelOp) Do(vals ...G.Value) (G.Value, error) {
	if len(vals) != len(o.inputs) {
		return nil, fmt.Errorf("nn: op %s got %d inputs, want %d", o.name, len(vals), len(o.inputs))
	}
	for i, v := range vals {
		if d, ok := v.(*tensor.Dense); !ok || i >= len(o.expect) || d.Uintptr() != o.expect[i] {
			return nil, fmt.Errorf("nn: op %s input %d (%v) is not the buffer the op was built to read", o.name, i, v.Shape())
		}
	}
	o.exec()
	return o.out, nil
}

// exec runs the kernel without going through Gorgonia's Value interface.
func (o *kernelOp) exec() {
	if o.run != nil {
		o.run()
	}
}

// ReturnsPtr is true: the output is the kernel's buffer, not a copy.
func (o *kernelOp) ReturnsPtr() bool { return true }

// CallsExtern is false: the op runs on the CPU through the build's BLAS.
func (o *kernelOp) CallsExtern() bool { return false }

// OverwritesInput is -1: no input is written.
func (o *kernelOp) OverwritesInput() int { return -1 }

// WriteHash writes the op's unique name.
func (o *kernelOp) WriteHash(h hash.Hash) { fmt.Fprintf(h, "nn.kernelOp:%s", o.name) }

// Hashcode is the FNV-1a hash of the op's unique name.
func (o *kernelOp) Hashcode() uint32 {
	h := fnv.New32a()
	o.WriteHash(h)
	return h.Sum32()
}

// String is the op's name.
func (o *kernelOp) String() string { return o.name }
