package datasets

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// eligibleTexts returns the position texts of games that a window keeps,
// in row order, each with its repetition count ("text|n").
func eligibleTexts(games []*GameRecord, includeCheap bool) []string {
	var texts []string
	for _, g := range games {
		for _, p := range g.Positions {
			if p.FullSearch || includeCheap {
				texts = append(texts, fmt.Sprintf("%s|%d", p.Position, p.Repetitions))
			}
		}
	}
	return texts
}

// windowTexts returns the window's positions oldest first, as eligibleTexts
// writes them.
func windowTexts(w *Window) []string {
	texts := make([]string, w.Len())
	for i := range texts {
		s := w.At(i)
		texts[i] = fmt.Sprintf("%s|%d", s.Position, s.Repetitions)
	}
	return texts
}

// TestWindowHoldsExactlyTheNewestPositions writes chunks out of name order
// (creation times decide), fills a window, then adds chunks and refreshes:
// each time the window must be exactly the newest Size eligible positions.
func TestWindowHoldsExactlyTheNewestPositions(t *testing.T) {
	for _, cheap := range []bool{false, true} {
		t.Run(fmt.Sprintf("IncludeCheap=%v", cheap), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(21, 22))
			dir := t.TempDir()
			var all []string
			add := func(k int) {
				games := synthGames(rng, fmt.Sprintf("c%d", k), 8)
				labelPositions(games)
				writeChunkAt(t, dir, t0.Add(time.Duration(k)*time.Minute), games)
				all = append(all, eligibleTexts(games, cheap)...)
			}
			for k := 0; k < 5; k++ {
				add(k)
			}
			const size = 150
			w, err := NewWindow(dir, WindowConfig{Size: size, IncludeCheap: cheap})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := w.Refresh()
			if err != nil || len(rep.Problems) > 0 {
				t.Fatal(err, rep.Problems)
			}
			if len(all) <= size {
				t.Fatalf("test needs more than %d positions, has %d", size, len(all))
			}
			if got, want := windowTexts(w), all[len(all)-size:]; !slices.Equal(got, want) {
				t.Fatalf("window holds %d positions %v...; want the newest %d %v...", len(got), got[:3], size, want[:3])
			}
			if w.Arrived() != int64(len(all)) || rep.NewPositions != len(all) || rep.NewChunks != 5 {
				t.Errorf("Arrived %d, report %+v; want %d positions in 5 chunks", w.Arrived(), rep, len(all))
			}
			before := len(all)
			add(6)
			add(5) // written later, but created earlier than chunk 6
			rep, err = w.Refresh()
			if err != nil {
				t.Fatal(err)
			}
			// Chunk 5 is older than chunk 6: recompute the truth in chunk order.
			all = nil
			chunks, _, _ := List(dir)
			for _, info := range chunks {
				c, err := ReadChunk(info.Path)
				if err != nil {
					t.Fatal(err)
				}
				for _, g := range Games(c.Rows) {
					all = append(all, eligibleTexts([]*GameRecord{&g}, cheap)...)
				}
			}
			if got, want := windowTexts(w), all[len(all)-size:]; !slices.Equal(got, want) {
				t.Fatalf("after new chunks the window is not the newest %d positions", size)
			}
			if rep.NewChunks != 2 || w.Arrived() != int64(len(all)) || rep.NewPositions != len(all)-before {
				t.Errorf("report %+v, Arrived %d; want 2 new chunks, %d new positions, %d arrived", rep, w.Arrived(), len(all)-before, len(all))
			}
			if rep.Dropped == 0 {
				t.Errorf("no chunk left the window although %d positions arrived into a window of %d", len(all)-before, size)
			}
		})
	}
}

func TestWindowExcludesCheapSearchesByDefault(t *testing.T) {
	dir := t.TempDir()
	games := synthGames(rand.New(rand.NewPCG(3, 9)), "g", 20)
	writeChunkAt(t, dir, t0, games)
	w, _ := NewWindow(dir, WindowConfig{Size: 1 << 20})
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	full := len(eligibleTexts(games, false))
	if w.Len() != full || full == len(eligibleTexts(games, true)) {
		t.Fatalf("window has %d positions; want the %d full searches (of %d)", w.Len(), full, len(eligibleTexts(games, true)))
	}
	var batch [64]Sample
	if err := w.Sample(rand.New(rand.NewPCG(1, 1)), batch[:]); err != nil {
		t.Fatal(err)
	}
	for _, s := range batch {
		sum := float32(0)
		for _, v := range s.Visits {
			if v <= 0 {
				t.Fatalf("sample %s keeps a move without visits", s.Position)
			}
			sum += v
		}
		if len(s.PolicyIndex) != len(s.Visits) || math.Abs(float64(sum-1)) > 1e-3 {
			t.Fatalf("sample %s: %d indices, %d visits summing to %v; want equal lengths summing to 1", s.Position, len(s.PolicyIndex), len(s.Visits), sum)
		}
		if s.Result != -1 && s.Result != 0 && s.Result != 1 {
			t.Fatalf("sample %s: result %v", s.Position, s.Result)
		}
	}
}

func TestWindowSamplesReproduciblyFromASeed(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(4, 4))
	for k := 0; k < 3; k++ {
		games := synthGames(rng, fmt.Sprintf("c%d", k), 10)
		labelPositions(games)
		writeChunkAt(t, dir, t0.Add(time.Duration(k)*time.Second), games)
	}
	draw := func(seed uint64) []string {
		w, _ := NewWindow(dir, WindowConfig{Size: 200})
		if _, err := w.Refresh(); err != nil {
			t.Fatal(err)
		}
		batch := make([]Sample, 100)
		if err := w.Sample(rand.New(rand.NewPCG(seed, 0)), batch); err != nil {
			t.Fatal(err)
		}
		texts := make([]string, len(batch))
		for i, s := range batch {
			texts[i] = s.Position
		}
		return texts
	}
	a, b, c := draw(7), draw(7), draw(8)
	if !slices.Equal(a, b) {
		t.Error("two windows over the same chunks with the same seed drew different batches")
	}
	if slices.Equal(a, c) {
		t.Error("seeds 7 and 8 drew the same batch")
	}
}

// TestWindowSamplesUniformly draws many samples from a window of known
// positions and applies a chi-square test: with k bins the statistic has
// mean k-1 and standard deviation sqrt(2(k-1)); the bound is six standard
// deviations either side (fixed seed, so the outcome is deterministic, and
// a sampler biased by even a few percent per bin would fail).
func TestWindowSamplesUniformly(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 5))
	for k := 0; k < 6; k++ {
		games := synthGames(rng, fmt.Sprintf("c%d", k), 12)
		labelPositions(games)
		writeChunkAt(t, dir, t0.Add(time.Duration(k)*time.Second), games)
	}
	const size = 500
	w, _ := NewWindow(dir, WindowConfig{Size: size})
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	if w.Len() != size || len(w.Chunks()) < 3 {
		t.Fatalf("window holds %d positions in %d chunks; the test wants %d across several chunks", w.Len(), len(w.Chunks()), size)
	}
	bin := map[string]int{}
	for i := 0; i < size; i++ {
		bin[w.At(i).Position] = i
	}
	draws := 200 * size
	if testing.Short() {
		draws = 50 * size
	}
	counts := make([]int, size)
	batch := make([]Sample, 1000)
	srng := rand.New(rand.NewPCG(99, 0))
	for n := 0; n < draws; n += len(batch) {
		if err := w.Sample(srng, batch); err != nil {
			t.Fatal(err)
		}
		for _, s := range batch {
			i, ok := bin[s.Position]
			if !ok {
				t.Fatalf("drew %s, which is not in the window", s.Position)
			}
			counts[i]++
		}
	}
	expect := float64(draws) / size
	chi2 := 0.0
	for _, c := range counts {
		d := float64(c) - expect
		chi2 += d * d / expect
	}
	df := float64(size - 1)
	sd := math.Sqrt(2 * df)
	if math.Abs(chi2-df) > 6*sd {
		t.Errorf("chi-square %.1f over %d bins, want %.0f ± %.0f (6 sd): samples are not uniform", chi2, size, df, 6*sd)
	}
	// The oldest and newest halves of the window must be drawn equally often.
	old := 0
	for _, c := range counts[:size/2] {
		old += c
	}
	if frac := float64(old) / float64(draws); math.Abs(frac-0.5) > 6*0.5/math.Sqrt(float64(draws)) {
		t.Errorf("older half drawn %.4f of the time, want 0.5", frac)
	}
}

func TestWindowSkipsACorruptChunkAndFillsFromOlderOnes(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(6, 6))
	var paths []string
	var texts [][]string
	for k := 0; k < 4; k++ {
		games := synthGames(rng, fmt.Sprintf("c%d", k), 6)
		labelPositions(games)
		paths = append(paths, writeChunkAt(t, dir, t0.Add(time.Duration(k)*time.Second), games))
		texts = append(texts, eligibleTexts(games, false))
	}
	data, _ := os.ReadFile(paths[3])
	data[len(data)/2] ^= 1
	os.WriteFile(paths[3], data, 0o644)

	size := len(texts[2]) + 5
	w, _ := NewWindow(dir, WindowConfig{Size: size})
	rep, err := w.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 1 || rep.Problems[0].Path != paths[3] {
		t.Fatalf("problems %v; want the corrupt newest chunk %s", rep.Problems, paths[3])
	}
	want := append(texts[1][len(texts[1])-5:], texts[2]...)
	if got := windowTexts(w); !slices.Equal(got, want) {
		t.Fatalf("window is not chunk 2 plus the end of chunk 1")
	}
	if w.Arrived() != int64(len(texts[0])+len(texts[1])+len(texts[2])) {
		t.Errorf("Arrived %d still counts the corrupt chunk", w.Arrived())
	}
	rep, _ = w.Refresh()
	if len(rep.Problems) != 0 {
		t.Errorf("the corrupt chunk was reported again on the next Refresh: %v", rep.Problems)
	}
}

func TestWindowSampleDoesNotAllocate(t *testing.T) {
	dir := t.TempDir()
	writeChunkAt(t, dir, t0, synthGames(rand.New(rand.NewPCG(8, 8)), "g", 20))
	w, _ := NewWindow(dir, WindowConfig{Size: 1000})
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	batch := make([]Sample, 256)
	if n := testing.AllocsPerRun(20, func() { w.Sample(rng, batch) }); n != 0 {
		t.Errorf("Sample allocates %v times per batch, want 0", n)
	}
}

func TestEmptyWindowRefusesToSample(t *testing.T) {
	w, err := NewWindow(t.TempDir(), WindowConfig{Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	if err := w.Sample(rand.New(rand.NewPCG(1, 1)), make([]Sample, 1)); err == nil {
		t.Error("Sample from an empty window succeeded")
	}
	if _, err := NewWindow("x", WindowConfig{}); err == nil {
		t.Error("NewWindow with Size 0 succeeded")
	}
}

// TestWindowSamplesCarryTheirPlyAndGameLength checks that every sample
// carries its own position's ply and its game's length (the moves-left
// target is their difference), over games of different lengths.
func TestWindowSamplesCarryTheirPlyAndGameLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	dir := t.TempDir()
	games := synthGames(rng, "g", 6)
	labelPositions(games)
	writeChunkAt(t, dir, t0, games)
	type truth struct{ ply, length int32 }
	want := map[string]truth{}
	lengths := map[int]bool{}
	for _, g := range games {
		lengths[g.Length] = true
		for _, p := range g.Positions {
			want[p.Position] = truth{int32(p.Ply), int32(g.Length)}
		}
	}
	if len(lengths) < 2 {
		t.Fatalf("the games all have length %v: the test proves too little", lengths)
	}
	w, err := NewWindow(dir, WindowConfig{Size: 1 << 20, IncludeCheap: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	if w.Len() != len(want) {
		t.Fatalf("window holds %d positions, the games %d", w.Len(), len(want))
	}
	for i := range w.Len() {
		s := w.At(i)
		if got := (truth{s.Ply, s.GameLength}); got != want[s.Position] {
			t.Fatalf("sample %q: ply %d, game length %d; want %+v", s.Position, s.Ply, s.GameLength, want[s.Position])
		}
	}
}

// TestWindowSamplesCarryTheirShortTermValue: with a horizon, every sample's
// ShortValue is ShortValues' over its chunk's rows (cheap searches kept out
// of the window still count in their games' targets); without, 0.
func TestWindowSamplesCarryTheirShortTermValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	dir := t.TempDir()
	games := synthGames(rng, "g", 5)
	labelPositions(games)
	path := writeChunkAt(t, dir, t0, games)
	_, rows, err := readTrainRows(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float32{}
	for i, v := range ShortValues(rows, 6) {
		want[rows[i].Position] = v
	}
	nonzero := 0
	for _, horizon := range []float64{6, 0} {
		w, err := NewWindow(dir, WindowConfig{Size: 1 << 20, ShortHorizon: horizon})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Refresh(); err != nil {
			t.Fatal(err)
		}
		for i := range w.Len() {
			s := w.At(i)
			switch {
			case horizon == 0 && s.ShortValue != 0:
				t.Fatalf("no horizon: sample %q has short-term value %v", s.Position, s.ShortValue)
			case horizon > 0 && s.ShortValue != want[s.Position]:
				t.Fatalf("sample %q: short-term value %v, want %v", s.Position, s.ShortValue, want[s.Position])
			case horizon > 0 && s.ShortValue != 0:
				nonzero++
			}
		}
	}
	if nonzero == 0 {
		t.Error("every short-term value is 0: the test proves too little")
	}
}

// A chunk with a game of another variant than WindowConfig.Variant is
// unusable, named, and wraps ErrForeign and ErrCorrupt (issue 34).
func TestWindowRefusesAChunkOfAnotherVariant(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(9, 9))
	mine := synthGames(rng, "a", 4)
	for _, g := range mine {
		g.Variant = "fbgc"
	}
	labelPositions(mine)
	writeChunkAt(t, dir, t0, mine)
	theirs := synthGames(rng, "b", 4)
	for _, g := range theirs {
		g.Variant = "fbgc"
	}
	theirs[2].Variant = "chess"
	labelPositions(theirs)
	foreign := writeChunkAt(t, dir, t0.Add(time.Second), theirs)
	w, _ := NewWindow(dir, WindowConfig{Size: 1000, Variant: "fbgc"})
	rep, err := w.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 1 || rep.Problems[0].Path != foreign || !errors.Is(rep.Problems[0], ErrForeign) || !errors.Is(rep.Problems[0], ErrCorrupt) ||
		!strings.Contains(rep.Problems[0].Error(), `"chess"`) {
		t.Fatalf("problems %v; want the chunk %s of another variant", rep.Problems, foreign)
	}
	if got, want := windowTexts(w), eligibleTexts(mine, false); !slices.Equal(got, want) {
		t.Errorf("the window holds %d positions, want the %d of the fbgc chunk", len(got), len(want))
	}
}
