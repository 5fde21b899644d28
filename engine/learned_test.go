package engine

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bomberzero/engine/nnue"
	"bomberzero/env"
)

// writeTestNet writes a random net for the named variant into dir.
func writeTestNet(t testing.TB, dir, variant string) string {
	t.Helper()
	v, err := env.LoadVariant(variant)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, variant+".nnue")
	if err := nnue.WriteFile(path, nnue.NewNet(nnue.NewFeatureSet(v), 16, 8, 1)); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSpecEvalReadsANetAndNamesEveryBadOne(t *testing.T) {
	dir := t.TempDir()
	path := writeTestNet(t, dir, "fbgc")
	s, err := ParseSpec("nodes=300:eval=" + path)
	if err != nil || s.Net == nil || s.NetFile != path {
		t.Fatalf("eval=%s: %+v, %v", path, s, err)
	}
	fbgc, _ := env.LoadVariant("fbgc")
	ev, err := s.Evaluator(fbgc, testTable(fbgc))
	if err != nil || ev.Name() != "nnue:fbgc.nnue" {
		t.Fatalf("Evaluator: %v, %v; want nnue:fbgc.nnue", ev, err)
	}
	if f := ev.Fork(); f.Evaluate(fbgc.NewPosition()) != ev.Evaluate(fbgc.NewPosition()) {
		t.Error("a fork scores the start differently")
	}
	chess, _ := env.LoadVariant("chess")
	if _, err := s.Evaluator(chess, testTable(chess)); err == nil || !strings.Contains(err.Error(), "fbgc") ||
		!strings.Contains(err.Error(), "chess") || !strings.Contains(err.Error(), path) {
		t.Errorf("a fbgc net in chess: %v; want an error naming the file and both variants", err)
	}
	if s, err := ParseSpec("eval=classical"); err != nil || s.Net != nil {
		t.Errorf("eval=classical: %+v, %v", s, err)
	}
	data, _ := os.ReadFile(path)
	data[len(data)-40] ^= 0xff
	damaged := filepath.Join(dir, "damaged.nnue")
	os.WriteFile(damaged, data, 0o644)
	weights := filepath.Join(dir, "w.json")
	if err := WriteWeightsFile(weights, WeightsFile{Weights: DefaultWeights()}); err != nil {
		t.Fatal(err)
	}
	bad := []struct{ text, want string }{
		{"eval=", "eval: want classical or the path"},
		{"eval=" + filepath.Join(dir, "missing.nnue"), "missing.nnue"},
		{"eval=" + damaged, "damaged.nnue: damaged: checksum"},
		{"weights=" + weights + ":eval=" + path, "exclude each other"},
		{"eval=" + path + ":weights=" + weights, "exclude each other"},
	}
	for _, b := range bad {
		if _, err := ParseSpec(b.text); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%q: error %v; want one mentioning %q", b.text, err, b.want)
		}
	}
}

func TestEngineSearchesWithALearnedEvaluation(t *testing.T) {
	v, _ := env.LoadVariant("fbgc")
	net := nnue.NewNet(nnue.NewFeatureSet(v), 32, 8, 2)
	ev, err := NewLearned(v, net, "nnue:test")
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(v, Options{HashMB: 4, Threads: 2, Table: testTable(v), Eval: ev})
	if err != nil {
		t.Fatal(err)
	}
	pos := v.NewPosition()
	r, err := e.Search(context.Background(), pos, Limits{Nodes: 5000}, nil)
	if err != nil || r.Nodes == 0 {
		t.Fatalf("search: %+v, %v", r, err)
	}
}

// nodeRate searches the fbgc start and a few random positions to a fixed
// node count with evaluation ev (nil: classical) and returns nodes/s.
func nodeRate(t testing.TB, v *env.Variant, ev Evaluator, positions []*env.Position, nodes int64) float64 {
	e, err := New(v, Options{HashMB: 16, Threads: 1, Table: testTable(v), Eval: ev})
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	start := time.Now()
	for _, p := range positions {
		e.Clear()
		r, err := e.Search(context.Background(), p, Limits{Nodes: nodes}, nil)
		if err != nil {
			t.Fatal(err)
		}
		total += r.Nodes
	}
	return float64(total) / time.Since(start).Seconds()
}

// BenchmarkLearnedVsClassical reports the engine's nodes/s on fbgc with a
// random net of the default sizes (or the fbgc net file named by the
// environment variable BOMBERZERO_BENCH_NET: a trained net searches
// another tree) and with the classical evaluation, and their ratio (issue
// 31's target: at least 0.40).
func BenchmarkLearnedVsClassical(b *testing.B) {
	v, _ := env.LoadVariant("fbgc")
	positions := append([]*env.Position{v.NewPosition()}, benchPositions(b, v, 5)...)
	net := nnue.NewNet(nnue.NewFeatureSet(v), nnue.DefaultHidden, nnue.DefaultL2, 1)
	if path := os.Getenv("BOMBERZERO_BENCH_NET"); path != "" {
		n, err := nnue.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		net = n
	}
	ev, err := NewLearned(v, net, "nnue:bench")
	if err != nil {
		b.Fatal(err)
	}
	var classical, learned float64
	for range b.N {
		classical += nodeRate(b, v, nil, positions, 20000)
		learned += nodeRate(b, v, ev, positions, 20000)
	}
	b.ReportMetric(classical/float64(b.N), "classical-nodes/s")
	b.ReportMetric(learned/float64(b.N), "nnue-nodes/s")
	b.ReportMetric(learned/classical, "ratio")
}

// randomWalk returns the positions of a seeded random game of v, at most n.
func randomWalk(v *env.Variant, n int, seed uint64) []*env.Position {
	r := rand.New(rand.NewPCG(seed, 11))
	pos := v.NewPosition()
	var out []*env.Position
	for len(out) < n {
		if res, _ := pos.Status(); res != env.Ongoing {
			break
		}
		out = append(out, pos.Clone())
		ms := pos.LegalMoves(nil)
		pos.DoMove(ms[r.IntN(len(ms))])
	}
	return out
}

// An untrained residual net is the classical evaluation exactly (so the
// engine over it searches the same tree); a trained one adds its
// correction (clamped to the margin) and keeps the window promise of
// EvaluateWithin, also where it skips the net.
func TestResidualNetIsClassicalPlusItsCorrection(t *testing.T) {
	v, _ := env.LoadVariant("fbgc")
	fs := nnue.NewFeatureSet(v)
	table := testTable(v)
	classical, err := NewClassical(v, table, DefaultWeights())
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := NewLearned(v, nnue.NewResidual(fs, 32, 8, 3, table), "nnue:fresh")
	if err != nil {
		t.Fatal(err)
	}
	trainedNet := nnue.NewResidual(fs, 32, 8, 3, table)
	for i := range trainedNet.W3 {
		trainedNet.W3[i] = 0.3 * float32(i%3-1)
	}
	trainedNet.B3 = 0.2
	trained, err := NewLearned(v, trainedNet, "nnue:trained")
	if err != nil {
		t.Fatal(err)
	}
	corr, err := nnue.NewEvaluator(trainedNet, fs, "c")
	if err != nil {
		t.Fatal(err)
	}
	tw := trained.(WindowEvaluator)
	fork := trained.Fork()
	for i, pos := range randomWalk(v, 60, 4) {
		want := classical.Evaluate(pos)
		if got := fresh.Evaluate(pos); got != want {
			t.Fatalf("position %d: untrained residual %d, classical %d; want equal", i, got, want)
		}
		c := max(-residualMargin, min(residualMargin, corr.Evaluate(pos)))
		exact := trained.Evaluate(pos)
		if exact != want+c || fork.Evaluate(pos) != exact {
			t.Fatalf("position %d: residual %d (fork %d); want classical %d + correction %d", i, exact, fork.Evaluate(pos), want, c)
		}
		for _, w := range [][2]int32{{exact - 10, exact + 10}, {exact + 5, exact + 900}, {exact - 900, exact - 5}, {exact + 400, exact + 2000}, {exact - 2000, exact - 400}} {
			got := tw.EvaluateWithin(pos, w[0], w[1])
			switch {
			case exact > w[0] && exact < w[1] && got != exact:
				t.Fatalf("position %d: window %v: %d; want the exact %d", i, w, got, exact)
			case exact <= w[0] && got > w[0], exact >= w[1] && got < w[1]:
				t.Fatalf("position %d: window %v: %d on the other side from the exact %d", i, w, got, exact)
			}
		}
	}
	// The engine over the untrained residual searches as the classical one.
	search := func(ev Evaluator) Result {
		e, err := New(v, Options{HashMB: 4, Threads: 1, Table: table, Eval: ev})
		if err != nil {
			t.Fatal(err)
		}
		r, err := e.Search(context.Background(), v.NewPosition(), Limits{Nodes: 3000}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if a, b := search(nil), search(fresh); a.Move != b.Move || a.Nodes != b.Nodes || a.Score != b.Score {
		t.Errorf("classical search %v %d cp %d nodes, untrained residual %v %d cp %d nodes; want the same", a.Move, a.Score, a.Nodes, b.Move, b.Score, b.Nodes)
	}
	bad := nnue.NewResidual(fs, 8, 4, 1, []int32{0, 100})
	if _, err := NewLearned(v, bad, "x"); err == nil || !strings.Contains(err.Error(), "base") {
		t.Errorf("a residual net whose base table does not fit fbgc: %v; want an error naming the base", err)
	}
}
