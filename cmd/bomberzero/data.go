package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"bomberzero/agent"
	"bomberzero/datasets"
	"bomberzero/internal/progress"
	"bomberzero/selfplay"
	"bomberzero/train"
)

// dataCommands returns the subcommands of "bomberzero data", in help order.
func dataCommands() []command {
	return []command{
		{"stats", "positions, games, W/D/L, lengths and resignations of a data directory", runDataStats},
		{"verify", "read every chunk in full and name the unusable ones", runDataVerify},
		{"chunks", "list the chunks oldest first with their counts", runDataChunks},
		{"adjudication", "how often adjudicating by material at a ply would have named the winner", runDataAdjudication},
		{"eval", "measure networks on a directory's positions: move agreement, policy and value losses, with intervals", runDataEval},
	}
}

// runData dispatches "bomberzero data <subcommand>": tools for directories
// of training-data chunks (package datasets).
func runData(args []string, stdout, stderr io.Writer) error {
	return runGroup("data", "Tools for a directory of training-data chunks (a run keeps its data in RUN/data).", dataCommands(), args, stdout, stderr)
}

// chunkDir resolves the DIR of a data subcommand: a directory of chunks is
// taken as given; a run directory, whose chunks live in RUN/data, is read
// there (and said so on stderr). A directory with no chunks either way is an
// error naming both places, never a report of zeros.
func chunkDir(dir string, stderr io.Writer) (string, error) {
	n, err := countChunks(dir)
	if err != nil {
		return "", err
	}
	if n > 0 {
		return dir, nil
	}
	sub := train.DataDir(dir)
	if m, err := countChunks(sub); err == nil && m > 0 {
		fmt.Fprintf(stderr, "%s is a run directory: reading its training data in %s\n", dir, sub)
		return sub, nil
	} else if err == nil {
		return "", fmt.Errorf("no training-data chunks in %s nor in %s yet", dir, sub)
	}
	return "", fmt.Errorf("no training-data chunks in %s (for a run directory, pass RUN or RUN/data)", dir)
}

// listChunks resolves a data subcommand's DIR (chunkDir) and lists its
// chunks oldest first, naming the unusable ones on stderr.
func listChunks(arg string, stderr io.Writer) ([]datasets.ChunkInfo, error) {
	dir, err := chunkDir(arg, stderr)
	if err != nil {
		return nil, err
	}
	chunks, problems, err := datasets.List(dir)
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		fmt.Fprintln(stderr, "skipped:", p)
	}
	return chunks, nil
}

// countChunks returns how many files of dir are named like chunks.
func countChunks(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() && datasets.IsChunkName(e.Name()) {
			n++
		}
	}
	return n, nil
}

// chunkProgress returns a progress callback drawing a bar on stderr once a
// directory has many chunks (nil when stderr is not a terminal).
func chunkProgress(stderr io.Writer) func(done, total int) {
	return progress.Func(stderr, "reading chunks", "chunks", 20)
}

// summarizeArg defines --quiet on fs, parses a data command's arguments
// (flags and one DIR; synopsis is its usage line) and summarizes the chunks
// of DIR (or of a run directory's DIR/data), drawing progress on stderr
// unless --quiet.
func summarizeArg(fs *flag.FlagSet, args []string, synopsis string, stderr io.Writer) (*datasets.Stats, error) {
	quiet := quietFlag(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if len(pos) != 1 {
		return nil, fmt.Errorf("%w: %s", errUsage, synopsis)
	}
	dir, err := chunkDir(pos[0], stderr)
	if err != nil {
		return nil, err
	}
	return datasets.Summarize(dir, chunkProgress(progressTo(stderr, *quiet)))
}

func runDataStats(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data stats", "usage: bomberzero data stats [--json] DIR\n\nDIR is a directory of chunks or a run directory (its chunks are in DIR/data).\n\nPositions, games, W/D/L, average length, resignations, length-cap draws and\nthe false-resignation rate of a directory of training-data chunks.", stderr)
	asJSON := fs.Bool("json", false, "print the figures as one JSON object")
	s, err := summarizeArg(fs, args, "data stats [--json] DIR", stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, s)
	}
	return s.WriteText(stdout)
}

func runDataVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data verify", "usage: bomberzero data verify DIR\n\nReads every chunk in full, checks its checksums and records, and names each\nunusable one and each duplicate (a chunk, or a game, met in an earlier chunk).\nExits 1 if any chunk is unusable or a duplicate.", stderr)
	s, err := summarizeArg(fs, args, "data verify DIR", stderr)
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
	quietFlag(fs) // it draws no progress; accepted like every data subcommand's
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: data chunks [--json] DIR", errUsage)
	}
	chunks, err := listChunks(pos[0], stderr)
	if err != nil {
		return err
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

func runDataAdjudication(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data adjudication", "usage: bomberzero data adjudication --at PLY [--margin PAWNS] [--json] DIR\n\nApplies the self-play adjudication rule (a side at least --margin pawns ahead\non the default piece table wins; docs/training.md) to every game of DIR that\nwas still going at ply --at, and counts how often the side it names went on\nto win, drew or lost. Play the games with a cap above --at (for example\nselfplay --max-plies 800 and --at 400) to measure a cap of --at.", stderr)
	at := fs.Int("at", 0, "the ply the rule is applied at (the cap to measure)")
	margin := fs.Float64("margin", 3, "pawns ahead that win (selfplay.adjudicate_margin)")
	asJSON := fs.Bool("json", false, "print the figures as one JSON object")
	quiet := quietFlag(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: data adjudication --at PLY [--margin PAWNS] [--json] DIR", errUsage)
	}
	if *at < 1 {
		return fmt.Errorf("%w: --at %d: want a ply of 1 or more", errUsage, *at)
	}
	if *margin <= 0 || *margin > selfplay.MaxAdjudicateMargin {
		return fmt.Errorf("%w: --margin %g: want above 0, at most %d pawns", errUsage, *margin, selfplay.MaxAdjudicateMargin)
	}
	chunks, err := listChunks(pos[0], stderr)
	if err != nil {
		return err
	}
	chunks, dups := datasets.Dedupe(chunks)
	for _, p := range dups {
		fmt.Fprintln(stderr, "skipped:", p)
	}
	bar := chunkProgress(progressTo(stderr, *quiet))
	var games []datasets.GameRecord
	for i, info := range chunks {
		c, err := datasets.ReadChunk(info.Path)
		if err != nil {
			fmt.Fprintln(stderr, "skipped:", err)
			continue
		}
		games = append(games, datasets.Games(c.Rows)...)
		if bar != nil {
			bar(i+1, len(chunks))
		}
	}
	c := selfplay.CheckAdjudication(games, *at, *margin, agent.DefaultValues())
	if *asJSON {
		return writeJSON(stdout, c)
	}
	fmt.Fprintf(stdout, "games              %d read, %d still going at ply %d\n", len(games), c.Reached, c.At)
	fmt.Fprintf(stdout, "adjudicated        %d (a side %g pawns or more ahead)\n", c.Adjudicated, c.Margin)
	if c.Adjudicated > 0 {
		fmt.Fprintf(stdout, "went on to         win %d, draw %d, lose %d\n", c.Confirmed, c.Drawn, c.Reversed)
		fmt.Fprintf(stdout, "accuracy           %.3f [%.3f, %.3f] (95%% Wilson)\n", c.Accuracy, c.AccuracyLow, c.AccuracyHigh)
	}
	fmt.Fprintf(stdout, "not adjudicated    %d, of which %d were won after all\n", c.Reached-c.Adjudicated, c.UndecidedWon)
	return nil
}
