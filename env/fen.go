package env

import (
	"fmt"
	"strconv"
	"strings"
)

// ParsePosition reads position text (RULES.md section 7):
// "<board>[<hand>] <side> <castling> <en passant> <half-move clock> <move number>".
// The side is required; missing later fields default to "- - 0 1".
func (v *Variant) ParsePosition(text string) (*Position, error) {
	fields := strings.Fields(text)
	if len(fields) < 2 || len(fields) > 6 {
		return nil, fmt.Errorf("position %q: expected 2 to 6 fields (board, side, castling, en passant, half-move clock, move number), got %d", text, len(fields))
	}
	g := v.Geo
	p := &Position{v: v, side: White, full: 1, king: [2]Square{NoSquare, NoSquare}, epVictim: NoSquare}
	board := fields[0]
	if i := strings.IndexByte(board, '['); i >= 0 {
		if !strings.HasSuffix(board, "]") {
			return nil, fmt.Errorf("hand %q: expected the pieces in hand between [ and ] right after the board", board[i:])
		}
		if err := p.parseHand(board[i+1 : len(board)-1]); err != nil {
			return nil, err
		}
		board = board[:i]
	}
	rows := strings.Split(board, "/")
	if len(rows) != g.Ranks {
		return nil, fmt.Errorf("board %q: expected %d ranks separated by /, got %d", board, g.Ranks, len(rows))
	}
	for i, row := range rows {
		rank := g.FirstRank + g.Ranks - 1 - i
		file := 0
		for j := 0; j < len(row); {
			c := row[j]
			switch {
			case c >= '0' && c <= '9':
				n := 0
				for j < len(row) && row[j] >= '0' && row[j] <= '9' && n <= maxFiles {
					n = n*10 + int(row[j]-'0')
					j++
				}
				if n == 0 || file+n > g.Files {
					return nil, fmt.Errorf("rank %d %q: empty run %d does not fit the %d files", rank, row, n, g.Files)
				}
				for k := 0; k < n; k++ {
					if s := g.At(file+k, rank); !g.real[s] {
						return nil, fmt.Errorf("rank %d %q: %s is a hole: expected '*' there", rank, row, g.Name(s))
					}
				}
				file += n
				continue
			case file >= g.Files:
				return nil, fmt.Errorf("rank %d %q: more than %d files", rank, row, g.Files)
			case c == '*':
				if s := g.At(file, rank); g.real[s] {
					return nil, fmt.Errorf("rank %d %q: '*' on %s, which is a square of the board, not a hole", rank, row, g.Name(s))
				}
			default:
				t := v.PieceByLetter(c)
				if t == 0 {
					return nil, fmt.Errorf("rank %d %q: %q is not a piece of %s", rank, row, c, v.Name)
				}
				s := g.At(file, rank)
				if !g.real[s] {
					return nil, fmt.Errorf("rank %d %q: piece on %s, which is a hole: expected '*'", rank, row, g.Name(s))
				}
				col := White
				if c >= 'a' {
					col = Black
				}
				if v.Pieces[t].Royal && p.king[col] != NoSquare {
					return nil, fmt.Errorf("rank %d %q: a second %s king", rank, row, col)
				}
				if v.Pieces[t].Pawn != NotPawn && v.relRank(col, rank) >= v.promoRank {
					return nil, fmt.Errorf("rank %d %q: %s pawn on %s, on or past its promotion rank", rank, row, col, g.Name(s))
				}
				p.put(s, MakePiece(col, t))
			}
			file++
			j++
		}
		if file != g.Files {
			return nil, fmt.Errorf("rank %d %q: expected %d files, got %d", rank, row, g.Files, file)
		}
	}
	for c := White; c <= Black; c++ {
		if p.king[c] == NoSquare {
			return nil, fmt.Errorf("board %q: no %s king", board, c)
		}
	}
	switch fields[1] {
	case "w":
	case "b":
		p.side = Black
	default:
		return nil, fmt.Errorf("side %q: expected w or b", fields[1])
	}
	if len(fields) > 2 && fields[2] != "-" {
		for i := 0; i < len(fields[2]); i++ {
			bit := strings.IndexByte("KQkq", fields[2][i])
			if bit < 0 || !v.hasRight(uint8(1)<<bit) || p.castle&(1<<bit) != 0 {
				return nil, fmt.Errorf("castling %q: expected - or distinct letters of %s", fields[2], v.rightLetters())
			}
			p.castle |= 1 << bit
		}
	}
	if len(fields) > 3 && fields[3] != "-" {
		if err := p.parseEP(fields[3]); err != nil {
			return nil, err
		}
	}
	var err error
	if len(fields) > 4 {
		if p.half, err = strconv.Atoi(fields[4]); err != nil || p.half < 0 || p.half > 10000 {
			return nil, fmt.Errorf("half-move clock %q: expected a number from 0 to 10000", fields[4])
		}
	}
	if len(fields) > 5 {
		if p.full, err = strconv.Atoi(fields[5]); err != nil || p.full < 1 || p.full > 100000 {
			return nil, fmt.Errorf("move number %q: expected a number from 1 to 100000", fields[5])
		}
	}
	if p.attacked(p.king[p.side.Other()], p.side) {
		return nil, fmt.Errorf("position %q: the side not to move is in check", text)
	}
	p.hash = p.computeHash()
	return p, nil
}

func (p *Position) parseHand(h string) error {
	v := p.v
	for i := 0; i < len(h); i++ {
		t := v.PieceByLetter(h[i])
		if t == 0 || t != v.dropType {
			if v.dropType == 0 {
				return fmt.Errorf("hand [%s]: %s has no pieces in hand: expected []", h, v.Name)
			}
			return fmt.Errorf("hand [%s]: %q cannot be in hand: expected %c or %c", h, h[i],
				v.Pieces[v.dropType].Letter, v.Pieces[v.dropType].Letter+'a'-'A')
		}
		c := White
		if h[i] >= 'a' {
			c = Black
		}
		if p.hand[c][t] >= maxHand {
			return fmt.Errorf("hand [%s]: more than %d pieces of one kind", h, maxHand)
		}
		p.hand[c][t]++
	}
	return nil
}

func (p *Position) parseEP(text string) error {
	g := p.v.Geo
	mover := p.side.Other()
	for rest := text; rest != ""; {
		s, n := g.scanSquare(rest)
		if n == 0 || !g.real[s] || p.epN >= 2 {
			return fmt.Errorf("en passant %q: expected - or up to 2 squares passed over, such as f3f4", text)
		}
		if p.board[s] != NoPiece {
			return fmt.Errorf("en passant %q: %s is not empty", text, g.Name(s))
		}
		p.ep[p.epN] = s
		p.epN++
		rest = rest[n:]
	}
	far := p.ep[p.epN-1]
	if p.epN == 2 && g.File(p.ep[0]) != g.File(far) {
		return fmt.Errorf("en passant %q: expected squares on one file", text)
	}
	d := 0
	if mover == Black {
		d = 1
	}
	if p.epN == 2 && p.v.relRank(mover, g.Rank(p.ep[0])) > p.v.relRank(mover, g.Rank(far)) {
		far = p.ep[0]
	}
	victim := g.steps[far][d]
	if victim == NoSquare || p.board[victim] == NoPiece || p.board[victim].Color() != mover || p.v.Pieces[p.board[victim].Type()].Pawn == NotPawn {
		return fmt.Errorf("en passant %q: no %s pawn stands just past the squares passed over", text, mover)
	}
	p.epVictim = victim
	return nil
}

func (v *Variant) hasRight(bit uint8) bool {
	for c := 0; c < 2; c++ {
		for _, r := range v.castles[c] {
			if r.right == bit {
				return true
			}
		}
	}
	return false
}

func (v *Variant) rightLetters() string {
	var b strings.Builder
	for i := 0; i < 4; i++ {
		if v.hasRight(1 << i) {
			b.WriteByte("KQkq"[i])
		}
	}
	if b.Len() == 0 {
		return "(none in this variant)"
	}
	return b.String()
}

// String returns the position text (RULES.md section 7).
func (p *Position) String() string {
	v := p.v
	g := v.Geo
	var b strings.Builder
	for r := g.FirstRank + g.Ranks - 1; r >= g.FirstRank; r-- {
		empty := 0
		for f := 0; f < g.Files; f++ {
			s := g.At(f, r)
			q := p.board[s]
			if g.real[s] && q == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if !g.real[s] {
				b.WriteByte('*')
			} else {
				b.WriteByte(pieceLetter(v, q))
			}
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if r > g.FirstRank {
			b.WriteByte('/')
		}
	}
	if v.dropType != 0 {
		b.WriteByte('[')
		for c := White; c <= Black; c++ {
			for t := 1; t < len(v.Pieces); t++ {
				for i := 0; i < int(p.hand[c][t]); i++ {
					b.WriteByte(pieceLetter(v, MakePiece(c, t)))
				}
			}
		}
		b.WriteByte(']')
	}
	b.WriteByte(' ')
	b.WriteByte("wb"[p.side])
	b.WriteByte(' ')
	if p.castle == 0 {
		b.WriteByte('-')
	}
	for i := 0; i < 4; i++ {
		if p.castle&(1<<i) != 0 {
			b.WriteByte("KQkq"[i])
		}
	}
	b.WriteByte(' ')
	if p.epN == 0 {
		b.WriteByte('-')
	}
	for i := 0; i < int(p.epN); i++ {
		b.WriteString(g.Name(p.ep[i]))
	}
	fmt.Fprintf(&b, " %d %d", p.half, p.full)
	return b.String()
}

// pieceLetter returns q's letter, upper case for White.
func pieceLetter(v *Variant, q Piece) byte {
	l := v.Pieces[q.Type()].Letter
	if q.Color() == Black {
		l += 'a' - 'A'
	}
	return l
}
