package train

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"bomberzero/datasets"
	"bomberzero/mcts"
	"bomberzero/metrics"
	"bomberzero/progress"
	"bomberzero/selfplay"
)

// currentModel returns the model that plays generation gen's self-play: the
// network-free first model in generation 0 (unless it is "net"), else the
// trainer's network.
func (r *runner) currentModel(rules *selfplay.Rules) (*selfplay.Model, error) {
	if r.st.Generation == 0 && r.cfg.SelfPlay.FirstModel != "net" {
		return selfplay.LoadModel("none", r.cfg.SelfPlay.FirstModel, rules)
	}
	return selfplay.NewNetModel(genName(r.st.Generation), r.trainer.Net().Fold(), rules)
}

// genChunks returns the chunks written during the current generation.
func (r *runner) genChunks() ([]datasets.ChunkInfo, error) {
	chunks, _, err := datasets.List(filepath.Join(r.dir, dataDir))
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if r.st.ChunksAtGenStart > len(chunks) {
		return nil, nil
	}
	return chunks[r.st.ChunksAtGenStart:], nil
}

// selfPlay plays the generation's remaining games with the current model.
// Every finished game is on disk at once, so a kill loses only the games
// in progress; a resume plays the games still missing.
func (r *runner) selfPlay(ctx context.Context) error {
	chunks, err := r.genChunks()
	if err != nil {
		return err
	}
	done := 0
	for _, c := range chunks {
		done += c.Games
	}
	if r.teaching() {
		if err := r.teacherPhase(ctx, done); err != nil {
			return err
		}
	} else if remaining := r.cfg.SelfPlay.gamesIn(r.st.Generation) - done; remaining > 0 {
		model, err := r.currentModel(r.spRules)
		if err != nil {
			return fmt.Errorf("train: self-play model: %w", err)
		}
		sp := r.cfg.SelfPlay
		search := mcts.DefaultConfig()
		search.Sims, search.CheapSims, search.CheapShare = sp.Sims, sp.CheapSims, sp.CheapShare
		search.Gumbel, search.TempPlies = sp.Gumbel, sp.TempPlies
		sc := selfplay.Config{
			Variant: r.cfg.Variant, Model: model.Name, Evaluator: r.cfg.SelfPlay.FirstModel,
			Generation: r.st.Generation, Games: remaining, Out: filepath.Join(r.dir, dataDir),
			Workers: workers(sp.Workers), Slots: min(sp.Slots, max(1, (remaining+1)/workers(sp.Workers))), Search: search,
			MaxPlies: sp.MaxPlies, ResignThreshold: sp.ResignThreshold, ResignMoves: sp.ResignMoves,
			ResignOffShare: sp.ResignOffShare, FlushGames: 1,
			Seed: mix(r.cfg.Seed, uint64(r.st.Generation)<<32|uint64(done)),
		}
		bar := progress.New(r.opt.Progress, remaining, fmt.Sprintf("gen %d self-play", r.st.Generation), "games")
		t0 := time.Now()
		shown := 0
		_, err = selfplay.RunModel(ctx, sc, r.spRules, model, func(p selfplay.Progress) {
			// Only a change of count feeds the bar's rate and ETA; the
			// positions rate shows the work between finished games.
			if bar != nil && p.Games != shown {
				shown = p.Games
				bar.Describe(fmt.Sprintf("gen %d self-play (%.0f positions/s)", r.st.Generation, float64(p.Positions)/max(p.Elapsed.Seconds(), 1e-9)))
				bar.Set(p.Games)
			}
		})
		if ctx.Err() == nil {
			bar.Finish()
		} else {
			bar.Stop() // stopped: leave the bar where it was
		}
		r.st.SelfPlaySeconds += time.Since(t0).Seconds()
		if serr := r.save(); err == nil {
			err = serr
		}
		if err != nil {
			return fmt.Errorf("train: self-play: %w", err)
		}
		if ctx.Err() != nil {
			return errStop
		}
	}
	if err := r.collectRecords(); err != nil {
		return err
	}
	r.st.Phase = phaseTrain
	return r.save()
}

// selfPlaySummary reads the generation's games back from its chunks.
func (r *runner) selfPlaySummary() (*metrics.SelfPlay, error) {
	chunks, err := r.genChunks()
	if err != nil {
		return nil, err
	}
	s := &metrics.SelfPlay{Seconds: r.st.SelfPlaySeconds}
	plies := 0
	for _, info := range chunks {
		c, err := datasets.ReadChunk(info.Path)
		if err != nil {
			return nil, fmt.Errorf("train: self-play summary: %w", err)
		}
		for _, g := range datasets.Games(c.Rows) {
			if g.Generation != r.st.Generation {
				continue
			}
			s.Games++
			s.Positions += len(g.Positions)
			plies += g.Length
			switch g.Result {
			case 1:
				s.WhiteWins++
			case -1:
				s.BlackWins++
			default:
				s.Draws++
			}
		}
	}
	if s.Games > 0 {
		s.MeanPlies = float64(plies) / float64(s.Games)
	}
	if s.Seconds > 0 {
		s.GamesPerHour = float64(s.Games) * 3600 / s.Seconds
	}
	return s, nil
}

// workers is n, or one per core when n is 0.
func workers(n int) int {
	if n > 0 {
		return n
	}
	return max(1, runtimeCPUs())
}
