package selfplay

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// TestPlayoutCapRecordsFullSearchesAsTargets runs self-play with
// playout-cap randomization (selfplay.cheap_share, cheap_sims) and reads
// its data back: the share of rows marked full_search (the only ones a
// training window keeps, datasets.WindowConfig.IncludeCheap) is 1 -
// cheap_share within four binomial standard deviations, and every cheap
// row's visit distribution is one of at most cheap_sims playouts (each
// share a multiple of 1/n for one n <= cheap_sims; tree reuse and the
// solver are off so that the targets are the search's own visits). Resuming a killed run is
// train's kill tests' (their self-play has cheap searches on).
func TestPlayoutCapRecordsFullSearchesAsTargets(t *testing.T) {
	const sims, cheapSims = 24, 3
	for _, share := range []float64{0, 0.5, 0.8} {
		t.Run(fmt.Sprintf("cheap_share=%g", share), func(t *testing.T) {
			cfg := smallConfig(t, "fbgc", 24)
			cfg.MaxPlies = 60
			cfg.ResignMoves = 0
			cfg.Search.Sims, cfg.Search.CheapSims, cfg.Search.CheapShare = sims, cheapSims, share
			cfg.Search.Reuse = false
			cfg.Search.Solver = false // its proofs share a target among moves, whatever the visits
			sum, err := Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			full, rows := 0, 0
			for _, g := range readRun(t, cfg.Out) {
				for _, p := range g.Positions {
					rows++
					if p.FullSearch {
						full++
						continue
					}
					if !fromPlayouts(p.Visits, cheapSims) {
						t.Fatalf("game %s ply %d: cheap row's visits %v are not of %d playouts or fewer", g.ID, p.Ply, p.Visits, cheapSims)
					}
				}
			}
			if rows != sum.Positions || rows < 1000 {
				t.Fatalf("%d rows read, %d reported, want the same and at least 1000", rows, sum.Positions)
			}
			want := 1 - share
			sd := math.Sqrt(want * (1 - want) / float64(rows))
			if got := float64(full) / float64(rows); math.Abs(got-want) > 4*sd+1e-9 {
				t.Fatalf("%d of %d rows full searches (%.3f), want %.3f +- %.3f", full, rows, got, want, 4*sd)
			}
		})
	}
}

// fromPlayouts reports whether every share in visits is a multiple of 1/n
// for one n from 1 to most.
func fromPlayouts(visits []float32, most int) bool {
	for n := 1; n <= most; n++ {
		ok := true
		for _, v := range visits {
			x := float64(v) * float64(n)
			if math.Abs(x-math.Round(x)) > 1e-4 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
