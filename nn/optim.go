package nn

import (
	"fmt"
	"math"
)

// Schedule is a learning-rate schedule: a linear warm-up from 0 over Warmup
// steps, then Base changed by Decay.
type Schedule struct {
	Base   float64 // learning rate after warm-up
	Warmup int64   // steps of linear warm-up (0: none)
	Decay  string  // "constant" (or ""), "step" or "cosine"
	Every  int64   // step decay: multiply by Gamma every Every steps after warm-up
	Gamma  float64 // step decay factor
	Total  int64   // cosine decay: steps after warm-up to go from Base to Floor
	Floor  float64 // cosine decay: final learning rate
}

// Validate reports a schedule that cannot produce a rate.
func (s Schedule) Validate() error {
	switch {
	case s.Base <= 0 || math.IsNaN(s.Base) || math.IsInf(s.Base, 0):
		return fmt.Errorf("nn: schedule Base = %v, want a positive learning rate", s.Base)
	case s.Warmup < 0:
		return fmt.Errorf("nn: schedule Warmup = %d, want >= 0", s.Warmup)
	}
	switch s.Decay {
	case "", "constant":
	case "step":
		if s.Every <= 0 || s.Gamma <= 0 {
			return fmt.Errorf("nn: step schedule needs Every > 0 and Gamma > 0, got %d and %v", s.Every, s.Gamma)
		}
	case "cosine":
		if s.Total <= 0 || s.Floor < 0 {
			return fmt.Errorf("nn: cosine schedule needs Total > 0 and Floor >= 0, got %d and %v", s.Total, s.Floor)
		}
	default:
		return fmt.Errorf("nn: schedule Decay = %q, want constant, step or cosine", s.Decay)
	}
	return nil
}

// Rate returns the learning rate of step (0-based).
func (s Schedule) Rate(step int64) float64 {
	if step < s.Warmup {
		return s.Base * float64(step+1) / float64(s.Warmup)
	}
	t := step - s.Warmup
	switch s.Decay {
	case "step":
		return s.Base * math.Pow(s.Gamma, float64(t/s.Every))
	case "cosine":
		if t >= s.Total {
			return s.Floor
		}
		return s.Floor + (s.Base-s.Floor)*0.5*(1+math.Cos(math.Pi*float64(t)/float64(s.Total)))
	}
	return s.Base
}

// TrainConfig chooses the optimizer and its hyperparameters.
type TrainConfig struct {
	Optimizer string   // "sgd" (with momentum) or "adam"
	Momentum  float64  // SGD momentum
	Beta1     float64  // Adam first-moment decay
	Beta2     float64  // Adam second-moment decay
	Epsilon   float64  // Adam denominator guard
	L2        float64  // L2 coefficient c: the loss adds c * sum of squared weights
	Schedule  Schedule // learning rate per step
	// MovesLeftWeight scales the moves-left head's loss in the total loss
	// (0: the head is not trained).
	MovesLeftWeight float64
	// ShortValueWeight scales the short-term value head's loss (a network
	// with Config.ShortValue; 0: the head is not trained).
	ShortValueWeight float64
}

// DefaultMovesLeftWeight is the default weight of the moves-left loss: small
// beside the policy and value losses (the head is an auxiliary signal), see
// docs/network.md.
const DefaultMovesLeftWeight = 0.1

// DefaultTrainConfig returns SGD with momentum 0.9, L2 1e-4, a constant
// learning rate of 0.02 and the moves-left loss at DefaultMovesLeftWeight
// (Adam's betas and epsilon are preset for switching Optimizer to "adam").
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{Optimizer: "sgd", Momentum: 0.9, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8,
		L2: 1e-4, Schedule: Schedule{Base: 0.02}, MovesLeftWeight: DefaultMovesLeftWeight}
}

// Validate reports the first unusable setting.
func (c TrainConfig) Validate() error {
	switch c.Optimizer {
	case "sgd":
		if c.Momentum < 0 || c.Momentum >= 1 {
			return fmt.Errorf("nn: SGD Momentum = %v, want in [0, 1)", c.Momentum)
		}
	case "adam":
		if c.Beta1 < 0 || c.Beta1 >= 1 || c.Beta2 < 0 || c.Beta2 >= 1 || c.Epsilon <= 0 {
			return fmt.Errorf("nn: Adam Beta1 = %v, Beta2 = %v, Epsilon = %v: want betas in [0, 1) and Epsilon > 0",
				c.Beta1, c.Beta2, c.Epsilon)
		}
	default:
		return fmt.Errorf("nn: Optimizer = %q, want sgd or adam", c.Optimizer)
	}
	if c.L2 < 0 {
		return fmt.Errorf("nn: L2 = %v, want >= 0", c.L2)
	}
	if !(c.MovesLeftWeight >= 0) || math.IsInf(c.MovesLeftWeight, 0) {
		return fmt.Errorf("nn: MovesLeftWeight = %v, want a finite weight >= 0", c.MovesLeftWeight)
	}
	if !(c.ShortValueWeight >= 0) || math.IsInf(c.ShortValueWeight, 0) {
		return fmt.Errorf("nn: ShortValueWeight = %v, want a finite weight >= 0", c.ShortValueWeight)
	}
	return c.Schedule.Validate()
}

// optimizer holds the per-parameter state of SGD (velocity) or Adam (first
// and second moments) for the learnable parameters, in Params order.
type optimizer struct {
	cfg   TrainConfig
	state [][2][]float32 // [velocity or m, v (Adam only)]
}

func newOptimizer(cfg TrainConfig, params []*Param) *optimizer {
	o := &optimizer{cfg: cfg}
	for _, p := range params {
		var s [2][]float32
		if p.Learnable() {
			s[0] = make([]float32, len(p.Data))
			if cfg.Optimizer == "adam" {
				s[1] = make([]float32, len(p.Data))
			}
		}
		o.state = append(o.state, s)
	}
	return o
}

// l2 returns the L2 term of the loss for params.
func (o *optimizer) l2(params []*Param) float64 {
	var s float64
	for _, p := range params {
		if p.Decay {
			for _, v := range p.Data {
				s += float64(v) * float64(v)
			}
		}
	}
	return o.cfg.L2 * s
}

// update applies one step (0-based) to every learnable parameter, adding
// the L2 term's gradient first.
func (o *optimizer) update(params []*Param, step int64) {
	lr := float32(o.cfg.Schedule.Rate(step))
	c := float32(2 * o.cfg.L2)
	b1, b2 := float32(o.cfg.Beta1), float32(o.cfg.Beta2)
	eps := float32(o.cfg.Epsilon)
	t := float64(step + 1)
	bc1 := float32(1 - math.Pow(o.cfg.Beta1, t))
	bc2 := float32(1 - math.Pow(o.cfg.Beta2, t))
	mu := float32(o.cfg.Momentum)
	for i, p := range params {
		if !p.Learnable() {
			continue
		}
		m, v := o.state[i][0], o.state[i][1]
		for j, g := range p.Grad {
			if p.Decay {
				g += c * p.Data[j]
			}
			if o.cfg.Optimizer == "adam" {
				m[j] = b1*m[j] + (1-b1)*g
				v[j] = b2*v[j] + (1-b2)*g*g
				p.Data[j] -= lr * (m[j] / bc1) / (float32(math.Sqrt(float64(v[j]/bc2))) + eps)
			} else {
				m[j] = mu*m[j] + g
				p.Data[j] -= lr * m[j]
			}
		}
	}
}
