package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	"bomberzero/eval"
)

// tinyConfig is the network the package's tests train and compare.
func tinyConfig() Config {
	return Config{Channels: 3, Height: 4, Width: 5, PolicyPlanes: 2,
		Blocks: 2, Filters: 6, PolicyFilters: 4, ValueFilters: 2, ValueHidden: 8}
}

// forTinyConfigs runs test on tinyConfig's network and on the same with
// global pooling in its blocks, and with the short-term value head.
func forTinyConfigs(t *testing.T, test func(t *testing.T, cfg Config)) {
	pooled := tinyConfig()
	pooled.GlobalPool = 3
	short := tinyConfig()
	short.ShortValue = true
	for _, tc := range []struct {
		name string
		cfg  Config
	}{{"plain", tinyConfig()}, {"global pool", pooled}, {"short-term value head", short}} {
		t.Run(tc.name, func(t *testing.T) { test(t, tc.cfg) })
	}
}

// randomBatch returns a batch of size random positions with random legal
// masks (at least one legal move each) and random targets.
func randomBatch(cfg Config, size int, r *rand.Rand) *TrainBatch {
	b := NewTrainBatch(cfg, size)
	s := cfg.Shape()
	for i := range b.Planes {
		if r.IntN(3) == 0 {
			b.Planes[i] = 1
		}
	}
	for pos := 0; pos < size; pos++ {
		var sum float32
		for i := 0; i < s.PolicySize; i++ {
			if r.IntN(3) == 0 || i == pos%s.PolicySize {
				b.Legal[pos*s.PolicySize+i] = 1
				v := r.Float32() + 0.01
				b.Policy[pos*s.PolicySize+i] = v
				sum += v
			}
		}
		for i := 0; i < s.PolicySize; i++ {
			b.Policy[pos*s.PolicySize+i] /= sum
		}
		b.WDL[pos*3+r.IntN(3)] = 1
		b.MovesLeft[pos] = float32(r.IntN(200))
		b.ShortValue[pos] = float32(2*r.Float64() - 1)
	}
	return b
}

// randomizeStats gives every BatchNorm random scales, shifts and running
// statistics, so that eval mode and folding are tested away from identity.
func randomizeStats(n *Net, r *rand.Rand) {
	for _, l := range n.t.convs() {
		if l.gamma == nil {
			copy(l.bias.Data, randSlice(r, l.cout, 0.5))
			continue
		}
		for c := 0; c < l.cout; c++ {
			l.gamma.Data[c] = float32(0.5 + r.Float64())
			l.beta.Data[c] = float32(r.Float64() - 0.5)
			l.mean.Data[c] = float32(r.Float64() - 0.5)
			l.vari.Data[c] = float32(0.3 + r.Float64())
		}
	}
	copy(n.t.fc1.bias.Data, randSlice(r, len(n.t.fc1.bias.Data), 0.3))
	copy(n.t.fc2.bias.Data, randSlice(r, 3, 0.3))
}

func TestWholeNetworkGradientsMatchFloat64NumericalDifferentiation(t *testing.T) {
	forTinyConfigs(t, func(t *testing.T, cfg Config) {
		net, err := New(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(2, 2))
		randomizeStats(net, r)
		// A moves-left weight that is not 1, to check it scales the head's
		// gradient, and large enough for the head's gradients to be checked.
		// The same for the short-term value head's weight (used when the
		// config has the head).
		const mlWeight, svWeight = 0.7, 0.6
		tc := DefaultTrainConfig()
		tc.MovesLeftWeight, tc.ShortValueWeight = mlWeight, svWeight
		tr, err := NewTrainer(net, tc)
		if err != nil {
			t.Fatal(err)
		}
		b := randomBatch(cfg, 4, r)
		ref := newRefNet(net) // before the training graph moves the running statistics
		// Target position 0 within the Huber threshold of its output and the
		// others far from theirs, so both branches of the loss are checked.
		_, _, out, _ := ref.forward(b, true)
		b.MovesLeft[0] = float32(out[0]*MovesLeftScale + 4)
		for pos := 1; pos < b.Size; pos++ {
			b.MovesLeft[pos] = float32(out[pos]*MovesLeftScale + 30 + float64(pos))
		}
		l, err := tr.gradients(b)
		if err != nil {
			t.Fatal(err)
		}
		rp, rv, rm, rs := ref.loss(b, true)
		if math.Abs(l.Policy-rp) > 1e-4*rp || math.Abs(l.Value-rv) > 1e-4*rv || math.Abs(l.MovesLeft-rm) > 1e-4*rm || math.Abs(l.ShortValue-rs) > 1e-4*rs {
			t.Fatalf("training-mode losses %v, %v, %v, %v; float64 reference %v, %v, %v, %v", l.Policy, l.Value, l.MovesLeft, l.ShortValue, rp, rv, rm, rs)
		}
		if cfg.ShortValue != (rs > 0) {
			t.Fatalf("short-term value loss %v with the head %v", rs, cfg.ShortValue)
		}
		if want := l.Policy + l.Value + mlWeight*l.MovesLeft + svWeight*l.ShortValue + l.L2; math.Abs(l.Total-want) > 1e-12 {
			t.Fatalf("total loss %v, want policy + value + %v moves left + %v short value + L2 = %v", l.Total, mlWeight, svWeight, want)
		}
		const eps = 1e-6
		for _, p := range net.params {
			if !p.Learnable() {
				continue
			}
			vals := ref.p[p.Name]
			for s := 0; s < 8 && s < len(vals); s++ {
				i := s
				if len(vals) > 8 {
					i = r.IntN(len(vals))
				}
				old := vals[i]
				vals[i] = old + eps
				pp, pv, pm, ps := ref.loss(b, true)
				vals[i] = old - eps
				mp, mv, mm, ms := ref.loss(b, true)
				vals[i] = old
				num := (pp + pv + mlWeight*pm + svWeight*ps - mp - mv - mlWeight*mm - svWeight*ms) / (2 * eps)
				ana := float64(p.Grad[i])
				if math.Abs(num-ana) > 1e-3*math.Max(math.Abs(num), math.Abs(ana))+2e-5 {
					t.Errorf("%s[%d]: analytic gradient %.7g, float64 numerical %.7g", p.Name, i, ana, num)
				}
			}
		}
	})
}

// evalOutputs runs the training graph in eval mode on b and returns its
// policy, WDL and moves left as an eval.Evaluator would.
func evalOutputs(t *testing.T, tr *Trainer, b *TrainBatch) (policy, wdl, movesLeft []float32) {
	t.Helper()
	g, err := tr.graph(tr.evals, modeEval, b)
	if err != nil {
		t.Fatal(err)
	}
	g.run()
	s := tr.net.cfg.Shape()
	policy = make([]float32, b.Size*s.PolicySize)
	wdl = make([]float32, b.Size*3)
	writeOutputs(g.logits, g.wdl, b.Size, g.n, cnhwLogits(g.h, g.w), g.h, g.w, tr.net.cfg.PolicyPlanes, b.Legal, policy, wdl)
	movesLeft = make([]float32, b.Size)
	writeMovesLeft(g.ml[:b.Size], movesLeft)
	return policy, wdl, movesLeft
}

// maxRelDiff returns max |a-b| / max(|b|, floor).
func maxRelDiff(a, b []float32, floor float64) float64 {
	var m float64
	for i := range a {
		d := math.Abs(float64(a[i])-float64(b[i])) / math.Max(math.Abs(float64(b[i])), floor)
		m = max(m, d)
	}
	return m
}

func TestFusedInferenceEqualsTrainingGraphInEvalMode(t *testing.T) {
	forTinyConfigs(t, func(t *testing.T, cfg Config) {
		for seed := uint64(0); seed < 3; seed++ {
			net, err := New(cfg, seed)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(seed, 11))
			randomizeStats(net, r)
			tr, err := NewTrainer(net, DefaultTrainConfig())
			if err != nil {
				t.Fatal(err)
			}
			ev, err := NewEvaluator(net.Fold(), 8)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range []int{1, 3, 8} {
				b := randomBatch(cfg, size, r)
				wantP, wantV, wantM := evalOutputs(t, tr, b)
				eb := eval.NewBatch(cfg.Shape(), size)
				eb.MovesLeft = make([]float32, size)
				copy(eb.Planes, b.Planes)
				copy(eb.Legal, b.Legal)
				if err := ev.Evaluate(eb); err != nil {
					t.Fatal(err)
				}
				if d := maxRelDiff(eb.Policy, wantP, 1e-3); d > 1e-4 {
					t.Errorf("seed %d size %d: policy max relative difference %.3g, want <= 1e-4", seed, size, d)
				}
				if d := maxRelDiff(eb.WDL, wantV, 1e-3); d > 1e-4 {
					t.Errorf("seed %d size %d: WDL max relative difference %.3g, want <= 1e-4", seed, size, d)
				}
				if d := maxRelDiff(eb.MovesLeft, wantM, 1); d > 1e-4 {
					t.Errorf("seed %d size %d: moves left max relative difference %.3g, want <= 1e-4", seed, size, d)
				}
			}
		}
	})
}

func TestFusedInferenceEqualsFloat64ReferenceInEvalMode(t *testing.T) {
	forTinyConfigs(t, func(t *testing.T, cfg Config) {
		net, err := New(cfg, 9)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(9, 9))
		randomizeStats(net, r)
		ev, err := NewEvaluator(net.Fold(), 5)
		if err != nil {
			t.Fatal(err)
		}
		b := randomBatch(cfg, 5, r)
		eb := eval.NewBatch(cfg.Shape(), 5)
		eb.MovesLeft = make([]float32, 5)
		copy(eb.Planes, b.Planes)
		copy(eb.Legal, b.Legal)
		if err := ev.Evaluate(eb); err != nil {
			t.Fatal(err)
		}
		logits, wdl, ml, _ := newRefNet(net).forward(b, false)
		for pos := range ml {
			want := math.Max(ml[pos], 0) * MovesLeftScale
			if got := float64(eb.MovesLeft[pos]); math.Abs(got-want) > 1e-4*math.Max(want, 1) {
				t.Errorf("position %d: moves left %v, float64 reference %v", pos, got, want)
			}
		}
		size := cfg.Shape().PolicySize
		for pos := 0; pos < b.Size; pos++ {
			lse := math.Inf(-1)
			for i := 0; i < size; i++ {
				if b.Legal[pos*size+i] != 0 {
					lse = logAddExp(lse, logits[pos][i])
				}
			}
			for i := 0; i < size; i++ {
				want := 0.0
				if b.Legal[pos*size+i] != 0 {
					want = math.Exp(logits[pos][i] - lse)
				}
				if got := float64(eb.Policy[pos*size+i]); math.Abs(got-want) > 1e-4*math.Max(want, 1e-3) {
					t.Errorf("position %d move %d: policy %v, float64 reference %v", pos, i, got, want)
				}
			}
			l := logAddExp(logAddExp(wdl[pos][0], wdl[pos][1]), wdl[pos][2])
			for j := 0; j < 3; j++ {
				want := math.Exp(wdl[pos][j] - l)
				if got := float64(eb.WDL[pos*3+j]); math.Abs(got-want) > 1e-4*math.Max(want, 1e-3) {
					t.Errorf("position %d WDL %d: %v, float64 reference %v", pos, j, got, want)
				}
			}
		}
	})
}

func TestParamCountMatchesAllocatedParams(t *testing.T) {
	pooled := DefaultConfig(30, 10, 10, 80)
	pooled.GlobalPool = 16
	for _, cfg := range []Config{tinyConfig(), DefaultConfig(30, 10, 10, 80), TestConfig(5, 8, 8, 12), pooled} {
		net, err := New(cfg, 0)
		if err != nil {
			t.Fatal(err)
		}
		var n float64
		for _, p := range net.params {
			n += float64(len(p.Data))
		}
		if n != cfg.paramCount() {
			t.Errorf("%+v: %.0f values allocated, paramCount %.0f", cfg, n, cfg.paramCount())
		}
	}
}
