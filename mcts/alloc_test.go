package mcts

import (
	"testing"
)

// wideDriver keeps games wide games searching forever: a finished search
// plays its move, a finished game starts over.
type wideDriver struct {
	s        *Searcher
	start    []wide
	playouts int
}

func newWideDriver(tb testing.TB, cfg Config, games int) *wideDriver {
	tb.Helper()
	ev, err := NewUniform(wideShape, games*cfg.LeavesPerGame)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := NewSearcher(cfg, ev, games)
	if err != nil {
		tb.Fatal(err)
	}
	d := &wideDriver{s: s, start: make([]wide, games)}
	for i := range d.start {
		d.start[i] = wide{hash: uint64(i) * 7919}
		if err := s.Reset(i, &d.start[i]); err != nil {
			tb.Fatal(err)
		}
	}
	return d
}

// step runs one Step and plays the finished searches' moves.
func (d *wideDriver) step(tb testing.TB) {
	done, err := d.s.Step()
	if err != nil {
		tb.Fatal(err)
	}
	d.playouts += d.s.progress
	for _, i := range done {
		r := d.s.Result(i)
		if over, _ := d.s.Game(i).Status(); over || r.Move < 0 {
			if err := d.s.Reset(i, &d.start[i]); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		if err := d.s.Play(i, r.Move); err != nil {
			tb.Fatal(err)
		}
	}
}

func TestSteadyStateSearchDoesNotAllocate(t *testing.T) {
	for _, c := range []struct {
		name   string
		gumbel bool
		leaves int
		forced float64
	}{{"PUCT", false, 1, 0}, {"PUCT, 4 leaves", false, 4, 0}, {"PUCT, forced playouts", false, 1, 2}, {"Gumbel", true, 1, 0}} {
		cfg := testConfig(64)
		cfg.Gumbel, cfg.LeavesPerGame, cfg.ForcedPlayouts = c.gumbel, c.leaves, c.forced
		cfg.NoiseFraction, cfg.TempPlies, cfg.CheapShare, cfg.CheapSims = 0.25, 10, 0.5, 16
		d := newWideDriver(t, cfg, 8)
		// Warm up over several whole games so every arena and buffer has
		// reached its largest size.
		for i := 0; i < 3*wideDepth*cfg.Sims; i++ {
			d.step(t)
		}
		if a := testing.AllocsPerRun(2000, func() { d.step(t) }); a != 0 {
			t.Errorf("%s: %.3f allocations per step in steady state, want 0", c.name, a)
		}
	}
}

// BenchmarkSearchOverhead measures the search's own cost per playout (tree
// walk, moves of the toy game, encoding, batching, backup) with the
// trivial Uniform evaluator, 64 games of branching 32.
func BenchmarkSearchOverhead(b *testing.B) {
	for _, c := range []struct {
		name   string
		gumbel bool
	}{{"PUCT", false}, {"Gumbel", true}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := testConfig(200)
			cfg.Gumbel = c.gumbel
			cfg.CacheEntries = 1 << 16
			d := newWideDriver(b, cfg, 64)
			for i := 0; i < 4000; i++ { // 20 moves a game: the arenas reach their size
				d.step(b)
			}
			d.playouts = 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				d.step(b)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(d.playouts), "ns/playout")
		})
	}
}

// BenchmarkUniformEvaluate is the trivial evaluator alone on the same
// batch, to separate its share from the search's.
func BenchmarkUniformEvaluate(b *testing.B) {
	d := newWideDriver(b, testConfig(200), 64)
	for i := 0; i < 200; i++ {
		d.step(b)
	}
	batch := d.s.batch
	batch.Size = 64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := d.s.ev.Evaluate(batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*64), "ns/position")
}
