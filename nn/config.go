// Package nn is bomberzero's policy/value network: an AlphaZero-style
// residual tower built as a Gorgonia graph of fused custom ops, a training
// step (SGD with momentum or Adam), a fast batched evaluator implementing
// eval.Evaluator, and safetensors checkpoints.
//
// The package knows nothing about the rules: a Config gives the input planes
// (channels x height x width) and the number of policy planes, and the
// policy index of (plane, rank, file) is plane*H*W + rank*W + file, as
// package eval lays it out.
package nn

import (
	"fmt"

	"bomberzero/eval"
)

// Config is the shape of a network: what it reads, what it writes, and how
// big its tower and heads are. Two networks with equal Configs have the same
// parameters and can load each other's checkpoints.
type Config struct {
	Channels     int // input planes per position
	Height       int // board ranks
	Width        int // board files
	PolicyPlanes int // policy planes; the policy has PolicyPlanes*Height*Width entries

	Blocks        int // residual blocks in the tower
	Filters       int // channels of every tower convolution
	PolicyFilters int // channels of the policy head's 1x1 convolution before the logits
	ValueFilters  int // channels of the value head's 1x1 convolution (and the moves-left head's)
	ValueHidden   int // width of the value head's hidden dense layer (and the moves-left head's)
	// GlobalPool, above 0, gives every residual block KataGo's global
	// pooling: the mean and the maximum over the board of the first
	// GlobalPool channels of the block's first convolution feed a dense
	// layer whose output is added to every channel of it, everywhere on
	// the board, before the second convolution (pool.go). 0: none (every
	// network made before the field).
	GlobalPool int
	// ShortValue adds KataGo's short-term value head, an auxiliary target
	// read from the value head's hidden layer (value.short: one output,
	// tanh) and trained toward TrainBatch.ShortValue; inference does not
	// run it. false: none (every network made before the field).
	ShortValue bool
}

// DefaultConfig returns the training-size network (6 blocks x 64 filters) for
// positions of channels x height x width planes and policyPlanes move planes.
func DefaultConfig(channels, height, width, policyPlanes int) Config {
	return Config{
		Channels: channels, Height: height, Width: width, PolicyPlanes: policyPlanes,
		Blocks: 6, Filters: 64, PolicyFilters: 32, ValueFilters: 4, ValueHidden: 64,
	}
}

// TestConfig returns a small network (2 blocks x 16 filters) for tests and
// quick experiments.
func TestConfig(channels, height, width, policyPlanes int) Config {
	return Config{
		Channels: channels, Height: height, Width: width, PolicyPlanes: policyPlanes,
		Blocks: 2, Filters: 16, PolicyFilters: 8, ValueFilters: 2, ValueHidden: 16,
	}
}

// Validate reports the first dimension that is not positive (Blocks may be 0).
func (c Config) Validate() error {
	fields := []struct {
		name string
		v    int
	}{
		{"Channels", c.Channels}, {"Height", c.Height}, {"Width", c.Width},
		{"PolicyPlanes", c.PolicyPlanes}, {"Filters", c.Filters},
		{"PolicyFilters", c.PolicyFilters}, {"ValueFilters", c.ValueFilters},
		{"ValueHidden", c.ValueHidden},
	}
	for _, f := range fields {
		if f.v <= 0 {
			return fmt.Errorf("nn: config %s = %d, want > 0", f.name, f.v)
		}
	}
	if c.Blocks < 0 {
		return fmt.Errorf("nn: config Blocks = %d, want >= 0", c.Blocks)
	}
	if c.GlobalPool < 0 || c.GlobalPool > c.Filters {
		return fmt.Errorf("nn: config GlobalPool = %d, want 0 to Filters (%d)", c.GlobalPool, c.Filters)
	}
	return nil
}

// paramCount returns the number of float32 values in a network's Params,
// in float64 so that absurd configs (a corrupt checkpoint's) cannot
// overflow it.
func (c Config) paramCount() float64 {
	f, hw := float64(c.Filters), float64(c.Height)*float64(c.Width)
	pf, vf, vh := float64(c.PolicyFilters), float64(c.ValueFilters), float64(c.ValueHidden)
	n := float64(c.Channels)*f*9 + 4*f
	n += float64(c.Blocks) * 2 * (f*f*9 + 4*f)
	if g := float64(c.GlobalPool); g > 0 {
		n += float64(c.Blocks) * (f*2*g + f)
	}
	n += f*pf + 4*pf + pf*float64(c.PolicyPlanes) + float64(c.PolicyPlanes)
	n += f*vf + 4*vf + vf*hw*vh + vh + vh*3 + 3
	n += f*vf + 4*vf + vf*hw*vh + vh + vh + 1 // moves left
	if c.ShortValue {
		n += vh + 1
	}
	return n
}

// Shape returns the evaluator shape of networks with this config.
func (c Config) Shape() eval.Shape {
	return eval.Shape{
		Channels: c.Channels, Height: c.Height, Width: c.Width,
		PolicySize: c.PolicyPlanes * c.Height * c.Width,
	}
}

// FlopsPerPosition returns the multiply-add FLOPs (2 per multiply-add) of
// one position's forward pass, counting convolutions and dense layers.
func (c Config) FlopsPerPosition() float64 {
	hw := float64(c.Height * c.Width)
	conv := func(cin, cout, k int) float64 { return 2 * float64(cin*cout*k*k) * hw }
	f := conv(c.Channels, c.Filters, 3)
	f += float64(2*c.Blocks) * conv(c.Filters, c.Filters, 3)
	f += float64(c.Blocks) * 2 * float64(2*c.GlobalPool*c.Filters) // the pooled features' dense layers
	f += conv(c.Filters, c.PolicyFilters, 1) + conv(c.PolicyFilters, c.PolicyPlanes, 1)
	f += conv(c.Filters, c.ValueFilters, 1)
	f += 2*float64(c.ValueFilters)*hw*float64(c.ValueHidden) + 2*float64(c.ValueHidden*3)
	f += conv(c.Filters, c.ValueFilters, 1) // the moves-left head, shaped like the value head
	f += 2*float64(c.ValueFilters)*hw*float64(c.ValueHidden) + 2*float64(c.ValueHidden)
	return f
}
