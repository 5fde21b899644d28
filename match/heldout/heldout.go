// Package heldout holds the held-out position sets that measure an agent on
// positions it never trained on: mate-in-one puzzles generated from games of
// the baseline players of package match (seeds of their own, never a
// training seed), written as text under configs/heldout/, and the score of
// a player on them (the share of puzzles where its move wins at once).
package heldout

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"bomberzero/configs"
	"bomberzero/env"
	"bomberzero/internal/readfile"
	"bomberzero/match"
)

// Puzzle is one position where the side to move wins at once (by mate, or
// by the scepter in variants that have it) with some of its legal moves.
type Puzzle struct {
	// Position is the position text (RULES.md section 7).
	Position string
	// Wins are the moves that win at once, in Game Courier text.
	Wins []string
}

// Path returns the file of variant's mate-in-one set under the repository
// root dir: dir/configs/heldout/<variant>-mate1.txt.
func Path(dir, variant string) string {
	return filepath.Join(dir, "configs", "heldout", variant+"-mate1.txt")
}

// WinningMoves returns the legal moves of pos after which the side that
// moved has won (checkmate or scepter). It leaves pos as it found it.
func WinningMoves(pos *env.Position) []env.Move {
	var buf [env.MaxMoves]env.Move
	moves := pos.LegalMoves(buf[:0])
	us := pos.SideToMove()
	var wins []env.Move
	for _, m := range moves {
		u := pos.DoMove(m)
		res, _ := pos.Status()
		pos.UndoMove(u)
		if res.For(us) == 1 {
			wins = append(wins, m)
		}
	}
	return wins
}

// Write writes puzzles as text: a header comment, then one line per puzzle,
// the position text and each winning move separated by tabs.
func Write(w io.Writer, variant string, puzzles []Puzzle) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# bomberzero held-out mate-in-one set, variant %s: %d positions\n", variant, len(puzzles))
	fmt.Fprintf(bw, "# each line: position text<TAB>winning move<TAB>... (Game Courier move text); see docs/heldout.md\n")
	for _, p := range puzzles {
		fmt.Fprintf(bw, "%s\t%s\n", p.Position, strings.Join(p.Wins, "\t"))
	}
	return bw.Flush()
}

// Read reads puzzles written by Write for variant v (lines starting with '#'
// and blank lines are skipped), checking each line: the position parses,
// the game is not over, and every move listed is legal and wins at once.
// name names the input in errors.
func Read(r io.Reader, name string, v *env.Variant) ([]Puzzle, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var out []Puzzle
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) < 2 {
			return nil, fmt.Errorf("%s:%d: want a position and at least one winning move separated by tabs", name, line)
		}
		p, err := checkPuzzle(v, fields[0], fields[1:])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// checkPuzzle parses one puzzle and checks that every move listed wins.
func checkPuzzle(v *env.Variant, position string, wins []string) (Puzzle, error) {
	pos, err := v.ParsePosition(position)
	if err != nil {
		return Puzzle{}, err
	}
	if res, why := pos.Status(); res != env.Ongoing {
		return Puzzle{}, fmt.Errorf("position %q: the game is already over (%s)", position, why)
	}
	us := pos.SideToMove()
	for _, t := range wins {
		m, err := pos.ParseMove(t)
		if err != nil {
			return Puzzle{}, fmt.Errorf("position %q: move %q: %w", position, t, err)
		}
		u := pos.DoMove(m)
		res, _ := pos.Status()
		pos.UndoMove(u)
		if !(res.For(us) == 1) {
			return Puzzle{}, fmt.Errorf("position %q: move %q does not win at once", position, t)
		}
	}
	return Puzzle{Position: position, Wins: wins}, nil
}

// MaxFileBytes bounds a puzzle file that Load reads: the shipped sets are
// about 20 kB, so 16 MiB holds any set a person would write.
const MaxFileBytes = 16 << 20

// Load reads the puzzle file at path for variant v. It reads only a regular
// file of at most MaxFileBytes (package readfile), so a FIFO or a device
// given by mistake is refused at once instead of blocking or filling memory.
func Load(path string, v *env.Variant) ([]Puzzle, error) {
	data, err := readfile.Regular(path, MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("held-out set: %w", err)
	}
	return Read(bytes.NewReader(data), path, v)
}

// Builtin returns the built-in mate-in-one set of variant v (embedded from
// configs/heldout), or nil when v has none; the training loop scores each
// rated model on it.
func Builtin(v *env.Variant) ([]Puzzle, error) {
	name := v.Name + "-mate1.txt"
	f, err := configs.Heldout().Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("held-out set %s: %w", name, err)
	}
	defer f.Close()
	return Read(f, "embedded "+name, v)
}

// FuncPlayer is a match.Player choosing by a function, such as the
// network's policy alone (agent.Model.PolicyFunc).
type FuncPlayer struct {
	Spec string                                    // the name it reports
	Fn   func(pos *env.Position) (env.Move, error) // its choice in pos
}

// Name returns the player's name.
func (p FuncPlayer) Name() string { return p.Spec }

// Choose returns Fn's move in pos.
func (p FuncPlayer) Choose(pos *env.Position) (env.Move, error) { return p.Fn(pos) }

// Score is how a player did on a puzzle set.
type Score struct {
	// Solved counts the puzzles where the player's move won at once.
	Solved int
	// Total counts the puzzles.
	Total int
	// Missed lists the indices of the puzzles it did not solve.
	Missed []int
}

// Share returns Solved/Total (0 for an empty set).
func (s Score) Share() float64 {
	if s.Total == 0 {
		return 0
	}
	return float64(s.Solved) / float64(s.Total)
}

// Evaluate asks p for its move in each puzzle of variant v and counts the
// moves that win at once (any winning move counts, listed or not).
func Evaluate(v *env.Variant, puzzles []Puzzle, p match.Player) (Score, error) {
	s := Score{Total: len(puzzles)}
	for i, pz := range puzzles {
		pos, err := v.ParsePosition(pz.Position)
		if err != nil {
			return Score{}, fmt.Errorf("puzzle %d: %w", i, err)
		}
		us := pos.SideToMove()
		m, err := p.Choose(pos)
		if err != nil {
			return Score{}, fmt.Errorf("puzzle %d (%s): %s: %w", i, pz.Position, p.Name(), err)
		}
		var buf [env.MaxMoves]env.Move
		if !slices.Contains(pos.LegalMoves(buf[:0]), m) {
			return Score{}, fmt.Errorf("puzzle %d (%s): %s chose an illegal move %s", i, pz.Position, p.Name(), pos.FormatMove(m))
		}
		pos.DoMove(m)
		res, _ := pos.Status()
		if res.For(us) == 1 {
			s.Solved++
		} else {
			s.Missed = append(s.Missed, i)
		}
	}
	return s, nil
}
