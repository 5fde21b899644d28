package env

import (
	"errors"
	"fmt"
	"strings"
)

// Move text comes in two syntaxes (docs/notation.md):
//
//   - Game Courier, as published games write it (RULES.md section 7): "f2-f5",
//     castling as two moves "i10-h10;f10-i10" (either order), removals
//     "a3-a8;a6-", promotion "e9-e10;Q-e10", drops "~P-e2" and "~P-e2;e2-e5".
//   - canonical, compact and unique: "f2f5", "e9e10=Q", castling "f1i1O"
//     (king from and to), drops "J@e2" and "J@e2e5".
//
// ParseMove reads both; FormatMove and FormatGC write them.

// FormatMove writes m in the canonical syntax.
func (p *Position) FormatMove(m Move) string {
	g := p.v.Geo
	switch m.Kind() {
	case Drop:
		s := string(p.v.Pieces[m.Promotion()].Letter) + "@" + g.Name(m.From())
		if m.To() != m.From() {
			s += g.Name(m.To())
		}
		return s
	case Castle:
		return g.Name(m.From()) + g.Name(m.To()) + "O"
	}
	s := g.Name(m.From()) + g.Name(m.To())
	if pr := m.Promotion(); pr != 0 {
		s += "=" + string(p.v.Pieces[pr].Letter)
	}
	return s
}

// FormatGC writes m in the Game Courier syntax, naming every piece removed
// off the landing square and any promotion.
func (p *Position) FormatGC(m Move) string {
	v := p.v
	g := v.Geo
	switch m.Kind() {
	case Drop:
		s := "~" + string(v.dropNotation) + "-" + g.Name(m.From())
		if m.To() != m.From() {
			s += ";" + g.Name(m.From()) + "-" + g.Name(m.To())
		}
		return s
	case Castle:
		r := p.castleRule(m)
		if r == nil {
			return "?"
		}
		king := g.Name(r.kingFrom) + "-" + g.Name(r.kingTo)
		rook := g.Name(r.rookFrom) + "-" + g.Name(r.rookTo)
		if r.rookTo == r.kingFrom {
			return king + ";" + rook
		}
		return rook + ";" + king
	}
	s := g.Name(m.From()) + "-" + g.Name(m.To())
	sq, n := p.removals(m)
	for i := 0; i < n; i++ {
		if sq[i] != m.To() {
			s += ";" + g.Name(sq[i]) + "-"
		}
	}
	if pr := m.Promotion(); pr != 0 {
		l := pieceLetter(v, MakePiece(p.side, pr))
		s += ";" + string(l) + "-" + g.Name(m.To())
	}
	return s
}

// moveDesc is what a move text says, before it is matched to a legal move.
type moveDesc struct {
	pairs    [][2]Square
	removals []Square
	promo    int
	promoSq  Square
	drop     bool
	dropType int
	dropSq   Square
	castle   bool
}

// ParseMove reads a move in either syntax and returns the legal move it
// names, or an error saying what is wrong with the text or why the move is
// illegal here. The error does not repeat the text: the caller, which knows
// where the text came from, names it once ("move 3 \"e2-e9\": ...").
func (p *Position) ParseMove(text string) (Move, error) {
	t := strings.TrimRight(strings.TrimSpace(text), "+#!?")
	if t == "" {
		return NoMove, errors.New("no move given")
	}
	var d moveDesc
	var err error
	if strings.ContainsAny(t, ";~") || strings.Contains(t, "-") {
		err = p.scanGC(t, &d)
	} else {
		err = p.scanCanonical(t, &d)
	}
	if err != nil {
		return NoMove, err
	}
	return p.match(&d)
}

func (p *Position) letterType(c byte) (int, error) {
	t := p.v.PieceByLetter(c)
	if t == 0 {
		return 0, fmt.Errorf("%q is not a piece of %s", c, p.v.Name)
	}
	return t, nil
}

func (p *Position) scanCanonical(t string, d *moveDesc) error {
	g := p.v.Geo
	if i := strings.IndexByte(t, '@'); i >= 0 {
		if i != 1 {
			return errors.New("expected a drop as J@e2 or J@e2e5")
		}
		tp, err := p.letterType(t[0])
		if err != nil {
			return err
		}
		s, n := g.scanSquare(t[2:])
		if n == 0 {
			return fmt.Errorf("expected a square after @, got %q", t[2:])
		}
		d.drop, d.dropType, d.dropSq = true, tp, s
		if rest := t[2+n:]; rest != "" {
			s2, n2 := g.scanSquare(rest)
			if n2 == 0 || n2 != len(rest) {
				return fmt.Errorf("expected a push square after the drop square, got %q", rest)
			}
			d.pairs = append(d.pairs, [2]Square{s, s2})
		}
		return nil
	}
	from, n := g.scanSquare(t)
	if n == 0 {
		return fmt.Errorf("expected a from square such as e2, got %q", t)
	}
	to, n2 := g.scanSquare(t[n:])
	if n2 == 0 {
		return fmt.Errorf("expected a to square after %s, got %q", g.Name(from), t[n:])
	}
	d.pairs = append(d.pairs, [2]Square{from, to})
	switch rest := t[n+n2:]; {
	case rest == "":
	case rest == "O":
		d.castle = true
	case len(rest) == 2 && rest[0] == '=':
		tp, err := p.letterType(rest[1])
		if err != nil {
			return err
		}
		d.promo, d.promoSq = tp, to
	default:
		return fmt.Errorf("unexpected %q after the squares: expected nothing, =Q (promotion) or O (castling)", rest)
	}
	return nil
}

func (p *Position) scanGC(t string, d *moveDesc) error {
	g := p.v.Geo
	for _, tok := range strings.Split(t, ";") {
		tok = strings.TrimSpace(tok)
		switch {
		case tok == "":
			return errors.New("empty part between semicolons")
		case tok[0] == '~':
			if len(tok) < 4 || tok[2] != '-' || d.drop {
				return fmt.Errorf("%q: expected a drop as ~P-e2", tok)
			}
			s, n := g.scanSquare(tok[3:])
			if n == 0 || n != len(tok)-3 {
				return fmt.Errorf("%q: expected a square after ~%c-", tok, tok[1])
			}
			l := tok[1]
			if l >= 'a' && l <= 'z' {
				l -= 'a' - 'A'
			}
			tp := p.v.dropType
			if tp == 0 || (l != p.v.dropNotation && l != p.v.Pieces[tp].Letter) {
				return fmt.Errorf("%q: %c cannot be dropped in %s", tok, tok[1], p.v.Name)
			}
			d.drop, d.dropType, d.dropSq = true, tp, s
		case len(tok) >= 2 && tok[1] == '-' && (tok[0] < 'a' || tok[0] > 'z' || len(tok) > 2 && tok[2] >= 'a' && tok[2] <= 'z'):
			// "Q-e10": a piece placed, that is a promotion.
			tp, err := p.letterType(tok[0])
			if err != nil {
				return fmt.Errorf("%q: %w", tok, err)
			}
			s, n := g.scanSquare(tok[2:])
			if n == 0 || n != len(tok)-2 || d.promo != 0 {
				return fmt.Errorf("%q: expected a promotion as Q-e10", tok)
			}
			d.promo, d.promoSq = tp, s
		default:
			from, n := g.scanSquare(tok)
			if n == 0 || n >= len(tok) || tok[n] != '-' {
				return fmt.Errorf("%q: expected a move e2-e4, a removal e5-, a promotion Q-e10 or a drop ~P-e2", tok)
			}
			rest := tok[n+1:]
			if rest == "" {
				d.removals = append(d.removals, from)
				continue
			}
			to, n2 := g.scanSquare(rest)
			if n2 == 0 || n2 != len(rest) {
				return fmt.Errorf("%q: expected a square after -", tok)
			}
			if len(d.pairs) == 2 {
				return fmt.Errorf("%q: more than two moves in one", tok)
			}
			d.pairs = append(d.pairs, [2]Square{from, to})
		}
	}
	if len(d.pairs) == 2 && !d.drop {
		d.castle = true
	}
	if len(d.pairs) == 0 && !d.drop {
		return errors.New("expected a move such as e2-e4")
	}
	return nil
}

// match finds the legal move a description names, or explains why none is.
func (p *Position) match(d *moveDesc) (Move, error) {
	g := p.v.Geo
	var buf [MaxMoves]Move
	legal := p.LegalMoves(buf[:0])
	if d.drop {
		to := d.dropSq
		if len(d.pairs) > 1 || len(d.pairs) == 1 && d.pairs[0][0] != d.dropSq {
			return NoMove, errors.New("a drop may only be followed by a push of the dropped piece")
		}
		if len(d.pairs) == 1 {
			to = d.pairs[0][1]
		}
		want := newMove(d.dropSq, to, d.dropType, Drop)
		for _, m := range legal {
			if m == want {
				return m, nil
			}
		}
		return NoMove, p.whyIllegal(want)
	}
	if d.castle {
		for _, m := range legal {
			if m.Kind() != Castle {
				continue
			}
			r := p.castleRule(m)
			k, rk := [2]Square{r.kingFrom, r.kingTo}, [2]Square{r.rookFrom, r.rookTo}
			if len(d.pairs) == 1 && d.pairs[0] == k ||
				len(d.pairs) == 2 && (d.pairs[0] == k && d.pairs[1] == rk || d.pairs[0] == rk && d.pairs[1] == k) {
				return m, nil
			}
		}
		return NoMove, errors.New("no legal castling moves the king and rook so")
	}
	from, to := d.pairs[0][0], d.pairs[0][1]
	var found []Move
	for _, m := range legal {
		if m.From() == from && m.To() == to && m.Kind() != Castle && m.Kind() != Drop {
			found = append(found, m)
		}
	}
	if len(found) == 0 {
		return NoMove, p.whyIllegal(newMove(from, to, 0, Normal))
	}
	var m Move
	switch {
	case len(found) == 1 && (d.promo == 0 || found[0].Promotion() == d.promo):
		m = found[0]
	case d.promo == 0:
		var names []string
		for _, f := range found {
			names = append(names, string(p.v.Pieces[f.Promotion()].Letter))
		}
		return NoMove, fmt.Errorf("promotion piece missing: expected one of %s", strings.Join(names, " "))
	default:
		for _, f := range found {
			if f.Promotion() == d.promo {
				m = f
			}
		}
		if m == NoMove {
			return NoMove, fmt.Errorf("%c is not a piece this move can promote to", p.v.Pieces[d.promo].Letter)
		}
	}
	if d.promo != 0 && d.promoSq != to {
		return NoMove, fmt.Errorf("promotion on %s, but the move lands on %s", g.Name(d.promoSq), g.Name(to))
	}
	sq, n := p.removals(m)
	for _, r := range d.removals {
		ok := false
		for i := 0; i < n; i++ {
			ok = ok || sq[i] == r
		}
		if !ok {
			return NoMove, fmt.Errorf("the move does not remove the piece on %s", g.Name(r))
		}
	}
	return m, nil
}

// whyIllegal explains why a move the text names is not legal.
func (p *Position) whyIllegal(m Move) error {
	g := p.v.Geo
	from, to := m.From(), m.To()
	if m.Kind() == Drop {
		switch {
		case p.hand[p.side][m.Promotion()] == 0:
			return errors.New("no piece left in hand to drop")
		case p.board[from] != NoPiece:
			return fmt.Errorf("cannot drop on %s: it is not empty", g.Name(from))
		case g.Rank(from) != p.v.dropRank[p.side]:
			return fmt.Errorf("cannot drop on %s: drops go on rank %d", g.Name(from), p.v.dropRank[p.side])
		}
	} else {
		q := p.board[from]
		switch {
		case q == NoPiece:
			return fmt.Errorf("no piece on %s", g.Name(from))
		case q.Color() != p.side:
			return fmt.Errorf("the piece on %s is %s's, and %s is to move", g.Name(from), q.Color(), p.side)
		}
	}
	var buf [MaxMoves]Move
	for _, pm := range p.pseudoMoves(buf[:0], false) {
		if pm.From() == from && pm.To() == to && pm.Kind() == m.Kind() {
			if k := p.king[p.side.Other()]; k != NoSquare && p.v.scepter[p.side.Other()].has(k) {
				return errors.New("the game is already over (scepter)")
			}
			return errors.New("it leaves the king in check")
		}
	}
	if m.Kind() == Drop {
		return fmt.Errorf("cannot drop and push to %s", g.Name(to))
	}
	return fmt.Errorf("the %s on %s cannot move to %s", p.v.Pieces[p.board[from].Type()].Name, g.Name(from), g.Name(to))
}
