package train

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/eval"
	"bomberzero/mcts"
	"bomberzero/nn"
	"bomberzero/selfplay"
)

// TestTrainingEncodesWhatSelfPlaySaw plays self-play games, replays each
// recorded game move by move as self-play played it (history included),
// and checks that every full-search position, read back through the chunk
// files, the window and fillBatch, encodes to exactly the planes and legal
// mask self-play's search saw: every plane, the repetition plane (from the
// repetitions column) and the fifty-move counter (from the text) included.
// The king-and-knight ending repeats positions often, so repetition counts
// above 0 are met and checked.
func TestTrainingEncodesWhatSelfPlaySaw(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		variant, start string
		games          int
	}{
		{"chess", "4k3/8/8/8/8/8/8/3NK3 w - - 0 1", 8},
		{"fbgc", "", 4},
		{"claustrophobia", "", 4},
		{"birds-ninjas+scepter", "", 4},
	}
	repeated := 0
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			cfg, err := selfplay.DefaultConfig(c.variant)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Start = c.start
			cfg.Games, cfg.Workers, cfg.Slots, cfg.MaxPlies, cfg.FlushGames = c.games, 1, 4, 60, 2
			cfg.ResignMoves = 0
			cfg.Out = t.TempDir()
			cfg.Search = mcts.DefaultConfig()
			cfg.Search.Sims, cfg.Search.TempPlies, cfg.Search.CacheEntries = 8, 60, 1<<10
			// Every search full, so every position is a training sample:
			// with the default cheap share a repeated position was a
			// sample in only some seeds' games.
			cfg.Search.CheapShare = 0
			if _, err := selfplay.Run(context.Background(), cfg, nil); err != nil {
				t.Fatal(err)
			}
			v, err := env.LoadVariant(c.variant)
			if err != nil {
				t.Fatal(err)
			}
			rules := agent.NewRules(v, cfg.MaxPlies)
			s := rules.Shape()
			in, ps := s.InputSize(), s.PolicySize

			// What self-play saw, by position text and ply.
			type seen struct {
				planes, legal []float32
				reps          int
			}
			want := map[string][]seen{}
			chunks, problems, err := datasets.List(cfg.Out)
			if err != nil || len(problems) > 0 {
				t.Fatalf("listing chunks: %v %v", problems, err)
			}
			for _, info := range chunks {
				ch, err := datasets.ReadChunk(info.Path)
				if err != nil {
					t.Fatal(err)
				}
				for _, g := range datasets.Games(ch.Rows) {
					p := v.NewPosition()
					if c.start != "" {
						if p, err = v.ParsePosition(c.start); err != nil {
							t.Fatal(err)
						}
					}
					for _, rec := range g.Positions {
						if rec.Ply != p.Ply() || rec.Position != p.String() || rec.Repetitions != p.Repetitions() {
							t.Fatalf("game %s ply %d: recorded %q with %d repetitions, replayed %q with %d",
								g.ID, rec.Ply, rec.Position, rec.Repetitions, p, p.Repetitions())
						}
						sw := seen{planes: make([]float32, in), legal: make([]float32, ps), reps: p.Repetitions()}
						rules.NewGame(p.Clone()).Encode(sw.planes)
						for _, m := range p.LegalMoves(nil) {
							sw.legal[rules.Index.Index(m, p.SideToMove())] = 1
						}
						key := fmt.Sprintf("%d %s", rec.Ply, rec.Position)
						want[key] = append(want[key], sw)
						m, err := p.ParseMove(rec.Played)
						if err != nil {
							t.Fatalf("game %s ply %d: %v", g.ID, rec.Ply, err)
						}
						p.DoMove(m)
					}
				}
			}

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
			b := &nn.TrainBatch{Batch: eval.Batch{Planes: make([]float32, len(samples)*in), Legal: make([]float32, len(samples)*ps),
				Policy: make([]float32, len(samples)*ps), WDL: make([]float32, 3*len(samples)), MovesLeft: make([]float32, len(samples))}}
			if err := fillBatch(rules, samples, 0, b); err != nil {
				t.Fatal(err)
			}
			for i, smp := range samples {
				planes, legal := b.Planes[i*in:(i+1)*in], b.Legal[i*ps:(i+1)*ps]
				cands := want[fmt.Sprintf("%d %s", smp.Ply, smp.Position)]
				if len(cands) == 0 {
					t.Fatalf("sample %d (%s) was never played", i, smp.Position)
				}
				ok := false
				for _, sw := range cands {
					ok = ok || slices.Equal(sw.planes, planes) && slices.Equal(sw.legal, legal)
				}
				if !ok {
					sw := cands[0]
					names := rules.Encoder.PlaneNames()
					for k := range planes {
						if planes[k] != sw.planes[k] {
							t.Fatalf("sample %d (%s, %d repetitions in the data, %d in the game): plane %q is %v in training, %v in self-play",
								i, smp.Position, smp.Repetitions, sw.reps, names[k/(s.Height*s.Width)], planes[k], sw.planes[k])
						}
					}
					t.Fatalf("sample %d (%s): the legal mask differs from self-play's", i, smp.Position)
				}
				if smp.Repetitions > 0 {
					repeated++
				}
			}
			t.Logf("%d training samples encode as self-play saw them", len(samples))
		})
	}
	if repeated == 0 {
		t.Error("no sample with a repetition: the test checked nothing about the repetition plane")
	}
	t.Logf("%d samples with a repetition", repeated)
}
