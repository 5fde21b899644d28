package compare

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"bomberzero/datasets"
	"bomberzero/env"
	"bomberzero/match"
	"bomberzero/study/values"
	"bomberzero/train"
)

// fromRun loads the games of variant name from a run directory (its data/
// folder) or a training-data directory.
func fromRun(name, dir, kind string, cfg Config) (*values.Dataset, Source, error) {
	src := Source{Variant: name, Kind: kind, Dir: dir, Seed: cfg.Seed}
	data := dir
	if train.IsRun(dir) {
		data = train.DataDir(dir)
		src.Model = newestCheckpoint(dir)
	}
	// The variant statistics (draw rate, length) count every game, those
	// the length cap stopped included.
	all, rep, err := values.LoadWith(data, values.LoadOptions{IncludeTeacher: cfg.IncludeTeacher, IncludeCapped: true})
	if err != nil {
		return nil, src, fmt.Errorf("compare: games of %s: %w", name, err)
	}
	src.Problems, src.TeacherGames = rep.Problems, rep.TeacherGames
	ds := all.OfVariant(name)
	if len(ds.Games) == 0 {
		return nil, src, fmt.Errorf("compare: %s holds games of %v, none of variant %s", data, all.Variants(), name)
	}
	src.Games = len(ds.Games)
	return ds, src, nil
}

// newestCheckpoint returns the newest generation checkpoint of run dir, or
// "" when it has none.
func newestCheckpoint(dir string) string {
	for gen := 1; ; gen++ {
		if _, err := os.Stat(train.GenCheckpoint(dir, gen)); err != nil {
			if gen == 1 {
				return ""
			}
			return train.GenCheckpoint(dir, gen-1)
		}
	}
}

// trainVariant trains name for cfg.Budget with its embedded defaults.
func trainVariant(ctx context.Context, name string, cfg Config) (*values.Dataset, Source, error) {
	tc, err := cfg.training(name)
	if err != nil {
		return nil, Source{}, fmt.Errorf("compare: training %s: %w", name, err)
	}
	tc.Seed = cfg.Seed
	dir := filepath.Join(cfg.RunsDir, filepath.Base(name))
	logf(cfg.Log, "training %s for %v in %s", name, cfg.Budget, dir)
	rep, err := train.Run(ctx, train.Options{Dir: dir, Config: tc, Budget: cfg.Budget, Out: cfg.Log, Progress: cfg.Bars})
	if err != nil {
		return nil, Source{}, fmt.Errorf("compare: training %s: %w", name, err)
	}
	if rep.Stopped == "cancelled" {
		return nil, Source{}, fmt.Errorf("compare: training %s: %w", name, context.Canceled)
	}
	return fromRun(name, dir, "trained", cfg)
}

// SelfPlayDataset plays p against itself games times from v's start
// position or, when book is not empty, game i from book[i % len(book)]
// (one game an opening in turn: p meets itself, so a colour swap would
// replay the same game where p is deterministic, as an outside engine at a
// node limit), capped at maxPlies, and returns the games as a values
// Dataset (game IDs prefix-<index>); progress, if set, is called after
// each game.
func SelfPlayDataset(ctx context.Context, v *env.Variant, p match.Maker, games, maxPlies int, seed uint64, workers int,
	book []*env.Position, prefix string, progress func(done, total int)) (*values.Dataset, error) {
	ds, _, err := SelfPlayGames(ctx, v, p, games, maxPlies, seed, workers, book, prefix, progress)
	return ds, err
}

// SelfPlayGames is SelfPlayDataset that also returns the games as
// training-data records (package datasets), so that they can be written to
// a directory (datasets.ChunkWriter) and fitted again later with
// values.Load instead of being played again.
func SelfPlayGames(ctx context.Context, v *env.Variant, p match.Maker, games, maxPlies int, seed uint64, workers int,
	book []*env.Position, prefix string, progress func(done, total int)) (*values.Dataset, []datasets.GameRecord, error) {
	start := v.NewPosition()
	mc := match.Config{A: p, B: p, Games: games, Start: start, Variant: v, MaxPlies: maxPlies, Seed: seed,
		Workers: workers, KeepGames: true, Starts: book}
	if progress != nil {
		mc.Progress = func(r *match.Result) { progress(r.Total.Games(), games) }
	}
	r, err := match.Run(ctx, mc)
	if err != nil {
		return nil, nil, fmt.Errorf("compare: %s games of %s: %w", v.Name, p.Spec, err)
	}
	return datasetAndRecords(prefix, start, r.Records)
}

// fromModel plays variant name's given model (cfg.Models[i]) against
// itself at cfg.Sims playouts, as selfPlaySource does.
func fromModel(ctx context.Context, name string, i int, cfg Config) (*values.Dataset, Source, error) {
	src := Source{Variant: name, Kind: "model", Model: cfg.Models[i]}
	return selfPlaySource(ctx, src, cfg, func(v *env.Variant) (match.Maker, error) {
		p, err := neutralPlayer(v, src.Model, cfg.Search, cfg.Sims)
		if err != nil {
			return p, fmt.Errorf("compare: --models: %w", err)
		}
		return p, nil
	})
}

// baseline plays cfg.Player against itself in variant name, as
// selfPlaySource does.
func baseline(ctx context.Context, name string, cfg Config) (*values.Dataset, Source, error) {
	return selfPlaySource(ctx, Source{Variant: name, Kind: "baseline", Player: cfg.Player}, cfg, func(v *env.Variant) (match.Maker, error) {
		p, err := match.Parse(cfg.Player, v, cfg.PlayerOptions)
		if err != nil {
			return p, fmt.Errorf("compare: --player: %w", err)
		}
		return p, nil
	})
}

// selfPlaySource plays the player that player makes for src's variant
// against itself cfg.Games times (from the shared book, if any) with
// cfg.Seed, the same seed for every variant: game i of each variant starts
// from the same opening with the same player seeds, so the variants' games
// form a paired design (pairedGames) and a player whose choices do not
// depend on the rest of the move list (alphabeta's) plays the same game
// in both until their rules part them.
func selfPlaySource(ctx context.Context, src Source, cfg Config, player func(*env.Variant) (match.Maker, error)) (*values.Dataset, Source, error) {
	src.Seed = cfg.Seed
	v, err := env.LoadVariant(src.Variant)
	if err != nil {
		return nil, src, fmt.Errorf("compare: %w", err)
	}
	p, err := player(v)
	if err != nil {
		return nil, src, err
	}
	if src.Player == "" {
		src.Player = p.Spec
	}
	book, err := cfg.bookFor(v)
	if err != nil {
		return nil, src, err
	}
	ds, err := SelfPlayDataset(ctx, v, p, cfg.Games, cfg.MaxPlies, src.Seed, cfg.Workers, book, filepath.Base(src.Variant),
		bar(cfg.Bars, src.Variant+" games", "games"))
	if err != nil {
		return nil, src, err
	}
	src.Games = len(ds.Games)
	return ds, src, nil
}
