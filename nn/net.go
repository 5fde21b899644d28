package nn

import (
	"fmt"
	"math/rand/v2"
)

// tower is the layers of one network, in forward order.
type tower struct {
	stem     *convLayer
	blocks   [][2]*convLayer // conv1 (with ReLU), conv2 (residual add, then ReLU)
	pools    []*poolLayer    // each block's global pooling between its convolutions; nil without (Config.GlobalPool 0)
	polConv  *convLayer      // 1x1, BatchNorm, ReLU
	polOut   *convLayer      // 1x1 to the policy planes, bias, no ReLU: the logits
	valConv  *convLayer      // 1x1, BatchNorm, ReLU
	fc1, fc2 *denseLayer     // value hidden (ReLU) and WDL logits
	// The moves-left head, shaped like the value head: 1x1 conv
	// (BatchNorm, ReLU), hidden (ReLU), one output (plies left /
	// MovesLeftScale).
	mlConv       *convLayer
	mlFc1, mlFc2 *denseLayer
	// svFc is the short-term value head (Config.ShortValue; else nil): one
	// output from the value head's hidden layer, read through tanh.
	svFc *denseLayer
}

// convs returns every convolution in forward order.
func (t *tower) convs() []*convLayer {
	out := []*convLayer{t.stem}
	for _, b := range t.blocks {
		out = append(out, b[0], b[1])
	}
	return append(out, t.polConv, t.polOut, t.valConv, t.mlConv)
}

// Net is a policy/value network: its Config and its parameters. Graphs for
// training and evaluators for inference are built from it; an Evaluator
// works on a folded snapshot, so training may continue while it runs.
type Net struct {
	cfg    Config
	t      tower
	params []*Param // every tensor, in checkpoint order
}

// New returns a network of shape cfg with He-initialised weights, unit
// BatchNorm scales, zero shifts and biases and unit running variances,
// drawn from a generator seeded with seed.
func New(cfg Config, seed uint64) (*Net, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := &Net{cfg: cfg}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	conv := func(name string, cin, cout, k int, relu, bn bool) *convLayer {
		l := &convLayer{cin: cin, cout: cout, k: k, relu: relu}
		l.weight = newParam(name+".weight", true, true, cout, cin, k, k)
		l.weight.heNormal(r, cin*k*k)
		n.params = append(n.params, l.weight)
		if bn {
			l.gamma = newParam(name+".bn.weight", true, false, cout)
			l.gamma.fill(1)
			l.beta = newParam(name+".bn.bias", true, false, cout)
			l.mean = newParam(name+".bn.running_mean", false, false, cout)
			l.vari = newParam(name+".bn.running_var", false, false, cout)
			l.vari.fill(1)
			n.params = append(n.params, l.gamma, l.beta, l.mean, l.vari)
		} else {
			l.bias = newParam(name+".bias", true, false, cout)
			n.params = append(n.params, l.bias)
		}
		return l
	}
	dense := func(name string, in, out int, relu bool) *denseLayer {
		l := &denseLayer{in: in, out: out, relu: relu}
		l.weight = newParam(name+".weight", true, true, out, in)
		l.weight.heNormal(r, in)
		l.bias = newParam(name+".bias", true, false, out)
		n.params = append(n.params, l.weight, l.bias)
		return l
	}
	f := cfg.Filters
	n.t.stem = conv("stem", cfg.Channels, f, 3, true, true)
	for b := 0; b < cfg.Blocks; b++ {
		c1 := conv(fmt.Sprintf("block%d.conv1", b), f, f, 3, true, true)
		c2 := conv(fmt.Sprintf("block%d.conv2", b), f, f, 3, true, true)
		n.t.blocks = append(n.t.blocks, [2]*convLayer{c1, c2})
		if g := cfg.GlobalPool; g > 0 {
			p := &poolLayer{g: g, c: f}
			p.weight = newParam(fmt.Sprintf("block%d.pool.weight", b), true, true, f, 2*g)
			p.weight.heNormal(r, 2*g)
			p.bias = newParam(fmt.Sprintf("block%d.pool.bias", b), true, false, f)
			n.params = append(n.params, p.weight, p.bias)
			n.t.pools = append(n.t.pools, p)
		}
	}
	n.t.polConv = conv("policy.conv", f, cfg.PolicyFilters, 1, true, true)
	n.t.polOut = conv("policy.logits", cfg.PolicyFilters, cfg.PolicyPlanes, 1, false, false)
	n.t.valConv = conv("value.conv", f, cfg.ValueFilters, 1, true, true)
	hw := cfg.Height * cfg.Width
	n.t.fc1 = dense("value.fc1", cfg.ValueFilters*hw, cfg.ValueHidden, true)
	n.t.fc2 = dense("value.fc2", cfg.ValueHidden, 3, false)
	n.t.mlConv = conv("moves_left.conv", f, cfg.ValueFilters, 1, true, true)
	n.t.mlFc1 = dense("moves_left.fc1", cfg.ValueFilters*hw, cfg.ValueHidden, true)
	n.t.mlFc2 = dense("moves_left.fc2", cfg.ValueHidden, 1, false)
	if cfg.ShortValue {
		n.t.svFc = dense("value.short", cfg.ValueHidden, 1, false)
	}
	return n, nil
}

// Config returns the network's shape.
func (n *Net) Config() Config { return n.cfg }

// Params returns every tensor of the network (weights, BatchNorm scales and
// shifts, running statistics) in checkpoint order. The slice is the
// network's own: callers may read and write the values, not the slice.
func (n *Net) Params() []*Param { return n.params }

// Param returns the tensor called name, or nil.
func (n *Net) Param(name string) *Param {
	for _, p := range n.params {
		if p.Name == name {
			return p
		}
	}
	return nil
}
