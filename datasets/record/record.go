// Package record reads and writes game records: [Tag "value"] lines, then
// the moves in Game Courier text with move numbers, then the result. It is
// the format self-play's records, match and play's saved games and the web
// server's downloads share, and what "bomberzero replay" reads (the
// Variant and FEN tags give the variant and the start position).
package record

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"bomberzero/env"
	"bomberzero/internal/atomicfile"
)

// Tag is one [Name "value"] line.
type Tag struct {
	Name, Value string
}

// Game is a game record: its tags in order, its moves and the
// variations of its moves. The record format (Format, Parse) holds the
// moves alone; PGN and ParsePGN hold the variations too.
type Game struct {
	Tags       []Tag
	Moves      []string // Game Courier text, in order
	Variations []Variation
}

// Variation is a side line of a line of moves: Moves played instead of the
// line's move At (0 its first), from the position before it, with
// variations of its own. A line's variations are in order of At.
type Variation struct {
	At         int         `json:"at"`
	Moves      []string    `json:"moves"`
	Variations []Variation `json:"variations,omitempty"`
}

// Get returns the value of the first tag called name, "" if none.
func (g *Game) Get(name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// Set replaces the value of tag name, or appends the tag.
func (g *Game) Set(name, value string) {
	for i, t := range g.Tags {
		if t.Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{name, value})
}

// Format writes the record: the tags, a blank line and its MoveText.
func (g *Game) Format() string {
	var b strings.Builder
	for _, t := range g.Tags {
		fmt.Fprintf(&b, "[%s %s]\n", t.Name, strconv.Quote(t.Value))
	}
	b.WriteByte('\n')
	b.WriteString(g.MoveText())
	b.WriteByte('\n')
	return b.String()
}

// MoveText is the record's move section without its final newline: the
// numbered moves ("1. e2-e4 e9-e7", eight move pairs a line) and the Result
// tag's value (or "*"). Self-play's records carry its SHA-256.
func (g *Game) MoveText() string {
	var b strings.Builder
	for i, m := range g.Moves {
		switch {
		case i%2 == 0:
			if i > 0 {
				if i%16 == 0 {
					b.WriteByte('\n')
				} else {
					b.WriteByte(' ')
				}
			}
			fmt.Fprintf(&b, "%d. %s", i/2+1, m)
		default:
			b.WriteString(" " + m)
		}
	}
	if len(g.Moves) > 0 {
		b.WriteByte(' ')
	}
	res := g.Get("Result")
	if res == "" {
		res = "*"
	}
	b.WriteString(res)
	return b.String()
}

// Parse reads a record: tag lines (anywhere, one a line) and the moves as
// env.SplitGame reads them. A tag line that is not [Name "value"] is an
// error naming its line.
func Parse(text string) (Game, error) {
	var g Game
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "[") {
			continue
		}
		t, err := parseTag(line)
		if err != nil {
			return g, fmt.Errorf("record: line %d: %w", i+1, err)
		}
		g.Tags = append(g.Tags, t)
	}
	for _, m := range env.SplitGame(text) {
		g.Moves = append(g.Moves, m.Text)
	}
	return g, nil
}

func parseTag(line string) (Tag, error) {
	if !strings.HasSuffix(line, "]") {
		return Tag{}, fmt.Errorf("tag %q: no closing ]", line)
	}
	body := strings.TrimSpace(line[1 : len(line)-1])
	name, val, ok := strings.Cut(body, " ")
	if !ok || name == "" {
		return Tag{}, fmt.Errorf("tag %q: want [Name \"value\"]", line)
	}
	v, err := strconv.Unquote(strings.TrimSpace(val))
	if err != nil {
		return Tag{}, fmt.Errorf("tag %q: the value is not a quoted string", line)
	}
	return Tag{name, v}, nil
}

// Start returns the record's variant (its Variant tag, or fallback when it
// has none) and start position (its FEN tag, or the variant's start).
func (g *Game) Start(fallback string) (*env.Position, error) {
	v, err := g.variant(fallback)
	if err != nil {
		return nil, err
	}
	if fen := g.Get("FEN"); fen != "" {
		p, err := v.ParsePosition(fen)
		if err != nil {
			return nil, fmt.Errorf("record: FEN: %w", err)
		}
		return p, nil
	}
	return v.NewPosition(), nil
}

// New returns the record of a finished or stopped game: its event, variant,
// players, start position (the FEN tag, left out when it is the variant's
// start), result, termination and moves.
func New(event string, start *env.Position, white, black string, res env.Result, why env.Termination, moves []string) Game {
	g := Game{Moves: moves}
	g.Set("Event", event)
	g.Set("Variant", start.Variant().Name)
	g.Set("White", white)
	g.Set("Black", black)
	g.Set("Result", res.String())
	if why != env.NotOver {
		g.Set("Termination", why.String())
	}
	if s := start.String(); s != start.Variant().NewPosition().String() {
		g.Set("FEN", s)
	}
	g.Set("Plies", strconv.Itoa(len(moves)))
	return g
}

// Save writes g atomically to dir/name.txt, creating dir, and returns the
// path.
func Save(dir, name string, g *Game) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("saving the game: %w", err)
	}
	path := filepath.Join(dir, name+".txt")
	if err := atomicfile.WriteFile(path, []byte(g.Format())); err != nil {
		return "", fmt.Errorf("saving the game: %w", err)
	}
	return path, nil
}
