package env

import (
	"fmt"
	"strings"
)

// Notation writes and reads the moves of a position in one text form, so
// that a front end translates between its protocol's form and the rules
// engine's moves without knowing how either is built. The forms here are
// bomberzero's own two (Canonical and GameCourier, docs/notation.md) and
// UCI's coordinate form (UCI, docs/uci.md); a protocol with a dialect of
// its own (XBoard's coordinates, package frontend/xboard) implements the
// interface beside its protocol.
type Notation interface {
	// FormatMove writes legal move m of p.
	FormatMove(p *Position, m Move) string
	// ParseMove returns the legal move of p that text names, or an error
	// that says why text names none.
	ParseMove(p *Position, text string) (Move, error)
}

// Canonical is bomberzero's compact and unique move text: "f2f5",
// "e9e10=Q", castling "f1i1O", drops "J@e2" and "J@e2e5". It reads Game
// Courier text too.
type Canonical struct{}

// FormatMove writes m in the canonical syntax (Position.FormatMove).
func (Canonical) FormatMove(p *Position, m Move) string { return p.FormatMove(m) }

// ParseMove reads canonical or Game Courier text (Position.ParseMove).
func (Canonical) ParseMove(p *Position, text string) (Move, error) { return p.ParseMove(text) }

// GameCourier is the move text of published games (RULES.md section 7):
// "f2-f5", castling as two moves, removals and promotions spelled out. It
// reads canonical text too.
type GameCourier struct{}

// FormatMove writes m in the Game Courier syntax (Position.FormatGC).
func (GameCourier) FormatMove(p *Position, m Move) string { return p.FormatGC(m) }

// ParseMove reads Game Courier or canonical text (Position.ParseMove).
func (GameCourier) ParseMove(p *Position, text string) (Move, error) { return p.ParseMove(text) }

// UCI is the Universal Chess Interface's coordinate form ("long
// algebraic"), extended for the family's moves it cannot hold
// (docs/uci.md): from and to squares ("e2e4", "e9e10"), a promotion as a
// lower-case letter ("e9e10q"), castling as the king's from and to squares
// (with "O" after them when a king step has the same squares), a drop as
// LETTER@SQUARE ("J@e2") and a drop with a push as LETTER@SQUARE then the
// push's end ("J@e2e4"). A double capture or a fly-over needs no more: the
// removed pieces follow from the position. It reads canonical and Game
// Courier text too.
type UCI struct{}

// FormatMove writes legal move m of p in UCI's extended coordinate form.
func (UCI) FormatMove(p *Position, m Move) string {
	g := p.Variant().Geo
	switch m.Kind() {
	case Drop:
		return p.FormatMove(m)
	case Castle:
		s := g.Name(m.From()) + g.Name(m.To())
		for _, o := range p.LegalMoves(nil) {
			if o != m && o.From() == m.From() && o.To() == m.To() {
				return s + "O"
			}
		}
		return s
	}
	s := g.Name(m.From()) + g.Name(m.To())
	if t := m.Promotion(); t != 0 {
		s += strings.ToLower(string(p.Variant().Pieces[t].Letter))
	}
	return s
}

// ParseMove reads a move in the form FormatMove writes (or canonical or
// Game Courier text) and returns the legal move of p it names.
func (n UCI) ParseMove(p *Position, text string) (Move, error) {
	for _, m := range p.LegalMoves(nil) {
		if n.FormatMove(p, m) == text {
			return m, nil
		}
	}
	m, err := p.ParseMove(text)
	if err != nil {
		return NoMove, fmt.Errorf("move %q: %w", text, err)
	}
	return m, nil
}

// FormatLine rewrites a line of moves from p, each text read by from, in
// notation to; it ends at the first text from does not read as a legal
// move (a principal variation cut short stays readable).
func FormatLine(p *Position, texts []string, from, to Notation) []string {
	q := p.Clone()
	out := make([]string, 0, len(texts))
	for _, t := range texts {
		m, err := from.ParseMove(q, t)
		if err != nil {
			break
		}
		out = append(out, to.FormatMove(q, m))
		q.DoMove(m)
	}
	return out
}

// CheckNotation reports the first way n fails p's legal moves: two moves
// written alike, or a move whose text does not read back as itself. A
// front end's notation tests run it over the positions of many games.
func CheckNotation(n Notation, p *Position) error {
	seen := map[string]Move{}
	for _, m := range p.LegalMoves(nil) {
		s := n.FormatMove(p, m)
		if o, dup := seen[s]; dup {
			return fmt.Errorf("%s: %s and %s are both written %q", p, p.FormatMove(o), p.FormatMove(m), s)
		}
		seen[s] = m
		back, err := n.ParseMove(p, s)
		if err != nil {
			return fmt.Errorf("%s: %q (%s) does not read back: %w", p, s, p.FormatMove(m), err)
		}
		if back != m {
			return fmt.Errorf("%s: %q (%s) reads back as %s", p, s, p.FormatMove(m), p.FormatMove(back))
		}
	}
	return nil
}
