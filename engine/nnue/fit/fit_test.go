package fit

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"bomberzero/engine/nnue"
	"bomberzero/env"
	"bomberzero/env/envtest"
)

func mustVariant(t testing.TB, name string) *env.Variant {
	t.Helper()
	v, err := env.LoadVariant(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// randomPositions plays seeded random games of v and returns n of their
// positions.
func randomPositions(v *env.Variant, n int, seed uint64) []*env.Position {
	r := rand.New(rand.NewPCG(seed, 7))
	var out []*env.Position
	buf := make([]env.Move, 0, 256)
	for len(out) < n {
		pos := v.NewPosition()
		plies := r.IntN(120)
		for ply := 0; ply < plies; ply++ {
			if res, _ := pos.Status(); res != env.Ongoing {
				break
			}
			moves := pos.LegalMoves(buf[:0])
			pos.DoMove(moves[r.IntN(len(moves))])
		}
		if res, _ := pos.Status(); res == env.Ongoing {
			out = append(out, pos)
		}
	}
	return out
}

// material is the material balance for the side to move in chess.
func material(pos *env.Position) int32 {
	v := pos.Variant()
	vals := map[byte]int32{'P': 100, 'N': 300, 'B': 300, 'R': 500, 'Q': 900}
	var s int32
	us := pos.SideToMove()
	for t := 1; t < len(v.Pieces); t++ {
		x := vals[v.Pieces[t].Letter]
		s += x * int32(pos.Count(us, t)-pos.Count(us.Other(), t))
	}
	return s
}

// withPSQT sets net's linear path to chess-like material plus noise.
func withPSQT(net *nnue.Net, fs *nnue.FeatureSet) {
	table := []int32{0, 100, 300, 300, 500, 900, 0, 200, 400, 600, 800, 1000, 1200, 1400, 1600}
	net.SetMaterial(fs, table)
	r := rand.New(rand.NewPCG(8, 9))
	for i := range net.PSQT {
		net.PSQT[i] += float32(r.Float64()-0.5) * 0.05
	}
}

func TestGorgoniaForwardEqualsTheNetsOwn(t *testing.T) {
	for _, name := range []string{"fbgc", "birds-only"} {
		v := mustVariant(t, name)
		fs := nnue.NewFeatureSet(v)
		net := nnue.NewNet(fs, 16, 8, 5)
		withPSQT(net, fs)
		positions := randomPositions(v, 24, 3)
		samples := make([]Sample, len(positions))
		for i, p := range positions {
			samples[i] = Sample{FEN: p.String(), Result: 0.5}
		}
		d, err := prepare(v, fs, samples, DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		gr, err := newGraph(net, len(samples), false)
		if err != nil {
			t.Fatal(err)
		}
		idx := make([]int, len(samples))
		for i := range idx {
			idx[i] = i
		}
		gr.load(d, idx)
		if _, err := gr.run(); err != nil {
			t.Fatal(err)
		}
		gr.load(d, idx)
		if err := gr.vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		outs := gr.outV.Data().([]float32)
		for i, p := range positions {
			us := p.SideToMove()
			want := net.Output(fs.Active(p, us, nil), fs.Active(p, us.Other(), nil))
			if math.Abs(float64(outs[i]-want)) > 1e-4 {
				t.Errorf("%s sample %d: gorgonia %v, nnue %v", name, i, outs[i], want)
			}
		}
		gr.vm.Close()
	}
}

func TestTrainLearnsMaterial(t *testing.T) {
	v := mustVariant(t, "chess")
	positions := randomPositions(v, 3000, 1)
	samples := make([]Sample, len(positions))
	for i, p := range positions {
		samples[i] = Sample{FEN: p.String(), Score: material(p), Result: 0.5}
	}
	for _, opts := range []nnue.Options{{}, {Kings: nnue.KingBuckets{Files: 3, Ranks: 2}}, {Mirror: true}, {Kings: nnue.KingBuckets{Files: 2, Ranks: 2}, Mirror: true}} {
		kings := opts.Kings
		cfg := DefaultConfig()
		cfg.Hidden, cfg.L2, cfg.Epochs, cfg.Batch, cfg.Lambda, cfg.LearningRate = 32, 8, 12, 64, 1, 3e-3
		cfg.KingBuckets, cfg.Mirror = kings, opts.Mirror
		steps := 0
		net, rep, err := Train(context.Background(), v, samples, cfg, nil, func(step, total int) { steps = step })
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v", opts, rep)
		first, last := rep.ValidationLoss[0], rep.ValidationLoss[len(rep.ValidationLoss)-1]
		if !(last < first/3) || steps != cfg.Epochs*(rep.Train/cfg.Batch) {
			t.Errorf("%s: validation loss %.5f -> %.5f, %d steps; want it below a third", opts, first, last, steps)
		}
		fs, err := nnue.FeatureSetOf(v, net)
		if err != nil {
			t.Fatal(err)
		}
		if net.Options() != opts || net.Features != fs.Len() {
			t.Fatalf("%s: the net has options %s and %d features", opts, net.Options(), net.Features)
		}
		ev, err := nnue.NewEvaluator(net, fs, "t")
		if err != nil {
			t.Fatal(err)
		}
		up, _ := v.ParsePosition("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
		down, _ := v.ParsePosition("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1")
		if a, b := ev.Evaluate(up), ev.Evaluate(down); !(a > b+200) {
			t.Errorf("%s: queen up %d cp, queen down %d; want the first well above", opts, a, b)
		}
		if opts.Mirror {
			// A trained mirrored net scores a position and its
			// file-mirror alike (both kings on, no castling rights):
			// the same features, summed in another order, so within
			// 1e-3 cp of the raw output.
			compared := 0
			for _, p := range positions[:300] {
				if strings.Fields(p.String())[2] != "-" {
					continue
				}
				compared++
				q := envtest.ReflectFiles(t, p)
				a := float64(ev.Output(p)) * float64(net.Scale)
				b := float64(ev.Fork().Output(q)) * float64(net.Scale)
				if math.Abs(a-b) > 1e-3 {
					t.Fatalf("%s: %.6f cp for %s, %.6f for its file-mirror %s", opts, a, p, b, q)
				}
			}
			if compared < 20 {
				t.Errorf("%s: %d positions without castling rights compared; want 20 or more", opts, compared)
			}
		}
		// Continuing from the trained net starts where it ended (a
		// bucketed net is unfolded again: the same function, its sums
		// in another order).
		cfg.Epochs = 1
		_, rep2, err := Train(context.Background(), v, samples, cfg, net, nil)
		if err != nil || math.Abs(rep2.ValidationLoss[0]-last) > 1e-6*last {
			t.Errorf("%s: continued training starts at %v (%v); want %v", opts, rep2.ValidationLoss, err, last)
		}
		if !opts.Mirror {
			cfg.Mirror = true
			if _, _, err := Train(context.Background(), v, samples, cfg, net, nil); err == nil || !strings.Contains(err.Error(), "mirror") {
				t.Errorf("continuing a net without the mirror with it: %v; want an error naming it", err)
			}
			cfg.Mirror = false
		}
		if kings.Count() > 1 && !opts.Mirror {
			cfg.KingBuckets = nnue.KingBuckets{Files: 2, Ranks: 2}
			if _, _, err := Train(context.Background(), v, samples, cfg, net, nil); err == nil || !strings.Contains(err.Error(), "2x2") {
				t.Errorf("continuing a 3x2 net with 2x2 buckets: %v; want an error naming them", err)
			}
			cfg.KingBuckets, cfg.Trainer = kings, TrainerGorgonia
			if _, _, err := Train(context.Background(), v, samples, cfg, nil, nil); err == nil || !strings.Contains(err.Error(), "king buckets") {
				t.Errorf("king buckets with the gorgonia trainer: %v; want an error", err)
			}
		}
	}
}

// A residual net starts as its base (the loss before training is the
// base's own) and learns what the base misses: here the base counts half
// the material the scores count, so the net must learn the other half.
func TestTrainResidualLearnsTheCorrection(t *testing.T) {
	v := mustVariant(t, "chess")
	positions := randomPositions(v, 3000, 2)
	samples := make([]Sample, len(positions))
	for i, p := range positions {
		samples[i] = Sample{FEN: p.String(), Score: material(p), Base: material(p) / 2, Result: 0.5}
	}
	cfg := DefaultConfig()
	cfg.Hidden, cfg.L2, cfg.Epochs, cfg.Batch, cfg.LearningRate = 32, 8, 12, 64, 3e-3
	cfg.Residual, cfg.Table = true, []int32{0, 100, 300, 300, 500, 900, 0}
	net, rep, err := Train(context.Background(), v, samples, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if net.Base != nnue.BaseClassical || len(net.BaseTable) != len(cfg.Table) {
		t.Fatalf("trained net's base %q table %v; want classical %v", net.Base, net.BaseTable, cfg.Table)
	}
	// The validation split is the first nVal of the seed's permutation.
	order := rand.New(rand.NewPCG(cfg.Seed, 0x666974)).Perm(len(samples))
	baseLoss := 0.0
	nVal := int(math.Round(cfg.ValidationShare * float64(len(samples))))
	for _, i := range order[:nVal] {
		s := samples[i]
		e := sigmoid(float64(s.Base)/cfg.Scale) - sigmoid(float64(s.Score)/cfg.Scale)
		baseLoss += e * e
	}
	baseLoss /= float64(nVal)
	first, last := rep.ValidationLoss[0], rep.ValidationLoss[len(rep.ValidationLoss)-1]
	if math.Abs(first-baseLoss) > 1e-6*baseLoss+1e-9 {
		t.Errorf("validation loss before training %.7f; want the base's own %.7f", first, baseLoss)
	}
	if !(last < first/3) {
		t.Errorf("validation loss %.5f -> %.5f; want it below a third", first, last)
	}
	ev, err := nnue.NewEvaluator(net, nnue.NewFeatureSet(v), "t")
	if err != nil {
		t.Fatal(err)
	}
	up, _ := v.ParsePosition("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	// Half a queen is 450; random games seldom show a queen missing at
	// the start, so the fit gets about half of it.
	if c := ev.Evaluate(up); !(c > 150 && c < 700) {
		t.Errorf("correction a queen up %d cp; want a clear share of half a queen (150 to 700)", c)
	}
}

func TestTrainNamesTheBadSample(t *testing.T) {
	v := mustVariant(t, "chess")
	samples := []Sample{{FEN: v.StartFEN, Result: 1}, {FEN: "not a fen", Result: 0}}
	_, _, err := Train(context.Background(), v, samples, DefaultConfig(), nil, nil)
	if err == nil || !strings.Contains(err.Error(), "sample 1") {
		t.Errorf("error %v; want one naming sample 1", err)
	}
	based := []Sample{{FEN: v.StartFEN, Result: 1, Base: 40}, {FEN: v.StartFEN, Result: 1}}
	if _, _, err := Train(context.Background(), v, based, DefaultConfig(), nil, nil); err == nil || !strings.Contains(err.Error(), "sample 0 has a base score") {
		t.Errorf("a base score for a net without a base: %v; want an error naming sample 0", err)
	}
	res := DefaultConfig()
	res.Residual, res.Table, res.Trainer = true, []int32{0, 100}, TrainerGorgonia
	if _, _, err := Train(context.Background(), v, based, res, nil, nil); err == nil || !strings.Contains(err.Error(), "residual") {
		t.Errorf("a residual net on the Gorgonia trainer: %v; want an error naming residual", err)
	}
	res.Trainer, res.Table = TrainerSparse, nil
	if _, _, err := Train(context.Background(), v, based, res, nil, nil); err == nil || !strings.Contains(err.Error(), "piece values table") {
		t.Errorf("a residual net without a table: %v; want an error naming the table", err)
	}
	// Continuing a residual net needs no table: the net carries its own.
	start := nnue.NewResidual(nnue.NewFeatureSet(v), 8, 4, 1, []int32{0, 100, 300, 300, 500, 900, 0})
	more := DefaultConfig()
	more.Residual, more.Epochs, more.Batch = true, 1, 2
	cont, _, err := Train(context.Background(), v, []Sample{{FEN: v.StartFEN, Result: 1, Base: 40}, {FEN: v.StartFEN, Result: 0.5, Base: 40}}, more, start, nil)
	if err != nil {
		t.Errorf("continuing a residual net without Config.Table: %v; want it trained", err)
	} else if cont.Base != nnue.BaseClassical || len(cont.BaseTable) != 7 {
		t.Errorf("continued net's base %q table %v; want the start net's", cont.Base, cont.BaseTable)
	}
	other := nnue.NewNet(nnue.NewFeatureSet(mustVariant(t, "fbgc")), 8, 4, 1)
	if _, _, err := Train(context.Background(), v, samples[:1], DefaultConfig(), other, nil); err == nil || !strings.Contains(err.Error(), "fbgc") {
		t.Errorf("a fbgc net continued on chess: %v", err)
	}
}

// loss64 is the batch's loss by a float64 forward pass of net.
func loss64(net *nnue.Net, d *data, idx []int) float64 {
	H, L2 := net.H, net.L2
	clip := func(v float64) float64 { return math.Min(1, math.Max(0, v)) }
	sum := 0.0
	for _, i := range idx {
		x := make([]float64, 2*H)
		for half, feats := range [2][]int32{d.feats[d.us[i]:d.them[i]], d.feats[d.them[i]:d.end[i]]} {
			for j := range H {
				x[half*H+j] = float64(net.B1[j])
				for _, f := range feats {
					x[half*H+j] += float64(net.W1[int(f)*H+j])
				}
			}
		}
		out := float64(net.B3)
		for j := range L2 {
			h := float64(net.B2[j])
			for k := range x {
				h += clip(x[k]) * float64(net.W2[k*L2+j])
			}
			out += clip(h) * float64(net.W3[j])
		}
		for _, f := range d.feats[d.us[i]:d.them[i]] {
			out += float64(net.PSQT[f]) / 2
		}
		for _, f := range d.feats[d.them[i]:d.end[i]] {
			out -= float64(net.PSQT[f]) / 2
		}
		out += float64(d.base[i])
		e := sigmoid(out) - float64(d.target[i])
		sum += e * e
	}
	return sum / float64(len(idx))
}

func TestGorgoniaGradientsMatchFiniteDifferences(t *testing.T) {
	v := mustVariant(t, "chess")
	fs := nnue.NewFeatureSet(v)
	net := nnue.NewNet(fs, 8, 4, 9)
	withPSQT(net, fs)
	positions := randomPositions(v, 6, 5)
	samples := make([]Sample, len(positions))
	for i, p := range positions {
		samples[i] = Sample{FEN: p.String(), Score: int32(100 * i), Result: float32(i%3) / 2}
	}
	d, err := prepare(v, fs, samples, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{0, 1, 2, 3, 4, 5}
	gr, err := newGraph(net, len(idx), true)
	if err != nil {
		t.Fatal(err)
	}
	defer gr.vm.Close()
	gr.load(d, idx)
	if err := gr.vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	grads := map[string][]float32{}
	for _, n := range gr.learnables {
		g, err := n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		grads[n.Name()] = append([]float32(nil), g.Data().([]float32)...)
	}
	gr.vm.Reset()
	f0 := d.feats[d.us[0]] // an active feature, so its W1 row has a gradient
	checks := []struct {
		name string
		w    []float32
		i    int
	}{
		{"W1", net.W1, int(f0)*net.H + 1}, {"W1", net.W1, int(f0)*net.H + 5}, {"B1", net.B1, 2},
		{"W2", net.W2, 3}, {"W2", net.W2, 17}, {"B2", net.B2, 1}, {"W3", net.W3, 2},
		{"PSQT", net.PSQT, int(f0)}, {"PSQT", net.PSQT, int(d.feats[d.them[0]])},
	}
	for _, c := range checks {
		const eps = 1e-3
		old := c.w[c.i]
		c.w[c.i] = old + eps
		up := loss64(net, d, idx)
		c.w[c.i] = old - eps
		down := loss64(net, d, idx)
		c.w[c.i] = old
		num := (up - down) / (2 * eps)
		got := float64(grads[c.name][c.i])
		if math.Abs(num-got) > 1e-6+1e-3*math.Abs(num) {
			t.Errorf("d loss / d %s[%d]: gorgonia %.6g, finite difference %.6g", c.name, c.i, got, num)
		}
	}
}

func TestTrainStopsWhenCancelled(t *testing.T) {
	v := mustVariant(t, "chess")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	samples := []Sample{{FEN: v.StartFEN, Result: 0.5}, {FEN: v.StartFEN, Result: 1}}
	if _, _, err := Train(ctx, v, samples, DefaultConfig(), nil, nil); err != context.Canceled {
		t.Errorf("error %v; want context.Canceled", err)
	}
}
