package record

import (
	"fmt"
	"reflect"
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
// written in the canonical syntax, g's Variations as the standard's
// recursive annotation variations ("( ... )" after the move each replaces,
// a move number "N..." wherever Black's move follows a variation or opens
// one); an illegal move, or a move after the game's end, is an error
// naming it. The FEN of the start is written with [SetUp "1"] whenever the
// variant is not orthodox chess (no other tool knows its start). pieces,
// when not empty, is the [VariantMen] value, the piece definitions of an
// engine-defined variant ("G:mRcpR;J:..."), which the caller makes from
// the engine's definitions.
func (g *Game) PGN(fallback, pieces string) (string, error) {
	return g.PGNWith(fallback, PGNOptions{Pieces: pieces})
}

// NotationTag is the tag in which a PGN file declares its dialect (the
// Name of its PGNOptions; CanonicalNotation for the canonical syntax).
// The writers declare it, and a reader given a dialect reads a declared
// game in that dialect alone: on a board of exactly 10 ranks XBoard's
// dialect numbers the ranks from 0, so one game's moves can be legal in
// both dialects on squares one rank apart.
const NotationTag = "Notation"

// CanonicalNotation is the NotationTag value of the canonical syntax.
const CanonicalNotation = "bomberzero"

// PGNOptions are the choices of a PGN dialect: what another program reads.
type PGNOptions struct {
	// Name is the dialect's NotationTag value ("XBoard"); "" writes
	// CanonicalNotation when Notation is nil, else no such tag.
	Name string
	// Pieces is the [VariantMen] value; "" writes no such tag.
	Pieces string
	// Notation writes the moves; nil writes the canonical syntax.
	Notation env.Notation
	// Position writes the [FEN] of the start; nil writes env's position
	// text.
	Position func(p *env.Position) string
	// ReadPosition reads a [FEN] written by Position; nil reads env's
	// position text.
	ReadPosition func(v *env.Variant, text string) (*env.Position, error)
}

// notationName is the NotationTag value o writes ("" for none).
func (o PGNOptions) notationName() string {
	if o.Name == "" && o.Notation == nil {
		return CanonicalNotation
	}
	return o.Name
}

// A PGNDialect gives the PGN dialect of variant v (ParsePGNIn).
type PGNDialect func(v *env.Variant) (PGNOptions, error)

// PGNWith writes g as PGN does, in the dialect o: XBoard, for one, numbers
// the ranks of a 10-rank board from 0 (frontend/xboard.PGN).
func (g *Game) PGNWith(fallback string, o PGNOptions) (string, error) {
	pieces := o.Pieces
	start, err := g.Start(fallback)
	if err != nil {
		return "", err
	}
	format := func(p *env.Position, m env.Move) string { return p.FormatMove(m) }
	if o.Notation != nil {
		format = o.Notation.FormatMove
	}
	fen := func(p *env.Position) string { return p.String() }
	if o.Position != nil {
		fen = o.Position
	}
	var toks []string
	if toks, err = lineTokens(toks, start.Clone(), g.Moves, g.Variations, format, 0); err != nil {
		return "", fmt.Errorf("record: PGN: %w", err)
	}
	var b strings.Builder
	written := map[string]bool{"SetUp": true, "VariantMen": true, "Variant": true, "FEN": true, NotationTag: true}
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
		writeTag(&b, "FEN", fen(start))
	} else if g.Get("FEN") != "" {
		writeTag(&b, "SetUp", "1")
		writeTag(&b, "FEN", fen(start))
	}
	if pieces != "" {
		writeTag(&b, "VariantMen", pieces)
	}
	if name := o.notationName(); name != "" {
		writeTag(&b, NotationTag, name)
	}
	for _, t := range g.Tags {
		if !written[t.Name] && validTagName(t.Name) {
			writeTag(&b, t.Name, t.Value)
			written[t.Name] = true
		}
	}
	b.WriteByte('\n')
	res := g.Get("Result")
	if res == "" {
		res = "*"
	}
	// Lines of at most 79 characters, the standard's export format.
	line := 0
	for _, tok := range append(toks, res) {
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
	b.WriteString("\n")
	return b.String(), nil
}

// lineTokens appends the movetext tokens of moves played from p (which it
// plays them on) and of vars, written by format, the variations of that line: move numbers
// glued to their moves ("12. e2e4", "12... e9e7"), each variation's first
// token after "(" and its last before ")", as the standard's export format
// writes them. depth is how deep the line is nested.
func lineTokens(toks []string, p *env.Position, moves []string, vars []Variation, format func(*env.Position, env.Move) string, depth int) ([]string, error) {
	if depth > maxPGNVariation {
		return toks, fmt.Errorf("variations nested more than %d deep", maxPGNVariation)
	}
	for k, va := range vars {
		if va.At < 0 || va.At >= len(moves) || (k > 0 && va.At < vars[k-1].At) {
			return toks, fmt.Errorf("variation %d replaces move %d of a line of %d moves: want 0 to %d, in order", k+1, va.At, len(moves), len(moves)-1)
		}
		if len(va.Moves) == 0 {
			return toks, fmt.Errorf("variation %d (at move %d) has no moves", k+1, va.At+1)
		}
	}
	number := true // the next move needs its number, Black's too
	k := 0         // the next variation
	for i, text := range moves {
		if res, why := p.Status(); res != env.Ongoing {
			return toks, fmt.Errorf("move %d %q: the game already ended (%s, %s)", i+1, text, res, why)
		}
		m, err := p.ParseMove(text)
		if err != nil {
			return toks, fmt.Errorf("move %d %q: %w", i+1, text, err)
		}
		tok := format(p, m)
		if p.SideToMove() == env.White {
			tok = strconv.Itoa(p.MoveNumber()) + ". " + tok
		} else if number {
			tok = strconv.Itoa(p.MoveNumber()) + "... " + tok
		}
		toks = append(toks, tok)
		number = false
		for ; k < len(vars) && vars[k].At == i; k++ {
			first := len(toks)
			if toks, err = lineTokens(toks, p.Clone(), vars[k].Moves, vars[k].Variations, format, depth+1); err != nil {
				return toks, fmt.Errorf("move %d's variation %d: %w", i+1, k+1, err)
			}
			toks[first] = "(" + toks[first]
			toks[len(toks)-1] += ")"
			number = true
		}
		p.DoMove(m)
	}
	return toks, nil
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
// of the line), '%' escape lines, numeric annotation glyphs ($1), move
// numbers and the "!?+#" suffixes are skipped; variations ((...), nested)
// are read into the game's Variations. Each game's moves and variations
// are replayed from its start (its Variant tag, or fallback, and its FEN
// tag) in either move syntax and stored as Game Courier text; the SetUp
// and VariantMen tags are dropped (a record does not need them), the
// others kept in order, and the Plies tag says how many main-line moves
// were read. An error names the game, and the move or line, that is
// wrong; every bound (MaxPGNBytes and the others, MaxPGNMoves counting
// the moves of the variations too) is checked before the work it limits.
func ParsePGN(text, fallback string) ([]Game, error) {
	return ParsePGNIn(text, fallback, nil)
}

// ParsePGNIn reads the games of a PGN text as ParsePGNAs does, each game
// in the dialect its NotationTag declares, or else in the one of dialect
// and the canonical syntax its moves are legal in.
func ParsePGNIn(text, fallback string, dialect PGNDialect) ([]Game, error) {
	return ParsePGNAs(text, fallback, dialect, "")
}

// ParsePGNAs reads the games of a PGN text as ParsePGN does, in dialect's
// notation and position text for each game's variant (nil: the canonical
// syntax alone) or in the canonical syntax, so a program's own files and
// the canonical ones both read. Which of the two: assume when it is not ""
// (the dialect's Name or CanonicalNotation), else the game's NotationTag,
// else the one its moves are legal in. A game legal in both as two
// different games (on a board of 10 ranks, XBoard's rank numbers against
// the canonical ones), or one declaring a dialect this reader lacks, is an
// error saying how to declare it: never a game one rank off.
func ParsePGNAs(text, fallback string, dialect PGNDialect, assume string) ([]Game, error) {
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
			if t.Name != "SetUp" && t.Name != "VariantMen" && t.Name != NotationTag {
				g.Tags = append(g.Tags, t)
			}
		}
		want, from := assume, "the notation asked for"
		if want == "" {
			want, from = r.Get(NotationTag), "its ["+NotationTag+"] tag"
		}
		line, err := readDeclared(&g, fallback, Variation{Moves: r.Moves, Variations: r.Variations}, dialect, want, from)
		if err != nil {
			return nil, fmt.Errorf("record: PGN game %d: %w", i+1, err)
		}
		g.Moves, g.Variations = line.Moves, line.Variations
		g.Set("Plies", strconv.Itoa(len(g.Moves)))
		games = append(games, g)
	}
	return games, nil
}

// readDeclared reads the move tokens of line from g's start in the dialect
// named want (from says where that name comes from), or, when want is "",
// in whichever of dialect and the canonical syntax reads them, refusing a
// line both read as different games.
func readDeclared(g *Game, fallback string, line Variation, dialect PGNDialect, want, from string) (Variation, error) {
	var o *PGNOptions
	name := ""
	if dialect != nil {
		v, err := g.variant(fallback)
		if err != nil {
			return Variation{}, err
		}
		d, err := dialect(v)
		if err != nil {
			return Variation{}, fmt.Errorf("the PGN dialect of %s: %w", v.Name, err)
		}
		o, name = &d, d.notationName()
	}
	switch {
	case strings.EqualFold(want, CanonicalNotation):
		return readGame(g, fallback, line, nil)
	case o != nil && want != "" && strings.EqualFold(want, name):
		return readGame(g, fallback, line, o)
	case want != "":
		known := CanonicalNotation
		if name != "" {
			known = name + " or " + CanonicalNotation
		}
		return Variation{}, fmt.Errorf("%s names the notation %q: this reader reads %s", from, want, known)
	}
	canon, cerr := readGame(g, fallback, line, nil)
	if o == nil {
		return canon, cerr
	}
	other, oerr := readGame(g, fallback, line, o)
	switch {
	case cerr != nil && oerr != nil:
		return Variation{}, fmt.Errorf("in %s's notation: %w; in %s's: %v", CanonicalNotation, cerr, name, oerr)
	case cerr != nil:
		return other, nil
	case oerr != nil || reflect.DeepEqual(canon, other):
		return canon, nil
	}
	where := "in their variations"
	for k := range min(len(canon.Moves), len(other.Moves)) {
		if canon.Moves[k] != other.Moves[k] {
			where = fmt.Sprintf("move %d %q is %s in %s's notation and %s in %s's", k+1, line.Moves[k], canon.Moves[k], CanonicalNotation, other.Moves[k], name)
			break
		}
	}
	return Variation{}, fmt.Errorf("its moves are legal both in %s's notation and in %s's as two different games (%s): declare which with [%s %q] or [%s %q]",
		CanonicalNotation, name, where, NotationTag, name, NotationTag, CanonicalNotation)
}

// variant loads the record's variant: its Variant tag, or fallback.
func (g *Game) variant(fallback string) (*env.Variant, error) {
	name := g.Get("Variant")
	if name == "" {
		name = fallback
	}
	v, err := env.LoadVariant(name)
	if err != nil {
		return nil, fmt.Errorf("record: Variant %q: %w", name, err)
	}
	return v, nil
}

// readGame replays the move tokens of line from g's start, both read in
// dialect o (nil: env's syntaxes).
func readGame(g *Game, fallback string, line Variation, o *PGNOptions) (Variation, error) {
	if o == nil || (o.Notation == nil && o.ReadPosition == nil) {
		start, err := g.Start(fallback)
		if err != nil {
			return Variation{}, err
		}
		return readLine(start, line, env.Canonical{})
	}
	v, err := g.variant(fallback)
	if err != nil {
		return Variation{}, err
	}
	start := v.NewPosition()
	if fen := g.Get("FEN"); fen != "" {
		read := v.ParsePosition
		if o.ReadPosition != nil {
			read = func(text string) (*env.Position, error) { return o.ReadPosition(v, text) }
		}
		if start, err = read(fen); err != nil {
			return Variation{}, fmt.Errorf("record: FEN: %w", err)
		}
	}
	var n env.Notation = env.Canonical{}
	if o.Notation != nil {
		n = o.Notation
	}
	return readLine(start, line, n)
}

// readLine replays the move tokens of line (and of its variations) from p,
// which it plays them on, read by n, and returns them as Game Courier
// text.
func readLine(p *env.Position, line Variation, n env.Notation) (Variation, error) {
	out := Variation{At: line.At}
	k := 0 // the next variation
	for j, text := range line.Moves {
		if res, why := p.Status(); res != env.Ongoing {
			return out, fmt.Errorf("move %d %q: the game already ended (%s, %s)", j+1, text, res, why)
		}
		m, err := n.ParseMove(p, text)
		if err != nil {
			return out, fmt.Errorf("move %d %q: %w", j+1, text, err)
		}
		for ; k < len(line.Variations) && line.Variations[k].At == j; k++ {
			va, err := readLine(p.Clone(), line.Variations[k], n)
			if err != nil {
				return out, fmt.Errorf("move %d's variation %d: %w", j+1, k+1, err)
			}
			out.Variations = append(out.Variations, va)
		}
		out.Moves = append(out.Moves, p.FormatGC(m))
		p.DoMove(m)
	}
	return out, nil
}

// scanPGN splits a PGN text into games of tags, move tokens and
// variations of move tokens, without reading the moves.
func scanPGN(text string) ([]Game, error) {
	var games []Game
	var cur Game
	inMoves, open := false, false // moves of cur begun; cur has anything
	// lines is the path from cur's main line (a Variation holding cur's
	// moves) to the variation being read; each is an element of its
	// parent's Variations, which only grows while it is the last line.
	main := &Variation{}
	lines := []*Variation{main}
	moves := 0 // of cur, its variations' too
	line := 1
	flush := func() {
		if open {
			cur.Moves, cur.Variations = main.Moves, main.Variations
			games = append(games, cur)
		}
		cur, inMoves, open, moves = Game{}, false, false, 0
		main = &Variation{}
		lines = []*Variation{main}
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
		depth := len(lines) - 1
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
			if depth+1 > maxPGNVariation {
				return nil, fmt.Errorf("record: PGN line %d: variations nested more than %d deep", line, maxPGNVariation)
			}
			top := lines[depth]
			if len(top.Moves) == 0 {
				return nil, fmt.Errorf("record: PGN line %d: a variation before any move it could replace", line)
			}
			// A variation replaces the move before it.
			top.Variations = append(top.Variations, Variation{At: len(top.Moves) - 1})
			lines = append(lines, &top.Variations[len(top.Variations)-1])
			open, inMoves = true, true
			i++
		case ')':
			if depth == 0 {
				return nil, fmt.Errorf("record: PGN line %d: ) closes no variation", line)
			}
			if len(lines[depth].Moves) == 0 {
				return nil, fmt.Errorf("record: PGN line %d: a variation with no moves", line)
			}
			lines = lines[:depth]
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
			open, inMoves = true, true
			switch {
			case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*":
				if depth > 0 {
					return nil, fmt.Errorf("record: PGN line %d: the result %s inside a variation", line, tok)
				}
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
			if moves >= MaxPGNMoves {
				return nil, fmt.Errorf("record: PGN line %d: more than %d moves in a game", line, MaxPGNMoves)
			}
			moves++
			lines[depth].Moves = append(lines[depth].Moves, tok)
		}
		if len(games) > MaxPGNGames {
			return nil, fmt.Errorf("record: PGN: more than %d games", MaxPGNGames)
		}
	}
	if len(lines) > 1 {
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
