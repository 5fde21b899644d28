package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"bomberzero/datasets/record"
	"bomberzero/env"
	"bomberzero/internal/readfile"
)

// maxGameBytes bounds a game record: far above any real game's text.
const maxGameBytes = 16 << 20

// runReplay checks every move of a game record and prints the final position.
func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", "usage: bomberzero replay [--variant V] [--fen TEXT] FILE\n\nChecks every move of a game record (FILE, or - for standard input) and prints\nthe final position and the result.", stderr)
	variant := variantFlag(fs)
	fen := fs.String("fen", "", "start position text (default: the variant's start)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: replay --variant V FILE (or - for standard input)", errUsage)
	}
	var text []byte
	if name := pos[0]; name == "-" {
		text, err = io.ReadAll(io.LimitReader(os.Stdin, maxGameBytes+1))
		if err == nil && len(text) > maxGameBytes {
			err = fmt.Errorf("standard input: more than the %d bytes a game record may have", maxGameBytes)
		}
	} else {
		text, err = readfile.Regular(name, maxGameBytes)
	}
	if err != nil {
		return fmt.Errorf("reading the game: %w", err)
	}
	// A record's Variant and FEN tags give the variant and start position
	// when the flags do not.
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	rec, err := record.Parse(string(text))
	if err != nil {
		return &exitError{1, err}
	}
	if v := rec.Get("Variant"); v != "" && !set["variant"] {
		*variant = v
	}
	if f := rec.Get("FEN"); f != "" && !set["fen"] {
		*fen = f
	}
	start, err := setupPosition(*variant, *fen, "")
	if err != nil && (!set["variant"] && rec.Get("Variant") != "" || !set["fen"] && rec.Get("FEN") != "") {
		// A bad tag in the record is bad data, not a command-line mistake.
		return &exitError{1, fmt.Errorf("the record's tags: %s", strings.TrimPrefix(err.Error(), errUsage.Error()+": "))}
	}
	if err != nil {
		return err
	}
	p, err := env.Replay(start, string(text))
	if err != nil {
		return &exitError{1, err}
	}
	if res, why := p.Status(); res != env.Ongoing {
		fmt.Fprintf(stdout, "result %s (%s)\n", res, why)
	}
	fmt.Fprintln(stdout, p)
	return nil
}
