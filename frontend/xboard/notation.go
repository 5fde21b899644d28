package xboard

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"bomberzero/env"
)

// knownToXBoard says whether XBoard knows v's rules itself: orthodox chess,
// its variant "normal". Every other variant is engine-defined, and its
// moves and positions are written in the forms below.
func knownToXBoard(v *env.Variant) bool { return v.Name == "chess" }

// coords names the squares of a board as XBoard 4.9 does: files from a,
// ranks numbered from 0 on a board of exactly 10 ranks (XBoard's rule for
// xiangqi-sized boards, common.h: ONE = '1' - (BOARD_HEIGHT == 10)) and
// from 1 on every other board, whatever the variant's own numbering.
type coords struct {
	g    *env.Geometry
	base int // XBoard's number of the lowest rank
}

func coordsOf(v *env.Variant) coords {
	base := 1
	if v.Geo.Ranks == 10 {
		base = 0
	}
	return coords{g: v.Geo, base: base}
}

// name returns square s in XBoard's numbering ("e0" for fbgc's e1).
func (c coords) name(s env.Square) string {
	return string(rune('a'+c.g.File(s))) + strconv.Itoa(c.g.Rank(s)-c.g.FirstRank+c.base)
}

// rank turns an XBoard rank number into the variant's own.
func (c coords) rank(n int) int { return n - c.base + c.g.FirstRank }

// scan reads a square in XBoard's numbering at the start of text and
// returns it with the bytes read, or 0 bytes when there is none (no file
// letter and rank, off the board, or a hole).
func (c coords) scan(text string) (env.Square, int) {
	if len(text) < 2 || text[0] < 'a' || text[0] > 'z' {
		return env.NoSquare, 0
	}
	n, r := 1, 0
	for n < len(text) && n < 3 && text[n] >= '0' && text[n] <= '9' {
		r = r*10 + int(text[n]-'0')
		n++
	}
	if n == 1 || (n == 3 && text[1] == '0') {
		return env.NoSquare, 0
	}
	s := c.g.At(int(text[0]-'a'), c.rank(r))
	if s == env.NoSquare || !c.g.IsReal(s) {
		return env.NoSquare, 0
	}
	return s, n
}

// Notation is the move notation bomberzero speaks with XBoard (FormatMove
// and ParseMove), as an env.Notation for the session.
type Notation struct{}

// FormatMove writes legal move m of p as FormatMove does.
func (Notation) FormatMove(p *env.Position, m env.Move) string { return FormatMove(p, m) }

// ParseMove reads a move of p as ParseMove does.
func (Notation) ParseMove(p *env.Position, text string) (env.Move, error) { return ParseMove(p, text) }

// FormatMove writes legal move m of p as bomberzero sends it to XBoard
// (docs/xboard.md). For orthodox chess, which XBoard knows, that is UCI's
// coordinate form (env.UCI). For the engine-defined variants it is
// XBoard's coordinate form with XBoard's rank numbers (coords), extended
// so that XBoard's own board follows every move:
//
//   - a move, capture or promotion: "e1e3", "e8e9q";
//   - a move that removes a piece off its landing square (a bomber's
//     fly-over, a helicopter leap over an enemy, en passant): two legs
//     through the removed piece's square, "d0d4,d4d5", which XBoard 4.9
//     reads as one move removing the piece on the shared square;
//   - castling: the king's move then the rook's, "f0h0,i0g0"; when the king
//     lands on the rook's square the rook's leg is written as staying put,
//     "f0b0,b0b0", the one form XBoard 4.9 reads as that castling;
//   - a drop: the piece letter, "@", and the square the piece ends on,
//     "J@e1" (a plain drop) or "J@e3" (dropped on e1 and pushed to e3: a
//     drop lands only on its side's drop rank, so the end square names the
//     push).
func FormatMove(p *env.Position, m env.Move) string {
	v := p.Variant()
	if knownToXBoard(v) {
		return env.UCI{}.FormatMove(p, m)
	}
	c := coordsOf(v)
	switch m.Kind() {
	case env.Drop:
		return string(v.Pieces[m.Promotion()].Letter) + "@" + c.name(m.To())
	case env.Castle:
		rf, rt := castleRook(p, m)
		if rf == env.NoSquare {
			return c.name(m.From()) + c.name(m.To())
		}
		if m.To() == rf {
			rt = rf
		}
		return c.name(m.From()) + c.name(m.To()) + "," + c.name(rf) + c.name(rt)
	}
	promo := promoSuffix(p, m)
	if k := killSquare(p, m); k != env.NoSquare {
		return c.name(m.From()) + c.name(k) + "," + c.name(k) + c.name(m.To()) + promo
	}
	return c.name(m.From()) + c.name(m.To()) + promo
}

func promoSuffix(p *env.Position, m env.Move) string {
	if t := m.Promotion(); t != 0 && m.Kind() != env.Drop {
		return strings.ToLower(string(p.Variant().Pieces[t].Letter))
	}
	return ""
}

// killSquare returns the square of the piece legal move m removes off its
// landing square, NoSquare when it removes none there. No built-in piece
// removes two pieces off its landing square in one move (a bomber flies
// over one enemy; a helicopter leap passes one square).
func killSquare(p *env.Position, m env.Move) env.Square {
	sq, n := p.Removed(m)
	for i := 0; i < n; i++ {
		if sq[i] != m.To() {
			return sq[i]
		}
	}
	return env.NoSquare
}

// castleRook returns the squares the rook of castling move m starts and
// ends on, read from the board before and after the move.
func castleRook(p *env.Position, m env.Move) (from, to env.Square) {
	v := p.Variant()
	g := v.Geo
	after := p.Clone()
	after.DoMove(m)
	us, king := p.SideToMove(), v.KingType()
	rook := func(q env.Piece) bool { return q != env.NoPiece && q.Color() == us && q.Type() != king }
	from, to = env.NoSquare, env.NoSquare
	for i := 0; i < g.Cells(); i++ {
		s := env.Square(i)
		if !g.IsReal(s) || p.At(s) == after.At(s) {
			continue
		}
		if rook(p.At(s)) {
			from = s
		}
		if rook(after.At(s)) {
			to = s
		}
	}
	return from, to
}

// alternates returns the other texts ParseMove reads as legal move m of an
// engine-defined variant: UCI's extended coordinate form (docs/uci.md) in
// XBoard's rank numbers, and the forms XBoard itself sends.
func alternates(p *env.Position, m env.Move, legal []env.Move) []string {
	c := coordsOf(p.Variant())
	from, to := c.name(m.From()), c.name(m.To())
	var out []string
	switch m.Kind() {
	case env.Drop:
		if m.To() != m.From() {
			// UCI's drop with a push: the drop square, then the push's end.
			out = append(out, string(p.Variant().Pieces[m.Promotion()].Letter)+"@"+c.name(m.From())+to)
		}
		return out
	case env.Castle:
		rf, rt := castleRook(p, m)
		if rf != env.NoSquare {
			// XBoard's own two legs name the rook's real move.
			out = append(out, from+to+","+c.name(rf)+c.name(rt))
		}
		step := false
		for _, o := range legal {
			step = step || (o != m && o.From() == m.From() && o.To() == m.To())
		}
		if !step {
			out = append(out, from+to) // the king's move alone: no king step has those squares
		}
		return append(out, from+to+"O") // UCI's form when a king step has those squares
	}
	bases := []string{from + to}
	if k := killSquare(p, m); k != env.NoSquare {
		bases = append(bases, from+c.name(k)+","+c.name(k)+to)
	}
	suffixes := []string{promoSuffix(p, m)}
	if suffixes[0] != "" && forcedPromotion(m, legal) {
		suffixes = append(suffixes, "") // an automatic promotion needs no letter
	}
	for _, b := range bases {
		for _, s := range suffixes {
			out = append(out, b+s)
		}
	}
	return out
}

// forcedPromotion says whether m is the only legal move between its squares
// (a landing promotion, not a pawn's choice).
func forcedPromotion(m env.Move, legal []env.Move) bool {
	for _, o := range legal {
		if o != m && o.From() == m.From() && o.To() == m.To() && o.Kind() == m.Kind() {
			return false
		}
	}
	return true
}

// ParseMove reads a move as XBoard sends it and returns the legal move of p
// it names. For orthodox chess that is UCI's coordinate form
// (env.UCI). For the engine-defined variants it reads what
// FormatMove writes, XBoard's own castling legs ("f0b0,b0c0"), a plain
// from-to for a move that removes a piece off its landing square ("d0d5"),
// the king's move alone for a castling no king step shares, UCI's drop
// with a push ("J@e1e3") and castling ("f0g0O"), and a landing promotion
// without its letter; letter case is ignored. An illegal or unreadable
// move is an error naming the reason in XBoard's square names.
func ParseMove(p *env.Position, text string) (env.Move, error) {
	v := p.Variant()
	if knownToXBoard(v) {
		return env.UCI{}.ParseMove(p, text)
	}
	legal := p.LegalMoves(nil)
	for _, m := range legal {
		if strings.EqualFold(FormatMove(p, m), text) {
			return m, nil
		}
	}
	var found []env.Move
	for _, m := range legal {
		for _, a := range alternates(p, m, legal) {
			if strings.EqualFold(a, text) {
				found = append(found, m)
				break
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return env.NoMove, whyIllegal(p, text)
	}
	var names []string
	for _, m := range found {
		names = append(names, FormatMove(p, m))
	}
	return env.NoMove, fmt.Errorf("ambiguous: it names %s", strings.Join(names, " and "))
}

// looksLikeMove says whether text has the shape of a move in XBoard's
// coordinate form (a square then a square, or a drop), legal or not.
func looksLikeMove(text string) bool { return moveShape.MatchString(text) }

var moveShape = regexp.MustCompile(`^([a-z][0-9]+[a-z][0-9]+[a-zA-Z]?(,[a-z][0-9]+[a-z][0-9]+[a-zA-Z]?)?|[A-Za-z]@[a-z][0-9]+([a-z][0-9]+)?)$`)

// whyIllegal explains why text names no legal move of p: the rules
// engine's reason for the move the text's squares name, with the squares
// renamed in XBoard's numbering.
func whyIllegal(p *env.Position, text string) error {
	v := p.Variant()
	c := coordsOf(v)
	if !looksLikeMove(text) {
		return errors.New("not a move in XBoard's coordinate form (e2e4, P@e2)")
	}
	var squares []env.Square
	rest, drop := text, ""
	if len(text) > 2 && text[1] == '@' {
		drop, rest = strings.ToUpper(text[:1]), text[2:]
	}
	for rest != "" {
		if rest[0] == ',' {
			rest = rest[1:]
			continue
		}
		s, n := c.scan(rest)
		if n == 0 {
			if rest[0] >= 'a' && rest[0] <= 'z' && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9' {
				return fmt.Errorf("%s is not a square of this board", strings.TrimRight(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,"))
			}
			break
		}
		squares = append(squares, s)
		rest = rest[n:]
	}
	g := v.Geo
	var canon string
	switch {
	case drop != "" && len(squares) >= 1:
		canon = drop + "@" + g.Name(squares[0])
	case len(squares) == 4 && squares[1] == squares[2]:
		canon = g.Name(squares[0]) + g.Name(squares[3])
	case len(squares) >= 2:
		canon = g.Name(squares[0]) + g.Name(squares[1])
	default:
		return errors.New("not a move in XBoard's coordinate form")
	}
	if rest != "" && drop == "" {
		canon += "=" + strings.ToUpper(rest[:1])
	}
	if _, err := p.ParseMove(canon); err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			err = inner
		}
		return errors.New(renameSquares(c, err.Error()))
	}
	return errors.New("no legal move is written so")
}

var squareWord = regexp.MustCompile(`\b(rank )?([a-p]?)([0-9]{1,2})\b`)

// renameSquares rewrites the square names and "rank N" of a rules-engine
// message from the variant's numbering into XBoard's.
func renameSquares(c coords, msg string) string {
	if c.base == c.g.FirstRank {
		return msg
	}
	return squareWord.ReplaceAllStringFunc(msg, func(w string) string {
		m := squareWord.FindStringSubmatch(w)
		n, _ := strconv.Atoi(m[3])
		if m[1] == "" && m[2] == "" {
			return w // a number that is neither a square nor a rank
		}
		return m[1] + m[2] + strconv.Itoa(n-c.g.FirstRank+c.base)
	})
}

// positionText writes p's position as XBoard reads it: bomberzero's
// position text (docs/notation.md; holes are "*" as in XBoard) with the
// en-passant field cut to the first square passed, in XBoard's numbering
// (XBoard keeps one en-passant file).
func positionText(p *env.Position) string {
	s := p.String()
	if knownToXBoard(p.Variant()) {
		return s
	}
	f := strings.Fields(s)
	if len(f) < 4 || f[3] == "-" {
		return s
	}
	g := p.Variant().Geo
	c := coordsOf(p.Variant())
	for n := 2; n <= len(f[3]) && n <= 4; n++ {
		if sq, err := g.ParseSquare(f[3][:n]); err == nil && (n == len(f[3]) || f[3][n] < '0' || f[3][n] > '9') {
			f[3] = c.name(sq)
			break
		}
	}
	return strings.Join(f, " ")
}

// parsePosition reads a position XBoard sends with setboard: XBoard's FEN
// of an engine-defined variant is bomberzero's position text, but an
// empty hand may be "[-]" and the en-passant field is at most one square,
// in XBoard's numbering. That square is turned into the variant's; when
// the rules engine cannot place it (XBoard's en-passant square is a guess
// for pawns that move more than two squares), the position is read
// without it.
func parsePosition(v *env.Variant, text string) (*env.Position, error) {
	if knownToXBoard(v) {
		return v.ParsePosition(text)
	}
	f := strings.Fields(text)
	if len(f) == 0 {
		return nil, errors.New("empty position")
	}
	f[0] = strings.Replace(f[0], "[-]", "[]", 1)
	epAt := -1
	if len(f) > 3 && f[3] != "-" {
		c := coordsOf(v)
		s, n := c.scan(f[3])
		if n == 0 || n != len(f[3]) {
			return nil, fmt.Errorf("en-passant field %q: not a square of this board", f[3])
		}
		f[3], epAt = v.Geo.Name(s), 3
	}
	p, err := v.ParsePosition(strings.Join(f, " "))
	if err != nil && epAt >= 0 {
		f[epAt] = "-"
		if q, err2 := v.ParsePosition(strings.Join(f, " ")); err2 == nil {
			return q, nil
		}
	}
	return p, err
}
