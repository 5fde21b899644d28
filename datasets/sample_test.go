package datasets

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// A Window's positions and RowSample of the chunk's full-search rows are
// the same samples, in the same order.
func TestRowSampleIsWhatTheWindowHandsTheTrainer(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 7))
	path := writeChunkAt(t, dir, time.Unix(1e9, 0), synthGames(rng, "g", 40))
	w, err := NewWindow(dir, WindowConfig{Size: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	c, err := ReadChunk(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []Sample
	for i := range c.Rows {
		if c.Rows[i].FullSearch {
			want = append(want, RowSample(&c.Rows[i]))
		}
	}
	if len(want) != w.Len() || len(want) == 0 {
		t.Fatalf("%d full-search rows, window holds %d", len(want), w.Len())
	}
	for i := range want {
		got := w.At(i)
		if len(got.PolicyIndex) == 0 {
			got.PolicyIndex, got.Visits = nil, nil
		}
		if !reflect.DeepEqual(got, want[i]) {
			t.Fatalf("position %d: window %+v, RowSample %+v", i, got, want[i])
		}
	}
}

// DrawGames takes at most perGame full-search positions of each game, in
// ply order, the same ones on every call, and stops at maxGames.
func TestDrawGamesDrawsFullSearchPositionsPerGameRepeatably(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 3))
	games := synthGames(rng, "g", 30)
	for _, g := range games {
		g.Variant = "chess"
	}
	writeChunkAt(t, dir, time.Unix(1e9, 0), games[:20])
	writeChunkAt(t, dir, time.Unix(2e9, 0), games[20:])
	chunks, _, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	withFull, allFull := 0, 0 // games with a full-search position, and those positions
	for _, g := range games {
		n := 0
		for _, p := range g.Positions {
			if p.FullSearch {
				n++
			}
		}
		allFull += n
		if n > 0 {
			withFull++
		}
	}
	for _, c := range []struct {
		perGame, maxGames int
		wantGames         int
	}{{1, 0, withFull}, {3, 0, withFull}, {100, 0, withFull}, {3, 5, 5}} {
		var skipped []error
		got := DrawGames(chunks, "chess", c.perGame, c.maxGames, 9, nil, func(err error) { skipped = append(skipped, err) })
		if len(got) != c.wantGames || len(skipped) != 0 {
			t.Fatalf("perGame %d, maxGames %d: %d games, %v skipped; want %d games, none skipped", c.perGame, c.maxGames, len(got), skipped, c.wantGames)
		}
		drawn := 0
		for _, g := range got {
			drawn += len(g)
		}
		if c.perGame == 100 && drawn != allFull {
			t.Fatalf("with no cap, %d positions drawn of %d full-search ones", drawn, allFull)
		}
		for k, g := range got {
			if len(g) == 0 || len(g) > c.perGame {
				t.Fatalf("perGame %d: game %d has %d positions", c.perGame, k, len(g))
			}
			for i := 1; i < len(g); i++ {
				if g[i].Ply <= g[i-1].Ply {
					t.Fatalf("game %d: plies %d then %d, want ply order", k, g[i-1].Ply, g[i].Ply)
				}
			}
		}
		if again := DrawGames(chunks, "chess", c.perGame, c.maxGames, 9, nil, nil); !reflect.DeepEqual(again, got) {
			t.Fatalf("perGame %d: a second draw with the same seed differs", c.perGame)
		}
	}
	if got := DrawGames(chunks, "no-such-variant", 3, 0, 9, nil, nil); len(got) != 0 {
		t.Fatalf("%d games of a variant the chunks do not hold", len(got))
	}
}
