package nn

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// fixedTask returns size random positions, each with one legal move made
// the policy target and a one-hot WDL target: a task a small network can
// memorise.
func fixedTask(cfg Config, size int, seed uint64) *TrainBatch {
	r := rand.New(rand.NewPCG(seed, 1))
	b := randomBatch(cfg, size, r)
	s := cfg.Shape().PolicySize
	for pos := 0; pos < size; pos++ {
		clear(b.Policy[pos*s : (pos+1)*s])
		for {
			i := r.IntN(s)
			if b.Legal[pos*s+i] != 0 {
				b.Policy[pos*s+i] = 1
				break
			}
		}
	}
	return b
}

func TestTinyNetworkLearnsFixedTargetsToNearZeroLoss(t *testing.T) {
	for _, opt := range []string{"adam", "sgd"} {
		t.Run(opt, func(t *testing.T) {
			cfg := tinyConfig()
			net, err := New(cfg, 3)
			if err != nil {
				t.Fatal(err)
			}
			tc := DefaultTrainConfig()
			tc.Optimizer, tc.L2 = opt, 0
			tc.Schedule = Schedule{Base: 0.01, Decay: "cosine", Total: 400, Floor: 0.001}
			if opt == "sgd" {
				tc.Schedule.Base = 0.05
			}
			tr, err := NewTrainer(net, tc)
			if err != nil {
				t.Fatal(err)
			}
			b := fixedTask(cfg, 16, 4)
			var first, last Losses
			for step := 0; step < 400; step++ {
				l, err := tr.TrainStep(b)
				if err != nil {
					t.Fatal(err)
				}
				if step == 0 {
					first = l
				}
				last = l
			}
			if last.MovesLeft > first.MovesLeft/2 {
				t.Errorf("moves-left loss %.4f after 400 steps, started at %.4f; want it halved", last.MovesLeft, first.MovesLeft)
			}
			if last.Policy+last.Value > 0.05 {
				t.Errorf("after 400 steps loss %.4f (policy %.4f, value %.4f), started at %.4f; want < 0.05",
					last.Policy+last.Value, last.Policy, last.Value, first.Policy+first.Value)
			}
			// The running statistics have followed the batch's, so eval mode
			// (what the evaluator computes) has learned the task too.
			ev, err := tr.EvalLoss(b)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Policy+ev.Value > 0.1 {
				t.Errorf("eval-mode loss %.4f after training, want < 0.1", ev.Policy+ev.Value)
			}
		})
	}
}

func TestResumedTrainingRepeatsTheUninterruptedLossCurve(t *testing.T) {
	for _, opt := range []string{"adam", "sgd"} {
		t.Run(opt, func(t *testing.T) {
			cfg := tinyConfig()
			tc := DefaultTrainConfig()
			tc.Optimizer = opt
			tc.Schedule = Schedule{Base: 0.01, Warmup: 3, Decay: "step", Every: 5, Gamma: 0.5}
			batches := []*TrainBatch{fixedTask(cfg, 8, 1), fixedTask(cfg, 8, 2), fixedTask(cfg, 8, 3)}
			net, err := New(cfg, 5)
			if err != nil {
				t.Fatal(err)
			}
			a, err := NewTrainer(net, tc)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "ckpt.safetensors")
			var want []Losses
			for step := 0; step < 20; step++ {
				if step == 10 {
					if err := a.Save(path, "test-variant"); err != nil {
						t.Fatal(err)
					}
				}
				l, err := a.TrainStep(batches[step%3])
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, l)
			}
			b, err := LoadTrainer(path, cfg, "test-variant")
			if err != nil {
				t.Fatal(err)
			}
			if b.Steps() != 10 {
				t.Fatalf("loaded trainer at step %d, want 10", b.Steps())
			}
			for step := 10; step < 20; step++ {
				l, err := b.TrainStep(batches[step%3])
				if err != nil {
					t.Fatal(err)
				}
				if l != want[step] {
					t.Errorf("step %d: resumed losses %+v, uninterrupted %+v", step, l, want[step])
				}
			}
		})
	}
}

func TestScheduleRates(t *testing.T) {
	cases := []struct {
		s    Schedule
		step int64
		want float64
	}{
		{Schedule{Base: 0.1}, 1000, 0.1},
		{Schedule{Base: 0.1, Warmup: 10}, 0, 0.01},
		{Schedule{Base: 0.1, Warmup: 10}, 9, 0.1},
		{Schedule{Base: 0.1, Decay: "step", Every: 100, Gamma: 0.1}, 99, 0.1},
		{Schedule{Base: 0.1, Decay: "step", Every: 100, Gamma: 0.1}, 200, 0.001},
		{Schedule{Base: 0.1, Decay: "cosine", Total: 100, Floor: 0.01}, 50, 0.055},
		{Schedule{Base: 0.1, Decay: "cosine", Total: 100, Floor: 0.01}, 100, 0.01},
	}
	for _, c := range cases {
		if got := c.s.Rate(c.step); got < c.want*(1-1e-9)-1e-12 || got > c.want*(1+1e-9)+1e-12 {
			t.Errorf("%+v at step %d: rate %v, want %v", c.s, c.step, got, c.want)
		}
	}
}

func TestTrainConfigRejectsUnusableSettings(t *testing.T) {
	bad := []func(*TrainConfig){
		func(c *TrainConfig) { c.Optimizer = "rmsprop" },
		func(c *TrainConfig) { c.Momentum = 1 },
		func(c *TrainConfig) { c.L2 = -1 },
		func(c *TrainConfig) { c.Schedule.Base = 0 },
		func(c *TrainConfig) { c.Schedule.Decay = "step" },
		func(c *TrainConfig) { c.Schedule.Decay = "exp" },
		func(c *TrainConfig) { c.Optimizer, c.Epsilon = "adam", 0 },
		func(c *TrainConfig) { c.MovesLeftWeight = -0.1 },
		func(c *TrainConfig) { c.MovesLeftWeight = math.NaN() },
		func(c *TrainConfig) { c.MovesLeftWeight = math.Inf(1) },
		func(c *TrainConfig) { c.ShortValueWeight = -0.5 },
		func(c *TrainConfig) { c.ShortValueWeight = math.NaN() },
		func(c *TrainConfig) { c.ShortValueWeight = math.Inf(1) },
	}
	for i, f := range bad {
		c := DefaultTrainConfig()
		f(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("case %d: %+v validated", i, c)
		}
	}
	if err := DefaultTrainConfig().Validate(); err != nil {
		t.Errorf("default train config: %v", err)
	}
}

func TestTrainerKeepsAtMostTwoGraphsAcrossBatchSizes(t *testing.T) {
	cfg := tinyConfig()
	net, err := New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(net, DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{2, 3, 4, 5, 2} {
		if _, err := tr.TrainStep(fixedTask(cfg, size, uint64(size))); err != nil {
			t.Fatal(err)
		}
		if len(tr.graphs) > 2 {
			t.Fatalf("after batch size %d the trainer holds %d graphs, want <= 2", size, len(tr.graphs))
		}
		if tr.graphs[size] == nil {
			t.Fatalf("the graph of the batch size %d just used was evicted", size)
		}
	}
	if tr.Steps() != 5 {
		t.Errorf("steps %d, want 5", tr.Steps())
	}
}

func TestSetConfigChangesHyperparametersButNotTheOptimizer(t *testing.T) {
	net, err := New(tinyConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(net, DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultTrainConfig()
	c.L2, c.Schedule = 0, Schedule{Base: 0.5}
	if err := tr.SetConfig(c); err != nil {
		t.Fatal(err)
	}
	b := fixedTask(tinyConfig(), 4, 1)
	if l, err := tr.TrainStep(b); err != nil || l.L2 != 0 {
		t.Errorf("after SetConfig with L2 0: losses %+v, error %v; want L2 0", l, err)
	}
	if got := tr.Config().Schedule.Rate(0); got != 0.5 {
		t.Errorf("rate %v after SetConfig, want 0.5", got)
	}
	c.Optimizer = "adam"
	if err := tr.SetConfig(c); err == nil {
		t.Error("SetConfig switched SGD to Adam")
	}
	c.Optimizer, c.Momentum = "sgd", 2
	if err := tr.SetConfig(c); err == nil {
		t.Error("SetConfig accepted momentum 2")
	}
}
