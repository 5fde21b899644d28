package nn

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"bomberzero/eval"
)

func TestGorgoniaTapeMachineRunsTheGraphsToTheSameResult(t *testing.T) {
	cfg := tinyConfig()
	net, err := New(cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 4))
	randomizeStats(net, r)
	b := randomBatch(cfg, 3, r)

	// Inference graph.
	ng, err := newInferGraph(cfg, net.Fold().iw, 3)
	if err != nil {
		t.Fatal(err)
	}
	ng.setPlanes(b.Planes, 3, cfg.Channels)
	ng.run()
	wantLogits := append([]float32(nil), ng.policy...)
	wantWDL := append([]float32(nil), ng.wdl...)
	clear(ng.policy)
	clear(ng.wdl)
	m := G.NewTapeMachine(ng.g)
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	m.Close()
	for i := range wantLogits {
		if ng.policy[i] != wantLogits[i] {
			t.Fatalf("TapeMachine logit %d = %v, direct run %v", i, ng.policy[i], wantLogits[i])
		}
	}
	for i := range wantWDL {
		if ng.wdl[i] != wantWDL[i] {
			t.Fatalf("TapeMachine WDL logit %d = %v, direct run %v", i, ng.wdl[i], wantWDL[i])
		}
	}

	// An op handed a value other than the buffer it reads refuses to run.
	op := ng.order[0]
	foreign := make([]G.Value, op.Arity())
	for i := range foreign {
		foreign[i] = tensor.New(tensor.WithShape(1), tensor.WithBacking([]float32{0}))
	}
	if _, err := op.Do(foreign...); err == nil || !strings.Contains(err.Error(), "not the buffer") {
		t.Errorf("op %s ran on foreign inputs: error %v", op, err)
	}

	// Training graph: the same gradients.
	tr, err := NewTrainer(net, DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.gradients(b); err != nil {
		t.Fatal(err)
	}
	want := map[string][]float32{}
	for _, p := range net.params {
		if p.Learnable() {
			want[p.Name] = append([]float32(nil), p.Grad...)
			clear(p.Grad)
		}
	}
	m = G.NewTapeMachine(tr.graphs[3].g)
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	m.Close()
	for _, p := range net.params {
		if !p.Learnable() {
			continue
		}
		for i := range p.Grad {
			if p.Grad[i] != want[p.Name][i] {
				t.Fatalf("TapeMachine gradient %s[%d] = %v, direct run %v", p.Name, i, p.Grad[i], want[p.Name][i])
			}
		}
	}
}

func TestEvaluatorAllocatesNothingInSteadyState(t *testing.T) {
	forTinyConfigs(t, func(t *testing.T, cfg Config) {
		net, err := New(cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := NewEvaluator(net.Fold(), 16)
		if err != nil {
			t.Fatal(err)
		}
		if err := ev.Warm(); err != nil {
			t.Fatal(err)
		}
		b := eval.NewBatch(cfg.Shape(), 16)
		b.MovesLeft = make([]float32, 16) // the moves-left output too
		for i := range b.Legal {
			b.Legal[i] = 1
		}
		for _, size := range []int{1, 5, 16} {
			b.Size = size
			if allocs := testing.AllocsPerRun(20, func() {
				if err := ev.Evaluate(b); err != nil {
					t.Fatal(err)
				}
			}); allocs != 0 {
				t.Errorf("batch %d: %v allocations per Evaluate, want 0", size, allocs)
			}
		}
	})
}

// heapAfterGC returns the live heap in bytes.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func TestHeapStaysFlatOverThousandsOfInferenceBatchesAndHundredsOfTrainingSteps(t *testing.T) {
	cfg := tinyConfig()
	net, err := New(cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(net, DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	ev, err := NewEvaluator(net.Fold(), 8)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Warm(); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 3))
	tb := randomBatch(cfg, 8, r)
	eb := eval.NewBatch(cfg.Shape(), 8)
	copy(eb.Planes, tb.Planes)
	copy(eb.Legal, tb.Legal)
	work := func(infer, train int) {
		for i := 0; i < infer; i++ {
			eb.Size = 1 + i%8
			if err := ev.Evaluate(eb); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < train; i++ {
			if _, err := tr.TrainStep(tb); err != nil {
				t.Fatal(err)
			}
		}
	}
	work(100, 10) // build every graph
	before := heapAfterGC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs := ms.Mallocs
	work(3000, 0)
	runtime.ReadMemStats(&ms)
	// Evaluate itself allocates nothing (TestEvaluatorAllocatesNothingInSteadyState);
	// the runtime may make the odd allocation of its own meanwhile.
	if n := ms.Mallocs - mallocs; n > 30 {
		t.Errorf("%d allocations over 3000 inference batches, want about 0", n)
	}
	total := ms.TotalAlloc
	work(0, 300)
	runtime.ReadMemStats(&ms)
	// Training steps allocate only goroutine bookkeeping, never buffers.
	if per := float64(ms.TotalAlloc-total) / 300; per > 64<<10 {
		t.Errorf("%.0f bytes allocated per training step, want <= 64 KiB", per)
	}
	if after := heapAfterGC(); after > before+64<<10 {
		t.Errorf("live heap grew from %d to %d bytes over 3000 inference batches and 300 training steps", before, after)
	}
}

func TestEvaluatorsSharingOneSnapshotAgreeAcrossGoroutines(t *testing.T) {
	cfg := tinyConfig()
	cfg.Blocks = 0 // a tower of the stem alone is a valid network too
	net, err := New(cfg, 6)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(6, 6))
	randomizeStats(net, r)
	f := net.Fold()
	tb := randomBatch(cfg, 8, r)
	want := eval.NewBatch(cfg.Shape(), 8)
	copy(want.Planes, tb.Planes)
	copy(want.Legal, tb.Legal)
	ev, err := NewEvaluator(f, 8)
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Evaluate(want); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		go func() {
			ev, err := NewEvaluator(f, 8)
			if err != nil {
				errs <- err
				return
			}
			b := eval.NewBatch(cfg.Shape(), 8)
			copy(b.Planes, tb.Planes)
			copy(b.Legal, tb.Legal)
			for i := 0; i < 50; i++ {
				if err := ev.Evaluate(b); err != nil {
					errs <- err
					return
				}
				for j := range b.Policy {
					if b.Policy[j] != want.Policy[j] {
						errs <- fmt.Errorf("policy %d = %v, want %v", j, b.Policy[j], want.Policy[j])
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for w := 0; w < 4; w++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestBadBatchesAreRejectedWithErrorsNamingTheField(t *testing.T) {
	cfg := tinyConfig()
	net, err := New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := NewEvaluator(net.Fold(), 4)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewTrainer(net, DefaultTrainConfig())
	if err != nil {
		t.Fatal(err)
	}
	evalCases := []struct {
		name string
		edit func(*eval.Batch)
		says string
	}{
		{"empty", func(b *eval.Batch) { b.Size = 0 }, "batch size 0"},
		{"over the maximum", func(b *eval.Batch) { b.Size = 5 }, "planes"},
		{"short planes", func(b *eval.Batch) { b.Planes = b.Planes[:10] }, "planes"},
		{"short legal mask", func(b *eval.Batch) { b.Legal = b.Legal[:10] }, "legal"},
		{"short policy", func(b *eval.Batch) { b.Policy = nil }, "policy"},
		{"short WDL", func(b *eval.Batch) { b.WDL = b.WDL[:3] }, "WDL"},
	}
	for _, c := range evalCases {
		b := eval.NewBatch(cfg.Shape(), 4)
		c.edit(b)
		if err := ev.Evaluate(b); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Evaluate with %s: error %v, want one saying %q", c.name, err, c.says)
		}
	}
	big := eval.NewBatch(cfg.Shape(), 5)
	if err := ev.Evaluate(big); err == nil || !strings.Contains(err.Error(), "exceeds the evaluator's maximum 4") {
		t.Errorf("Evaluate of 5 positions: error %v, want the maximum named", err)
	}
	trainCases := []struct {
		name string
		edit func(*TrainBatch)
		says string
	}{
		{"empty", func(b *TrainBatch) { b.Size = 0 }, "Size = 0"},
		{"short planes", func(b *TrainBatch) { b.Planes = b.Planes[:1] }, "Planes"},
		{"short legal mask", func(b *TrainBatch) { b.Legal = nil }, "Legal"},
		{"short policy target", func(b *TrainBatch) { b.Policy = b.Policy[:2] }, "Policy"},
		{"short WDL target", func(b *TrainBatch) { b.WDL = b.WDL[:2] }, "WDL"},
	}
	for _, c := range trainCases {
		b := NewTrainBatch(cfg, 3)
		c.edit(b)
		if _, err := tr.TrainStep(b); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("TrainStep with %s: error %v, want one saying %q", c.name, err, c.says)
		}
	}
	if tr.Steps() != 0 {
		t.Errorf("rejected batches advanced the step counter to %d", tr.Steps())
	}
	if _, err := New(Config{}, 1); err == nil || !strings.Contains(err.Error(), "Channels = 0") {
		t.Errorf("New of a zero config: error %v, want Channels named", err)
	}
}
