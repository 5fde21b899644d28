package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"bomberzero/datasets/record"
	"bomberzero/env"
	"bomberzero/match"
)

// defaultGamesDir is where match and play keep their games and serve looks
// for them: $XDG_DATA_HOME/bomberzero/games, or ~/.local/share/bomberzero/games
// ("" when neither is known: nothing is saved).
func defaultGamesDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "bomberzero", "games")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "bomberzero", "games")
	}
	return ""
}

// gamesDirFlag defines --games-dir.
func gamesDirFlag(fs *flag.FlagSet) *string {
	return fs.String("games-dir", defaultGamesDir(), "folder to keep the games in, as records \"bomberzero replay\" reads (\"\": keep none)")
}

// saveGames writes each game as a record named prefix-NNN.txt in dir (a
// no-op for an empty dir) and returns the number saved.
func saveGames(dir, event, prefix string, start *env.Position, games []match.Game) (int, error) {
	if dir == "" {
		return 0, nil
	}
	for i, g := range games {
		from := start
		if g.Start != nil {
			from = g.Start // a book opening's position
		}
		rec := record.New(event, from, g.White, g.Black, g.Result, g.Termination, g.Moves)
		if _, err := record.Save(dir, fmt.Sprintf("%s-%03d", prefix, i), &rec); err != nil {
			return i, err
		}
	}
	return len(games), nil
}

// gamePrefix names a batch of saved games by kind and the time it started.
func gamePrefix(kind string, t time.Time) string {
	return kind + "-" + t.Format("20060102-150405.000")
}
