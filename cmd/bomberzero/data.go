package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"bomberzero/datasets"
)

// runData dispatches "bomberzero data <subcommand>": tools for directories
// of training-data chunks (package datasets).
func runData(args []string, stdout, stderr io.Writer) error {
	const usage = "data <stats|verify|chunks> [flags] DIR"
	if len(args) == 0 {
		return fmt.Errorf("%w: %s", errUsage, usage)
	}
	switch args[0] {
	case "stats":
		return runDataStats(args[1:], stdout, stderr)
	case "verify":
		return runDataVerify(args[1:], stdout, stderr)
	case "chunks":
		return runDataChunks(args[1:], stdout, stderr)
	}
	return fmt.Errorf("%w: unknown data subcommand %q; %s", errUsage, args[0], usage)
}

// parseInterspersed parses flags that may come before or after the
// positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// chunkProgress returns a progress callback drawing a bar on stderr once a
// directory has many chunks.
func chunkProgress(stderr io.Writer) func(done, total int) {
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if total < 20 {
			return
		}
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr),
				progressbar.OptionSetDescription("reading chunks"), progressbar.OptionShowCount(),
				progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		}
		bar.Set(done)
	}
}

func runDataStats(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data stats", "usage: bomberzero data stats [--json] DIR\n\nPositions, games, W/D/L, average length, resignations, length-cap draws and\nthe false-resignation rate of a directory of training-data chunks.", stderr)
	asJSON := fs.Bool("json", false, "print the figures as one JSON object")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: data stats [--json] DIR", errUsage)
	}
	s, err := datasets.Summarize(pos[0], chunkProgress(stderr))
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, s)
	}
	return s.WriteText(stdout)
}

func runDataVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data verify", "", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bomberzero data verify DIR\n\nReads every chunk in full, checks its checksums and records, and names each\nunusable one and each duplicate (a chunk, or a game, met in an earlier chunk).\nExits 1 if any chunk is unusable or a duplicate.")
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: data verify DIR", errUsage)
	}
	s, err := datasets.Summarize(pos[0], chunkProgress(stderr))
	if err != nil {
		return err
	}
	for _, p := range s.Problems {
		fmt.Fprintln(stdout, p)
	}
	if s.IdenticalGames > 0 {
		fmt.Fprintf(stdout, "warning: %d games repeat an earlier game's moves and searches under another ID (self-play run twice with one seed?)\n", s.IdenticalGames)
	}
	fmt.Fprintf(stdout, "%d chunks good (%d positions, %d games), %d unusable or duplicate\n", s.Chunks, s.Positions, s.Games, s.Skipped)
	if s.Skipped > 0 {
		return &exitError{code: 1, err: errors.New("unusable or duplicate chunks found")}
	}
	return nil
}

func runDataChunks(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data chunks", "usage: bomberzero data chunks [--json] DIR\n\nLists the chunks oldest first (the order the training window uses) with their\ncounts, from the footers; unusable chunks are named on stderr.", stderr)
	asJSON := fs.Bool("json", false, "print the chunks as a JSON array")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: data chunks [--json] DIR", errUsage)
	}
	chunks, problems, err := datasets.List(pos[0])
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(stderr, "skipped:", p)
	}
	if *asJSON {
		if chunks == nil {
			chunks = []datasets.ChunkInfo{}
		}
		return writeJSON(stdout, chunks)
	}
	fmt.Fprintf(stdout, "%-31s %9s %9s %6s %6s  %s\n", "created (UTC)", "positions", "full", "games", "seq", "name")
	for _, c := range chunks {
		fmt.Fprintf(stdout, "%-31s %9d %9d %6d %6d  %s\n", c.Created.Format("2006-01-02T15:04:05.000000000Z"),
			c.Positions, c.FullPositions, c.Games, c.Sequence, c.Name)
	}
	return nil
}
