package train

import (
	"context"
	"fmt"
	"testing"

	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/mcts"
	"bomberzero/nn"
	"bomberzero/selfplay"
)

// TestTrainingBatchEncodesWhatSelfPlaySaw runs real self-play into chunks,
// replays every recorded game move by move with self-play's own game
// adapter to get the planes its search encoded at each position, then
// reads the chunks back through the training window into a training batch
// and checks that the batch holds the same planes, the length-cap plane
// included. Positions that repeat an earlier one are skipped: their
// repetition plane is not in the data (the position text has no history).
func TestTrainingBatchEncodesWhatSelfPlaySaw(t *testing.T) {
	const maxPlies = 24 // short, so that many games reach the cap and the plane reaches 1
	cfg := selfplay.DefaultConfig("fbgc")
	cfg.Games, cfg.Out, cfg.Workers, cfg.Slots, cfg.MaxPlies, cfg.FlushGames = 4, t.TempDir(), 1, 2, maxPlies, 2
	cfg.Search = mcts.DefaultConfig()
	cfg.Search.Sims, cfg.Search.CheapSims, cfg.Search.CheapShare, cfg.Search.CacheEntries = 8, 4, 0.3, 1<<10
	if _, err := selfplay.Run(context.Background(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	v, err := env.LoadVariant("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	rules := selfplay.NewRules(v, maxPlies)
	s := rules.Shape()
	in := s.InputSize()

	// What self-play's search encoded, by (ply, position text).
	want := map[string][]float32{}
	skipped, capPlane := 0, 0
	chunks, problems, err := datasets.List(cfg.Out)
	if err != nil || len(problems) > 0 || len(chunks) == 0 {
		t.Fatalf("%d chunks, problems %v, error %v", len(chunks), problems, err)
	}
	for _, info := range chunks {
		c, err := datasets.ReadChunk(info.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range datasets.Games(c.Rows) {
			g := rules.NewGame(nil)
			for _, pr := range rec.Positions {
				p := g.Position()
				if p.Ply() != pr.Ply || p.String() != pr.Position {
					t.Fatalf("game %s: replay reached ply %d %q, the record says ply %d %q", rec.ID, p.Ply(), p, pr.Ply, pr.Position)
				}
				planes := make([]float32, in)
				g.Encode(planes)
				key := fmt.Sprint(pr.Ply, " ", pr.Position)
				if p.Repetitions() > 0 {
					skipped++
					want[key] = nil
				} else if _, seen := want[key]; !seen {
					want[key] = planes
				}
				if planes[in-1] != 0 {
					capPlane++
				}
				m, err := p.ParseMove(pr.Played)
				if err != nil {
					t.Fatalf("game %s ply %d: %v", rec.ID, pr.Ply, err)
				}
				p.DoMove(m)
			}
		}
	}
	if capPlane == 0 {
		t.Fatal("no position had a non-zero length-cap plane: the test proves nothing")
	}

	// The same positions through the training window and batch.
	w, err := datasets.NewWindow(cfg.Out, datasets.WindowConfig{Size: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Refresh(); err != nil {
		t.Fatal(err)
	}
	samples := make([]datasets.Sample, w.Len())
	for i := range samples {
		samples[i] = w.At(i)
	}
	netCfg := nn.TestConfig(s.Channels, s.Height, s.Width, s.PolicySize/(s.Height*s.Width))
	b := nn.NewTrainBatch(netCfg, len(samples))
	if err := fillBatch(rules, samples, 0, b); err != nil {
		t.Fatal(err)
	}
	compared := 0
	for j, smp := range samples {
		planes, ok := want[fmt.Sprint(smp.Ply, " ", smp.Position)]
		if !ok {
			t.Fatalf("sample %d (ply %d %q) is in no recorded game", j, smp.Ply, smp.Position)
		}
		if planes == nil {
			continue
		}
		got := b.Planes[j*in : (j+1)*in]
		for i := range planes {
			if got[i] != planes[i] {
				t.Fatalf("sample %d (ply %d %q): input value %d (plane %d) is %v in the training batch, %v in self-play",
					j, smp.Ply, smp.Position, i, i/(s.Height*s.Width), got[i], planes[i])
			}
		}
		compared++
	}
	if compared < len(samples)/2 {
		t.Fatalf("compared only %d of %d samples (%d repeated positions skipped)", compared, len(samples), skipped)
	}
	t.Logf("%d samples compared, %d with a non-zero cap plane in self-play, %d repeated positions skipped", compared, capPlane, skipped)
}
