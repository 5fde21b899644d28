package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"bomberzero/datasets/record"
	"bomberzero/env"
	"bomberzero/frontend/xboard"
	"bomberzero/internal/readfile"
)

// maxGameBytes bounds a game record: far above any real game's text.
const maxGameBytes = 16 << 20

// runReplay checks every move of a game record and prints the final position.
func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", "usage: bomberzero replay [--variant V] [--fen TEXT] [--pgn] FILE\n\nChecks every move of a game record (FILE, or - for standard input) and prints\nthe final position and the result. A FILE named *.pgn is read as PGN, every game\nof it checked, in the notation its [Notation] tag declares (XBoard's, which\nnumbers a 10-rank board's ranks from 0, or bomberzero's), else in the one its\nmoves are legal in (--notation declares it). --pgn writes the game(s) as the PGN\nXBoard loads instead, with [Variant], [SetUp]/[FEN], the piece definitions\n([VariantMen]) and [Notation \"XBoard\"].", stderr)
	variant := variantFlag(fs)
	fen := fs.String("fen", "", "start position text (default: the variant's start)")
	asPGN := fs.Bool("pgn", false, "write the game as PGN to standard output instead of its final position")
	notation := fs.String("notation", "", "the notation of a PGN FILE's moves, XBoard or bomberzero (default: its [Notation] tag, else the one its moves are legal in)")
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
	if strings.HasSuffix(strings.ToLower(pos[0]), ".pgn") {
		return replayPGN(string(text), *variant, set["variant"], *notation, *asPGN, stdout)
	}
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
	if *asPGN {
		rec.Set("Variant", start.Variant().Name)
		if start.String() != start.Variant().NewPosition().String() {
			rec.Set("FEN", start.String())
		}
		return writePGN(stdout, &rec)
	}
	if res, why := p.Status(); res != env.Ongoing {
		fmt.Fprintf(stdout, "result %s (%s)\n", res, why)
	}
	fmt.Fprintln(stdout, p)
	return nil
}

// replayPGN checks every game of a PGN text (a game without a Variant tag is
// of variant when the flag is set, else orthodox chess, as PGN has it; its
// moves in notation, or as record.ParsePGNAs finds them when that is "")
// and prints each one's result and final position, or writes them back as
// XBoard's PGN.
func replayPGN(text, variant string, variantSet bool, notation string, asPGN bool, stdout io.Writer) error {
	fallback := "chess"
	if variantSet {
		fallback = variant
	}
	games, err := record.ParsePGNAs(text, fallback, xboard.PGNDialect, notation)
	if err != nil {
		return &exitError{1, err}
	}
	for i, g := range games {
		if g.Get("Variant") == "" {
			g.Set("Variant", fallback)
		}
		if asPGN {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			if err := writePGN(stdout, &g); err != nil {
				return err
			}
			continue
		}
		start, err := g.Start(fallback)
		if err != nil {
			return &exitError{1, fmt.Errorf("game %d: %w", i+1, err)}
		}
		p := start.Clone()
		for _, m := range g.Moves {
			mv, err := p.ParseMove(m)
			if err != nil { // ParsePGN checked every move
				return &exitError{1, fmt.Errorf("game %d: move %q: %w", i+1, m, err)}
			}
			p.DoMove(mv)
		}
		if len(games) > 1 {
			fmt.Fprintf(stdout, "game %d: %d moves\n", i+1, len(g.Moves))
		}
		if res, why := p.Status(); res != env.Ongoing {
			fmt.Fprintf(stdout, "result %s (%s)\n", res, why)
		}
		fmt.Fprintln(stdout, p)
	}
	return nil
}

// writePGN writes g as the PGN XBoard loads (xboard.PGN): the dialect
// "bomberzero serve" exports too.
func writePGN(w io.Writer, g *record.Game) error {
	if _, err := env.LoadVariant(g.Get("Variant")); err != nil {
		return &exitError{1, fmt.Errorf("the record's Variant: %w", err)}
	}
	text, err := xboard.PGN(g, g.Get("Variant"))
	if err != nil {
		return &exitError{1, err}
	}
	_, err = io.WriteString(w, text)
	return err
}
