package train

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/internal/atomicfile"
	"bomberzero/internal/progress"
	"bomberzero/metrics"
	"bomberzero/selfplay"
	"bomberzero/stats"
)

// currentModel returns the model that plays generation gen's self-play: the
// network-free first model in generation 0 (unless it is "net"), else the
// trainer's network.
func (r *runner) currentModel(rules *agent.Rules) (*agent.Model, error) {
	if spec := r.cfg.NetworkFree(r.st.Generation); spec != "" {
		return agent.LoadModel(spec, rules)
	}
	return agent.NewNetModel(genName(r.st.Generation), r.trainer.Net().Fold(), rules)
}

// newGenWriter returns a writer identity for generation gen's self-play:
// the generation and a random tag, so no other run's or generation's
// chunks share it.
func newGenWriter(gen int) string {
	var tag [6]byte
	rand.Read(tag[:])
	return fmt.Sprintf("train-%s-%s", genName(gen), hex.EncodeToString(tag[:]))
}

// genChunks returns the chunks written during the current generation:
// those its self-play wrote (by writer identity, never by position in the
// directory), each distinct chunk once. It quarantines the directory's
// damaged and duplicate chunks on the way.
func (r *runner) genChunks() ([]datasets.ChunkInfo, error) {
	chunks, problems, err := datasets.List(filepath.Join(r.dir, dataDir))
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	r.quarantine(problems)
	if r.opt.Role == RoleTrainer { // the workers' chunks it collected
		var gen []datasets.ChunkInfo
		for _, c := range chunks {
			if slices.Contains(r.st.GenChunks, c.Name) {
				gen = append(gen, c)
			}
		}
		return gen, nil
	}
	if r.st.GenWriter == "" { // a run from before writer identities
		if r.st.ChunksAtGenStart > len(chunks) {
			return nil, nil
		}
		return chunks[r.st.ChunksAtGenStart:], nil
	}
	var gen []datasets.ChunkInfo
	for _, c := range chunks {
		if strings.HasPrefix(c.Writer, r.st.GenWriter+"-w") {
			gen = append(gen, c)
		}
	}
	return gen, nil
}

// quarantineDir is where damaged and duplicate chunks, and game records
// of games not in the data, are moved: never deleted.
const quarantineDir = "quarantine"

// quarantine moves the damaged and duplicate chunks among problems to
// data/quarantine, saying so on the log writer (Options.Log). A
// chunk that could not be read for another reason (permissions, not a
// regular file) is only reported.
func (r *runner) quarantine(problems []*datasets.ChunkError) {
	dst := filepath.Join(r.dir, dataDir, quarantineDir)
	for _, p := range problems {
		msg := fmt.Sprintf("train: unusable %v", p)
		if errors.Is(p, datasets.ErrCorrupt) || errors.Is(p, datasets.ErrDuplicate) {
			to := filepath.Join(dst, filepath.Base(p.Path))
			err := os.MkdirAll(dst, 0o755)
			if err == nil {
				err = atomicfile.Move(p.Path, to)
			}
			if err != nil {
				msg += fmt.Sprintf(" (could not quarantine it: %v)", err)
			} else {
				msg += "; moved to " + to
			}
		}
		r.logf("%s", msg)
	}
}

// doneGames returns the numbers, of the games 0 to games-1 of a
// generation's self-play seeded by seed, whose games are in chunks (by
// their IDs, selfplay.GameID); nil when chunks hold none.
func doneGames(chunks []datasets.ChunkInfo, seed uint64, games int) (map[int]bool, error) {
	if len(chunks) == 0 {
		return nil, nil
	}
	ids := map[string]bool{}
	for _, info := range chunks {
		c, err := datasets.ReadChunk(info.Path)
		if err != nil {
			return nil, fmt.Errorf("train: the games already played: %w", err)
		}
		for _, row := range c.Rows {
			ids[row.GameID] = true
		}
	}
	done := map[int]bool{}
	for k := range games {
		if ids[selfplay.GameID(seed, k)] {
			done[k] = true
		}
	}
	return done, nil
}

// logf writes a line for the user (a warning or a notice) on the log
// writer; without one on the progress writer, or the output when there is
// no progress writer either.
func (r *runner) logf(format string, args ...any) {
	w := r.opt.Log
	if w == nil {
		w = r.opt.Progress
	}
	if w == nil {
		w = r.opt.Out
	}
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
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
		if err := r.teacherPhase(ctx, chunks, done); err != nil {
			return err
		}
	} else if remaining := r.cfg.GamesIn(r.st.Generation) - done; remaining > 0 {
		model, err := r.currentModel(r.spRules)
		if err != nil {
			return fmt.Errorf("train: self-play model: %w", err)
		}
		// The generation's games are numbered from 0, each seeded by its
		// number (selfplay.GameSeed): a resume leaves out the numbers on
		// disk and plays the others, the very games an uninterrupted run
		// plays.
		seed := mix(r.cfg.Seed, uint64(r.st.Generation)<<32)
		skip, err := doneGames(chunks, seed, r.cfg.GamesIn(r.st.Generation))
		if err != nil {
			return err
		}
		sc := selfplay.Config{
			Variant: r.cfg.Variant, Model: model.Name, Generation: r.st.Generation,
			Out: filepath.Join(r.dir, dataDir), FlushGames: 1, Writer: r.st.GenWriter,
			Seed: seed, SkipGames: skip, Settings: r.cfg.SelfPlay.Settings,
		}
		sc.Games = remaining
		sc.Workers = sc.WorkerCount()
		sc.Slots = min(sc.Slots, max(1, (remaining+1)/sc.Workers))
		cur := r.showPlan(r.rates.selfPlay.seconds(remaining))
		what := fmt.Sprintf("gen %d self-play", r.st.Generation)
		bar := progress.New(r.opt.Progress, remaining, r.label(cur, r.rates.selfPlay.seconds(remaining))+": "+what, "games")
		t0 := time.Now()
		shown := 0
		var sum *selfplay.Summary
		sum, err = selfplay.RunModel(ctx, sc, r.spRules, model, func(p selfplay.Progress) {
			// Only a change of count feeds the bar's rate and ETA; the
			// positions rate shows the work between finished games.
			if bar != nil && p.Games != shown {
				shown = p.Games
				live := measured(p.Games, p.Elapsed.Seconds(), r.rates.selfPlay)
				bar.Describe(fmt.Sprintf("%s: %s (%.0f positions/s)", r.label(cur, live.seconds(remaining-p.Games)), what,
					float64(p.Positions)/max(p.Elapsed.Seconds(), 1e-9)))
				bar.Set(p.Games)
			}
		})
		if ctx.Err() == nil {
			bar.Finish()
		} else {
			bar.Stop() // stopped: leave the bar where it was
		}
		r.st.SelfPlaySeconds += time.Since(t0).Seconds()
		if sum != nil && r.cfg.NetworkFree(r.st.Generation) == "" { // a network-free model's speed is no guide
			r.rates.selfPlay = measured(sum.Games, time.Since(t0).Seconds(), r.rates.selfPlay)
		}
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
	s := &metrics.SelfPlay{Seconds: r.st.SelfPlaySeconds, Terminations: map[string]int{}}
	plies := 0
	var white stats.WDL // White's results
	for _, info := range chunks {
		c, err := datasets.ReadChunk(info.Path)
		if err != nil {
			return nil, fmt.Errorf("train: self-play summary: %w", err)
		}
		for _, g := range datasets.Games(c.Rows) {
			// A trainer's generation also collects games played for an
			// older work order: trained on, not counted as its own.
			if g.Generation != r.st.Generation {
				continue
			}
			s.Games++
			s.Positions += len(g.Positions)
			plies += g.Length
			s.Terminations[g.Termination.String()]++
			white.Count(g.Result)
		}
	}
	s.WhiteWins, s.Draws, s.BlackWins = white.Wins, white.Draws, white.Losses
	if s.Games > 0 {
		s.MeanPlies = float64(plies) / float64(s.Games)
	}
	if s.Seconds > 0 {
		s.GamesPerHour = float64(s.Games) * 3600 / s.Seconds
	}
	return s, nil
}
