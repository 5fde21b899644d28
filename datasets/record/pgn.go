package record

import (
	"fmt"
	"strconv"
	"strings"

	"bomberzero/env"
)

// PGN, the Portable Game Notation other chess tools read, holds a record as
// its Seven Tag Roster, the tags a variant needs ([Variant], [SetUp "1"]
// with [FEN], and, for a variant a reader does not know, [VariantMen] with
// the piece definitions XBoard 4.9 reads) and the moves. The moves are
// written in the canonical syntax ("e2e4", "e9e10=Q", "f1i1O", "J@e2e5"):
// Game Courier text has ';' and '~', which PGN reads as a comment and as
// nothing. ParsePGN reads both syntaxes back and stores the moves as Game
// Courier text, so a record read from PGN is a record like any other.

// Bounds of ParsePGN: a text longer, a game with more tags or moves, or
// variations nested deeper is refused with an error naming the bound.
const (
	MaxPGNBytes     = 8 << 20
	MaxPGNGames     = 10000
	MaxPGNTags      = 64
	MaxPGNMoves     = 10000
	MaxPGNTagBytes  = 4096
	maxPGNVariation = 64
)

// sevenTags is the PGN standard's Seven Tag Roster, written first and in
// this order ("?" for a tag the record lacks).
var sevenTags = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// PGN writes g as one PGN game. The moves are replayed from g's start (its
// Variant and FEN tags; fallback names the variant when it has none) and
// written in the canonical syntax; an illegal move is an error naming it.
// The FEN of the start is written with [SetUp "1"] whenever the variant is
// not orthodox chess (no other tool knows its start). pieces, when not
// empty, is the [VariantMen] value, the piece definitions of an
// engine-defined variant ("G:mRcpR;J:..."), which the caller makes from the
// engine's definitions.
func (g *Game) PGN(fallback, pieces string) (string, error) {
	start, err := g.Start(fallback)
	if err != nil {
		return "", err
	}
	moves := make([]string, 0, len(g.Moves))
	p := start.Clone()
	for i, text := range g.Moves {
		m, err := p.ParseMove(text)
		if err != nil {
			return "", fmt.Errorf("record: PGN: move %d %q: %w", i+1, text, err)
		}
		moves = append(moves, p.FormatMove(m))
		p.DoMove(m)
	}
	var b strings.Builder
	written := map[string]bool{"SetUp": true, "VariantMen": true, "Variant": true, "FEN": true}
	for _, name := range sevenTags {
		v := g.Get(name)
		if v == "" {
			v = "?"
			if name == "Result" {
				v = "*"
			}
		}
		writeTag(&b, name, v)
		written[name] = true
	}
	v := start.Variant()
	if v.Name != "chess" {
		writeTag(&b, "Variant", v.Name)
		writeTag(&b, "SetUp", "1")
		writeTag(&b, "FEN", start.String())
	} else if fen := g.Get("FEN"); fen != "" {
		writeTag(&b, "SetUp", "1")
		writeTag(&b, "FEN", fen)
	}
	if pieces != "" {
		writeTag(&b, "VariantMen", pieces)
	}
	for _, t := range g.Tags {
		if !written[t.Name] && validTagName(t.Name) {
			writeTag(&b, t.Name, t.Value)
			written[t.Name] = true
		}
	}
	b.WriteByte('\n')
	// PGN numbers moves from the start's own move number; a start with
	// Black to move begins "N...".
	off := 0
	if start.SideToMove() == env.Black {
		off = 1
	}
	line := 0
	for i, m := range moves {
		num := start.MoveNumber() + (i+off)/2
		tok := m
		if (i+off)%2 == 0 {
			tok = strconv.Itoa(num) + ". " + m
		} else if i == 0 {
			tok = strconv.Itoa(num) + "... " + m
		}
		if line > 0 && line+1+len(tok) > 79 {
			b.WriteByte('\n')
			line = 0
		} else if line > 0 {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(tok)
		line += len(tok)
	}
	res := g.Get("Result")
	if res == "" {
		res = "*"
	}
	if line > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(res + "\n")
	return b.String(), nil
}

// writeTag writes one PGN tag pair, its value escaped as the standard says
// (a backslash before '"' and '\'; no line breaks).
func writeTag(b *strings.Builder, name, value string) {
	value = strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", " ", "\r", " ").Replace(value)
	fmt.Fprintf(b, "[%s \"%s\"]\n", name, value)
}

// validTagName reports whether name is a PGN tag name: letters, digits and
// '_', starting with a letter.
func validTagName(name string) bool {
	if name == "" || len(name) > 255 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_')) {
			return false
		}
	}
	return true
}

// ParsePGN reads the games of a PGN text. Comments ({...} and ';' to the end
// of the line), '%' escape lines, variations ((...), nested), numeric
// annotation glyphs ($1), move numbers and the "!?+#" suffixes are skipped.
// Each game's moves are replayed from its start (its Variant tag, or
// fallback, and its FEN tag) in either move syntax and stored as Game
// Courier text; the SetUp and VariantMen tags are dropped (a record does not
// need them), the others kept in order, and the Plies tag says how many
// moves were read. An error names the game, and the
// move or line, that is wrong; every bound (MaxPGNBytes and the others) is
// checked before the work it limits.
func ParsePGN(text, fallback string) ([]Game, error) {
	if len(text) > MaxPGNBytes {
		return nil, fmt.Errorf("record: PGN: %d bytes: at most %d", len(text), MaxPGNBytes)
	}
	raw, err := scanPGN(text)
	if err != nil {
		return nil, err
	}
	games := make([]Game, 0, len(raw))
	for i, r := range raw {
		g := Game{}
		for _, t := range r.Tags {
			if t.Name != "SetUp" && t.Name != "VariantMen" {
				g.Tags = append(g.Tags, t)
			}
		}
		start, err := g.Start(fallback)
		if err != nil {
			return nil, fmt.Errorf("record: PGN game %d: %w", i+1, err)
		}
		p := start.Clone()
		for j, text := range r.Moves {
			if res, why := p.Status(); res != env.Ongoing {
				return nil, fmt.Errorf("record: PGN game %d: move %d %q: the game already ended (%s, %s)", i+1, j+1, text, res, why)
			}
			m, err := p.ParseMove(text)
			if err != nil {
				return nil, fmt.Errorf("record: PGN game %d: move %d %q: %w", i+1, j+1, text, err)
			}
			g.Moves = append(g.Moves, p.FormatGC(m))
			p.DoMove(m)
		}
		g.Set("Plies", strconv.Itoa(len(g.Moves)))
		games = append(games, g)
	}
	return games, nil
}

// scanPGN splits a PGN text into games of tags and move tokens, without
// reading the moves.
func scanPGN(text string) ([]Game, error) {
	var games []Game
	var cur Game
	inMoves, open := false, false // moves of cur begun; cur has anything
	depth := 0                    // variation nesting
	line := 1
	flush := func() {
		if open {
			games = append(games, cur)
		}
		cur, inMoves, open, depth = Game{}, false, false, 0
	}
	atLineStart := true
	for i := 0; i < len(text); {
		c := text[i]
		if c == '\n' {
			line++
			atLineStart = true
			i++
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
			i++
			continue
		}
		if c == '%' && atLineStart {
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		}
		atLineStart = false
		switch c {
		case '[':
			if depth > 0 {
				return nil, fmt.Errorf("record: PGN line %d: a tag inside a variation", line)
			}
			if inMoves {
				flush()
			}
			end := i + 1
			quoted, esc := false, false
			for ; end < len(text); end++ {
				ch := text[end]
				if ch == '\n' {
					break
				}
				if esc {
					esc = false
					continue
				}
				if quoted && ch == '\\' {
					esc = true
					continue
				}
				if ch == '"' {
					quoted = !quoted
					continue
				}
				if ch == ']' && !quoted {
					break
				}
			}
			if end >= len(text) || text[end] != ']' {
				return nil, fmt.Errorf("record: PGN line %d: a tag with no closing ]", line)
			}
			if end-i > MaxPGNTagBytes {
				return nil, fmt.Errorf("record: PGN line %d: a tag of %d bytes: at most %d", line, end-i, MaxPGNTagBytes)
			}
			t, err := parsePGNTag(text[i+1 : end])
			if err != nil {
				return nil, fmt.Errorf("record: PGN line %d: %w", line, err)
			}
			if len(cur.Tags) >= MaxPGNTags {
				return nil, fmt.Errorf("record: PGN line %d: more than %d tags in a game", line, MaxPGNTags)
			}
			cur.Tags = append(cur.Tags, t)
			open = true
			i = end + 1
		case '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("record: PGN line %d: a comment with no closing }", line)
			}
			line += strings.Count(text[i:i+end], "\n")
			i += end + 1
		case ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case '(':
			depth++
			if depth > maxPGNVariation {
				return nil, fmt.Errorf("record: PGN line %d: variations nested more than %d deep", line, maxPGNVariation)
			}
			i++
		case ')':
			if depth == 0 {
				return nil, fmt.Errorf("record: PGN line %d: ) closes no variation", line)
			}
			depth--
			i++
		default:
			end := i
			for end < len(text) && !strings.ContainsRune(" \t\r\n\f\v{}();[]", rune(text[end])) {
				end++
			}
			if end == i { // a stray ] or }
				return nil, fmt.Errorf("record: PGN line %d: %q outside a tag or comment", line, c)
			}
			tok := text[i:end]
			i = end
			if depth > 0 {
				continue
			}
			open, inMoves = true, true
			switch {
			case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*":
				if cur.Get("Result") == "" {
					cur.Set("Result", tok)
				}
				flush()
				continue
			case tok[0] == '$':
				continue
			}
			// A move number, maybe glued to its move ("12.e2e4", "12...").
			j := 0
			for j < len(tok) && tok[j] >= '0' && tok[j] <= '9' {
				j++
			}
			if j < len(tok) && tok[j] == '.' {
				for j < len(tok) && tok[j] == '.' {
					j++
				}
				tok = tok[j:]
			} else if j == len(tok) {
				continue // a bare number
			}
			if tok == "" {
				continue
			}
			if len(cur.Moves) >= MaxPGNMoves {
				return nil, fmt.Errorf("record: PGN line %d: more than %d moves in a game", line, MaxPGNMoves)
			}
			cur.Moves = append(cur.Moves, tok)
		}
		if len(games) > MaxPGNGames {
			return nil, fmt.Errorf("record: PGN: more than %d games", MaxPGNGames)
		}
	}
	if depth > 0 {
		return nil, fmt.Errorf("record: PGN line %d: a variation with no closing )", line)
	}
	flush()
	if len(games) > MaxPGNGames {
		return nil, fmt.Errorf("record: PGN: more than %d games", MaxPGNGames)
	}
	return games, nil
}

// parsePGNTag reads the inside of a tag pair, Name "value" with the
// standard's escapes.
func parsePGNTag(body string) (Tag, error) {
	body = strings.TrimSpace(body)
	name, val, ok := strings.Cut(body, " ")
	if !ok || !validTagName(name) {
		return Tag{}, fmt.Errorf("tag [%.40s]: want [Name \"value\"]", body)
	}
	val = strings.TrimSpace(val)
	if len(val) < 2 || val[0] != '"' || val[len(val)-1] != '"' {
		return Tag{}, fmt.Errorf("tag %s: the value is not a quoted string", name)
	}
	var b strings.Builder
	in := val[1 : len(val)-1]
	for k := 0; k < len(in); k++ {
		if in[k] == '\\' && k+1 < len(in) {
			k++
		} else if in[k] == '"' {
			return Tag{}, fmt.Errorf("tag %s: a quote inside the value is not escaped", name)
		}
		b.WriteByte(in[k])
	}
	return Tag{name, b.String()}, nil
}
