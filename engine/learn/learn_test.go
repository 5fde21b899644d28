package learn

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bomberzero/agent"
	"bomberzero/engine"
	"bomberzero/engine/nnue"
	"bomberzero/engine/nnue/fit"
	"bomberzero/env"
)

// fakeTrainer writes a small fresh net instead of fitting one (fit.Train
// has its own tests): the loop's files and phases are what is tested.
type fakeTrainer struct{ NNUE }

func (fakeTrainer) Train(_ context.Context, v *env.Variant, rows []Row, _, out string, seed uint64, progress func(int, int)) (TrainStats, error) {
	n := nnue.NewNet(nnue.NewFeatureSet(v), 8, 4, seed)
	if progress != nil {
		progress(1, 1)
	}
	return TrainStats{Samples: len(rows)}, nnue.WriteFile(out, n)
}

func gardner(t *testing.T) (*env.Variant, []int32) {
	t.Helper()
	v, err := env.LoadVariant("../../train/testdata/gardner.toml")
	if err != nil {
		t.Fatal(err)
	}
	table, err := agent.DefaultValues().Table(v)
	if err != nil {
		t.Fatal(err)
	}
	return v, table
}

func tinyConfig(t *testing.T, dir string) Config {
	v, table := gardner(t)
	cfg := DefaultConfig()
	cfg.Variant, cfg.Table, cfg.Dir, cfg.Trainer = v, table, dir, fakeTrainer{}
	cfg.Generations, cfg.Games, cfg.ChunkGames, cfg.Workers = 2, 6, 2, 2
	cfg.Play.Nodes, cfg.Play.MaxPlies = 200, 80
	cfg.Gate.Games = 4
	return cfg
}

// chunkSums returns the checksums of every chunk of the run, by path
// relative to the run.
func chunkSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "data", "gen-*", "*"))
	out := map[string]string{}
	for _, p := range paths {
		m, rows, err := ReadChunk(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != m.Positions {
			t.Fatalf("%s: %d rows, metadata %d", p, len(rows), m.Positions)
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = m.Checksum
	}
	return out
}

func TestRunTiny(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(t, dir)
	var log strings.Builder
	cfg.Progress = &log
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	t.Log(log.String())
	for _, want := range []string{"generations 0 to 1", "gen 1 gate", "gen 0 train"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("progress lacks %q", want)
		}
	}
	sums := chunkSums(t, dir)
	if len(sums) != 6 { // 2 generations of 3 chunks
		t.Fatalf("chunks %v, want 6", sums)
	}
	positions := 0
	for g := range 2 {
		for c := range 3 {
			m, rows, err := ReadChunk(ChunkPath(dir, g, c))
			if err != nil {
				t.Fatal(err)
			}
			if m.Games != 2 || m.Generation != g || m.Variant != cfg.Variant.Name || m.WhiteWins+m.Draws+m.BlackWins != 2 {
				t.Errorf("chunk %d/%d meta %+v", g, c, m)
			}
			for _, r := range rows {
				if _, err := cfg.Variant.ParsePosition(r.FEN); err != nil || r.Result != 0 && r.Result != 0.5 && r.Result != 1 || engine.IsMate(r.Score) {
					t.Fatalf("bad row %+v: %v", r, err)
				}
			}
			positions += len(rows)
		}
		if _, err := (NNUE{}).Evaluator(cfg.Variant, cfg.Table, filepath.Join(dir, NetPath(g))); err != nil {
			t.Errorf("net of generation %d: %v", g, err)
		}
	}
	if positions == 0 {
		t.Fatal("no positions recorded")
	}
	recs, err := ReadMetrics(dir)
	if err != nil || len(recs) != 2 {
		t.Fatalf("metrics %d records, %v; want 2", len(recs), err)
	}
	for i, r := range recs {
		if r.Generation != i || r.Games != 6 || r.Gate.Wins+r.Gate.Draws+r.Gate.Losses == 0 || r.Train.Samples == 0 {
			t.Errorf("record %d: %+v", i, r)
		}
	}
	st, ok, err := LoadState(dir)
	if err != nil || !ok || st.Generation != 2 || st.Phase != PhaseSelfPlay {
		t.Fatalf("state %+v %v %v", st, ok, err)
	}
	// More generations resume the same run.
	cfg.Generations = 3
	cfg.Gate.Games = 2
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if recs, _ := ReadMetrics(dir); len(recs) != 3 {
		t.Fatalf("%d records after a third generation", len(recs))
	}
}

// TestResumeAfterStop stops a run between chunks and resumes it: the
// chunks are those of an unbroken run of the same seed.
func TestResumeAfterStop(t *testing.T) {
	whole := t.TempDir()
	cfg := tinyConfig(t, whole)
	cfg.Generations, cfg.Gate.Games = 1, 2
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	want := chunkSums(t, whole)
	if recs, _ := ReadMetrics(whole); len(recs) != 1 || recs[0].Positions == 0 {
		t.Fatalf("unbroken run: %+v, want one generation with positions", recs)
	}

	broken := t.TempDir()
	cfg.Dir = broken
	ctx, cancel := context.WithCancel(context.Background())
	cfg.AfterChunk = func(gen, c int) {
		if c == 1 {
			cancel()
		}
	}
	if err := Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v, want canceled", err)
	}
	if n := len(chunkSums(t, broken)); n != 2 {
		t.Fatalf("%d chunks after the stop, want 2", n)
	}
	cfg.AfterChunk = nil
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	got := chunkSums(t, broken)
	if len(got) != len(want) {
		t.Fatalf("chunks %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: checksum %s, unbroken run %s", k, got[k], v)
		}
	}
	if recs, _ := ReadMetrics(broken); len(recs) != 1 {
		t.Errorf("%d metrics records, want 1", len(recs))
	}
}

func TestDamagedChunkNamed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "chunk-0000.parquet")
	rows := []Row{{FEN: "x", Score: 12, Result: 1, Ply: 8}, {FEN: "y", Score: -3, Result: 0, Ply: 9, Game: 1}}
	if err := WriteChunk(path, ChunkMeta{Variant: "v", Games: 2}, rows); err != nil {
		t.Fatal(err)
	}
	m, got, err := ReadChunk(path)
	if err != nil || len(got) != 2 || got[1] != rows[1] || m.Positions != 2 {
		t.Fatalf("read back %+v %+v %v", m, got, err)
	}
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadChunk(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("truncated chunk: %v, want an error naming %s", err, path)
	}
	// Every flipped byte is an error naming the file or changes nothing
	// a reader gets (padding, statistics).
	caught := 0
	for i := range data {
		c := append([]byte(nil), data...)
		c[i] ^= 0x55
		if err := os.WriteFile(path, c, 0o644); err != nil {
			t.Fatal(err)
		}
		_, got, err := ReadChunk(path)
		switch {
		case err != nil && !strings.Contains(err.Error(), path):
			t.Fatalf("byte %d flipped: %v, want an error naming %s", i, err, path)
		case err != nil:
			caught++
		case len(got) != len(rows) || got[0] != rows[0] || got[1] != rows[1]:
			t.Fatalf("byte %d flipped: rows %+v read without an error", i, got)
		}
	}
	if caught < len(data)/2 {
		t.Errorf("only %d of %d flipped bytes caught", caught, len(data))
	}
	// A run meeting it stops and names it.
	cfg := tinyConfig(t, t.TempDir())
	cfg.Generations = 1
	if err := os.MkdirAll(GenDir(cfg.Dir, 0), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := ChunkPath(cfg.Dir, 0, 0)
	if err := os.WriteFile(bad, data[:len(data)-9], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("run over a damaged chunk: %v, want an error naming %s", err, bad)
	}
}

// TestReadChunkMetaAgreesWithReadChunk: the footer-only read a resuming
// worker makes never says something other than the full read: on every
// one-byte damage of a chunk it errs naming the file, or returns the meta
// ReadChunk returns, or ReadChunk errs (damage inside the pages, which
// only decoding the rows finds).
func TestReadChunkMetaAgreesWithReadChunk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chunk-0000.parquet")
	rows := []Row{{FEN: "x", Score: 12, Result: 1, Ply: 8}, {FEN: "y", Score: -3, Result: 0, Ply: 9, Game: 1}}
	if err := WriteChunk(path, ChunkMeta{Variant: "v", Generation: 3, Games: 2, WhiteWins: 1, Plies: 40}, rows); err != nil {
		t.Fatal(err)
	}
	want, _, err := ReadChunk(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ReadChunkMeta(path); err != nil || got != want {
		t.Fatalf("ReadChunkMeta = %+v, %v; ReadChunk's meta %+v", got, err, want)
	}
	data, _ := os.ReadFile(path)
	metaCaught, onlyRows := 0, 0
	for i := range data {
		c := append([]byte(nil), data...)
		c[i] ^= 0x55
		if err := os.WriteFile(path, c, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadChunkMeta(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("byte %d flipped: %v, want an error naming %s", i, err, path)
			}
			metaCaught++
			continue
		}
		full, _, ferr := ReadChunk(path)
		switch {
		case ferr != nil:
			onlyRows++
		case full != m:
			t.Fatalf("byte %d flipped: ReadChunkMeta %+v, ReadChunk %+v", i, m, full)
		}
	}
	if metaCaught == 0 || metaCaught+onlyRows < len(data)/2 {
		t.Errorf("of %d flipped bytes, %d caught by the footer read and %d only by the rows'", len(data), metaCaught, onlyRows)
	}
	for _, bad := range [][]byte{data[:len(data)/2], data[:len(data)-9], []byte("not parquet at all")} {
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadChunkMeta(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%d bytes of a damaged chunk: %v, want an error naming %s", len(bad), err, path)
		}
	}
}

func TestForeignStateAndNet(t *testing.T) {
	cfg := tinyConfig(t, t.TempDir())
	if err := os.WriteFile(StatePath(cfg.Dir), []byte(`{"generation": 3, "phase": "selfplay", "checkpoint": "x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), StatePath(cfg.Dir)) {
		t.Errorf("foreign state: %v, want an error naming it", err)
	}
	chess, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "chess.nnue")
	if err := nnue.WriteFile(path, nnue.NewNet(nnue.NewFeatureSet(chess), 8, 4, 1)); err != nil {
		t.Fatal(err)
	}
	_, err = NNUE{}.Evaluator(cfg.Variant, cfg.Table, path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "chess") {
		t.Errorf("net of another variant: %v, want an error naming the file and both variants", err)
	}
}

// TestRunWithFit trains real nets (tiny ones) with fit.Train: the losses
// reach the metrics and every net loads.
func TestRunWithFit(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(t, dir)
	f := fit.DefaultConfig()
	f.Hidden, f.L2, f.Epochs = 8, 4, 2
	cfg.Trainer = NNUE{Fit: f}
	cfg.Gate.Games = 2
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadMetrics(dir)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for _, r := range recs {
		if !(r.Train.TrainLoss > 0) || !(r.Train.ValidationLoss > 0) || r.Train.Samples == 0 {
			t.Errorf("generation %d: train %+v", r.Generation, r.Train)
		}
		if _, err := cfg.Trainer.Evaluator(cfg.Variant, cfg.Table, filepath.Join(dir, r.Net)); err != nil {
			t.Error(err)
		}
		if n, err := nnue.ReadFile(filepath.Join(dir, r.Net)); err != nil || n.Meta["trained_by"] == "" || n.Meta["positions"] == "" {
			t.Errorf("net %s: meta %v, %v", r.Net, n.Meta, err)
		}
	}
}

// TestMetricsAppendOnce: a record of a generation already there (a kill
// between the append and the state save) is not written twice, and a torn
// last line is cut off.
func TestMetricsAppendOnce(t *testing.T) {
	dir := t.TempDir()
	for range 2 {
		if err := appendMetrics(dir, Record{Generation: 0}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.OpenFile(MetricsPath(dir), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"generation": 1, "ga`)
	f.Close()
	if recs, err := ReadMetrics(dir); err != nil || len(recs) != 1 {
		t.Fatalf("torn file: %d records, %v", len(recs), err)
	}
	if err := appendMetrics(dir, Record{Generation: 1, Games: 7}); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadMetrics(dir)
	if err != nil || len(recs) != 2 || recs[1].Games != 7 {
		t.Fatalf("records %+v, %v", recs, err)
	}
}

// TestWorkersSplitTheChunks: two stateless workers given disjoint chunk
// ranges (with different goroutine counts) write the chunks one worker
// writes alone.
func TestWorkersSplitTheChunks(t *testing.T) {
	v, table := gardner(t)
	play := DefaultPlayConfig()
	play.Nodes, play.MaxPlies = 200, 80
	job := func(dir string, first, n, workers int) {
		t.Helper()
		w := WorkerConfig{Variant: v, Table: table, Dir: dir, Generation: 3, Games: 5, ChunkGames: 2, FirstChunk: first, Chunks: n, Play: play, Workers: workers, Seed: 7}
		if err := Worker(context.Background(), w); err != nil {
			t.Fatal(err)
		}
	}
	one, split := t.TempDir(), t.TempDir()
	job(one, 0, 3, 2)
	job(split, 2, 5, 2) // the last chunk: one game
	job(split, 0, 2, 1)
	for c := range 3 {
		a, _, err := ReadChunk(chunkIn(one, c))
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := ReadChunk(chunkIn(split, c))
		if err != nil {
			t.Fatal(err)
		}
		if a.Checksum != b.Checksum || a.Games != min(2, 5-2*c) || a.Generation != 3 {
			t.Errorf("chunk %d: %+v alone, %+v split", c, a, b)
		}
	}
	if paths, _ := filepath.Glob(filepath.Join(split, "*")); len(paths) != 3 {
		t.Errorf("files %v, want 3 chunks", paths)
	}
}

// TestWorkerReportsTheResumedGamesFirst: a worker run over chunks some of
// which are on disk tells Progress first, before any game, the games they
// hold (what a progress bar must not count in its rate), then each game.
func TestWorkerReportsTheResumedGamesFirst(t *testing.T) {
	v, table := gardner(t)
	play := DefaultPlayConfig()
	play.Nodes, play.MaxPlies = 200, 80
	dir := t.TempDir()
	var calls [][2]int
	w := WorkerConfig{Variant: v, Table: table, Dir: dir, Generation: 3, Games: 5, ChunkGames: 2, FirstChunk: 0, Chunks: 2, Play: play, Workers: 1, Seed: 7}
	if err := Worker(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	w.Chunks = 3
	w.Progress = func(done, total int) { calls = append(calls, [2]int{done, total}) }
	if err := Worker(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	if want := [][2]int{{4, 5}, {5, 5}}; !slices.Equal(calls, want) {
		t.Errorf("progress calls %v, want %v (the 4 games on disk, then the one played)", calls, want)
	}
}

// A residual training gives each sample the classical score over the
// net's base table, for a new net (Fit.Residual) and for one continued
// from a residual net (whatever Fit.Residual says); a plain net's samples
// carry none.
func TestNNUETrainResidual(t *testing.T) {
	v, table := gardner(t)
	var rows []Row
	pos := v.NewPosition()
	for i := 0; len(rows) < 40; i++ {
		if res, _ := pos.Status(); res != env.Ongoing {
			pos = v.NewPosition()
		}
		rows = append(rows, Row{FEN: pos.String(), Score: int32(10 * i), Result: 0.5})
		ms := pos.LegalMoves(nil)
		pos.DoMove(ms[(7*i)%len(ms)])
	}
	classical, err := engine.NewClassical(v, table, engine.DefaultWeights())
	if err != nil {
		t.Fatal(err)
	}
	f := fit.DefaultConfig()
	f.Hidden, f.L2, f.Epochs, f.Batch, f.Table, f.Residual = 8, 4, 1, 8, table, true
	out := filepath.Join(t.TempDir(), "r.nnue")
	if _, err := (NNUE{Fit: f}).Train(context.Background(), v, rows, "", out, 1, nil); err != nil {
		t.Fatal(err)
	}
	net, err := LoadNet(v, out)
	if err != nil || net.Base != nnue.BaseClassical || len(net.BaseTable) != len(table) {
		t.Fatalf("trained net %v (%v); want a residual net over the classical evaluation", net, err)
	}
	plain := NNUE{Fit: fit.DefaultConfig()}
	for _, c := range []struct {
		name  string
		t     NNUE
		start *nnue.Net
		based bool
	}{{"new residual", NNUE{Fit: f}, nil, true}, {"continued residual", plain, net, true}, {"plain", plain, nil, false}} {
		samples, err := c.t.samples(v, rows, c.start)
		if err != nil {
			t.Fatal(err)
		}
		nonzero := 0
		for i, s := range samples {
			p, _ := v.ParsePosition(s.FEN)
			want := int32(0)
			if c.based {
				want = classical.Evaluate(p)
			}
			if s.Base != want {
				t.Fatalf("%s: sample %d base %d; want %d", c.name, i, s.Base, want)
			}
			if s.Base != 0 {
				nonzero++
			}
		}
		if c.based && nonzero == 0 {
			t.Errorf("%s: every base score is 0; want the classical scores", c.name)
		}
	}
}

func TestSortChunkPathsByNumber(t *testing.T) {
	cases := []struct {
		name     string
		in, want []int
	}{
		{"below 10,000", []int{12, 3, 999, 1000, 0}, []int{0, 3, 12, 999, 1000}},
		{"across 10,000", []int{10000, 1000, 9999, 1001, 10001, 100000}, []int{1000, 1001, 9999, 10000, 10001, 100000}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var paths, want []string
			for _, n := range c.in {
				paths = append(paths, chunkIn("gen-0001", n))
			}
			for _, n := range c.want {
				want = append(want, chunkIn("gen-0001", n))
			}
			SortChunkPaths(paths)
			if !slices.Equal(paths, want) {
				t.Fatalf("got %v, want %v", paths, want)
			}
		})
	}
	// Folders stay together, in the order of their names.
	paths := []string{chunkIn("b", 10000), chunkIn("a", 10000), chunkIn("b", 2), chunkIn("a", 2)}
	SortChunkPaths(paths)
	want := []string{chunkIn("a", 2), chunkIn("a", 10000), chunkIn("b", 2), chunkIn("b", 10000)}
	if !slices.Equal(paths, want) {
		t.Fatalf("across folders: got %v, want %v", paths, want)
	}
}
