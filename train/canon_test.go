package train

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"bomberzero/datasets"
	"bomberzero/env"
)

// canonGames makes n small games whose positions all differ.
func canonGames(n int) []*datasets.GameRecord {
	rng := rand.New(rand.NewPCG(9, 9))
	games := make([]*datasets.GameRecord, n)
	for i := range games {
		plies := 2 + rng.IntN(6)
		g := &datasets.GameRecord{ID: fmt.Sprintf("%016x", 100+i), Variant: "fbgc", Model: "gen-000", Length: plies, Termination: env.LengthCap}
		for ply := range plies {
			g.Positions = append(g.Positions, datasets.PositionRecord{Ply: ply, Position: fmt.Sprintf("game %d ply %d", i, ply),
				WhiteToMove: ply%2 == 0, Value: float32(rng.Float64()*2 - 1), FullSearch: true, Played: "m",
				PolicyIndex: []int32{int32(rng.IntN(100)), int32(100 + rng.IntN(100))}, MoveText: []string{"a", "b"}, Visits: []float32{0.25, 0.75}})
		}
		games[i] = g
	}
	return games
}

// windowOf writes each of chunks as one chunk, in order, in a new
// directory and returns a refreshed window of cfg over them.
func windowOf(t *testing.T, cfg datasets.WindowConfig, chunks ...[]*datasets.GameRecord) *datasets.Window {
	t.Helper()
	dir := t.TempDir()
	for _, games := range chunks {
		w, err := datasets.NewChunkWriter(dir, datasets.ChunkMeta{Writer: "t"})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if err := w.AddGame(g); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // chunks are ordered by creation time
	}
	win, err := datasets.NewWindow(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := win.Refresh(); err != nil {
		t.Fatal(err)
	}
	return win
}

// TestCanonicalWindowSamplesByContent: the same games, written as different
// chunks in a different order (as a killed and resumed run, or self-play
// workers finishing in another order, write them), give the same samples
// for the same generator state, although the windows list their positions
// in different orders.
func TestCanonicalWindowSamplesByContent(t *testing.T) {
	games := canonGames(7)
	write := func(chunks [][]int) *datasets.Window {
		recs := make([][]*datasets.GameRecord, len(chunks))
		for i, nums := range chunks {
			for _, k := range nums {
				recs[i] = append(recs[i], games[k])
			}
		}
		return windowOf(t, datasets.WindowConfig{Size: 1000}, recs...)
	}
	draw := func(c *canonicalWindow) []datasets.Sample {
		rng := rand.New(rand.NewPCG(1, 2))
		s := make([]datasets.Sample, 40)
		if err := c.Sample(rng, s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	layouts := [][][]int{
		{{0, 1, 2, 3, 4, 5, 6}},
		{{0, 2, 3}, {1, 4}, {6, 5}}, // as a kill after games 0, 2, 3 and a resume leave them
		{{6}, {5}, {4, 3}, {2, 1, 0}},
	}
	var want []datasets.Sample
	var first *datasets.Window
	for i, chunks := range layouts {
		win := write(chunks)
		c := &canonicalWindow{w: win}
		if err := c.refresh(); err != nil {
			t.Fatal(err)
		}
		got := draw(c)
		if i == 0 {
			want, first = got, win
			continue
		}
		if win.Len() != first.Len() {
			t.Fatalf("layout %d: %d positions, want %d", i, win.Len(), first.Len())
		}
		if reflect.DeepEqual(win.At(0), first.At(0)) && reflect.DeepEqual(win.At(win.Len()-1), first.At(first.Len()-1)) {
			t.Errorf("layout %d: the window lists its positions as layout 0's does: the test shows nothing", i)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("layout %d %v: the samples differ from layout 0's", i, chunks)
		}
	}
}

// TestCanonicalWindowEmpty: sampling an empty window is an error, not a
// panic.
func TestCanonicalWindowEmpty(t *testing.T) {
	win, err := datasets.NewWindow(t.TempDir(), datasets.WindowConfig{Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	c := &canonicalWindow{w: win}
	if err := c.refresh(); err != nil {
		t.Fatal(err)
	}
	if err := c.Sample(rand.New(rand.NewPCG(1, 1)), make([]datasets.Sample, 1)); err == nil {
		t.Error("sampling an empty window succeeded")
	}
}

// TestCanonicalOrderSeesTheShortTermTarget: two games through one
// position give it rows equal in every field of the chunk but different
// short-term targets (their later values differ); the canonical order
// must not depend on which game the window lists first.
func TestCanonicalOrderSeesTheShortTermTarget(t *testing.T) {
	game := func(id string, later float32) *datasets.GameRecord {
		g := &datasets.GameRecord{ID: id, Variant: "fbgc", Model: "gen-000", Length: 3, Termination: env.LengthCap}
		for ply := range 3 {
			pos, v := "shared start", float32(0.1)
			if ply > 0 {
				pos, v = fmt.Sprintf("%s ply %d", id, ply), later
			}
			g.Positions = append(g.Positions, datasets.PositionRecord{Ply: ply, Position: pos, WhiteToMove: ply%2 == 0, Value: v,
				FullSearch: true, Played: "m", PolicyIndex: []int32{1, 2}, MoveText: []string{"a", "b"}, Visits: []float32{0.5, 0.5}})
		}
		return g
	}
	a, b := game("00000000000000a1", 0.9), game("00000000000000b2", -0.9)
	order := func(games ...*datasets.GameRecord) []datasets.Sample {
		win := windowOf(t, datasets.WindowConfig{Size: 100, ShortHorizon: 3}, games)
		c := &canonicalWindow{w: win}
		if err := c.refresh(); err != nil {
			t.Fatal(err)
		}
		out := make([]datasets.Sample, c.Len())
		for i, idx := range c.order {
			out[i] = win.At(int(idx))
		}
		return out
	}
	ab, ba := order(a, b), order(b, a)
	var short []float32
	for _, s := range ab {
		if s.Position == "shared start" {
			short = append(short, s.ShortValue)
		}
	}
	if len(short) != 2 || short[0] == short[1] {
		t.Fatalf("the shared position's short-term targets %v: the test needs two that differ", short)
	}
	if !reflect.DeepEqual(ab, ba) {
		t.Error("the canonical order of the same games depends on the order the window lists them")
	}
}
