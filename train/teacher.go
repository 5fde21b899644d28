package train

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"bomberzero/datasets"
	"bomberzero/internal/progress"
	"bomberzero/selfplay/teacher"
)

// teacherPhase plays the remaining games of the teacher's generation (0,
// and the later ones with teacher rounds): like self-play, every written game is in a
// chunk at once, and a resume plays the games still missing. As in
// self-play the generation's games are numbered, each seeded by its number
// (and its ID made from it), and a resume leaves out the numbers in the
// generation's chunks: the very games an uninterrupted run plays.
func (r *runner) teacherPhase(ctx context.Context, chunks []datasets.ChunkInfo, done int) error {
	tc := r.cfg.Teacher
	games := tc.GamesIn(r.st.Generation)
	remaining := games - done
	if remaining <= 0 {
		return nil
	}
	seed := mix(r.cfg.Seed, uint64(r.st.Generation)<<32|0x7e<<56)
	// Games of a run begun before teacher games were numbered have random
	// IDs: none is skipped, and the remaining count is still right.
	skip, err := doneGames(chunks, seed, games)
	if err != nil {
		return err
	}
	cfg := tc.Settings(r.cfg.Variant, r.st.Generation, remaining)
	cfg.Out = filepath.Join(r.dir, dataDir)
	cfg.Workers = r.cfg.SelfPlay.WorkerCount()
	cfg.FlushGames, cfg.FlushEvery = 16, 10*time.Second
	cfg.Writer = r.st.GenWriter
	cfg.Seed, cfg.SkipGames = seed, skip
	if r.opt.Out != nil && done == 0 {
		fmt.Fprintf(r.opt.Out, "gen %d: teacher %s plays %d games (cap %d plies, %d random plies, policy %s)\n",
			r.st.Generation, cfg.Name(), games, tc.MaxPlies, tc.RandomPlies, tc.Policy)
	}
	cur := r.showPlan(r.rates.teacher.seconds(remaining))
	what := fmt.Sprintf("gen %d teacher %s", r.st.Generation, cfg.Name())
	bar := progress.New(r.opt.Progress, games, r.label(cur, r.rates.teacher.seconds(remaining))+": "+what, "games")
	bar.Resume(done)
	t0 := time.Now()
	played := 0
	sum, err := teacher.Run(ctx, cfg, func(p teacher.Progress) {
		// The time left comes from this call's own rate once it has one.
		live := measured(p.Games, p.Elapsed.Seconds(), r.rates.teacher)
		bar.Describe(fmt.Sprintf("%s: %s (%.0f positions/s)", r.label(cur, live.seconds(remaining-p.Games)), what,
			float64(p.Positions)/max(p.Elapsed.Seconds(), 1e-9)))
		bar.Set(done + p.Games)
	})
	if sum != nil {
		played = sum.Games
	}
	r.rates.teacher = measured(played, time.Since(t0).Seconds(), r.rates.teacher)
	if ctx.Err() == nil && err == nil {
		bar.Finish()
	} else {
		bar.Stop()
	}
	r.st.SelfPlaySeconds += time.Since(t0).Seconds()
	if serr := r.save(); err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("train: teacher: %w", err)
	}
	if ctx.Err() != nil {
		return errStop
	}
	return nil
}

// teaching reports whether the current generation is the teacher's.
func (r *runner) teaching() bool { return r.cfg.Teacher.Teaches(r.st.Generation) }
