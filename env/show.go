package env

import (
	"fmt"
	"strings"
)

// Diagram draws the position as text: ranks from the top, '.' an empty
// square, ' ' a hole, then the hands, the side to move and the position text.
func (p *Position) Diagram() string {
	v := p.v
	g := v.Geo
	var b strings.Builder
	for r := g.FirstRank + g.Ranks - 1; r >= g.FirstRank; r-- {
		fmt.Fprintf(&b, "%3d ", r)
		for f := 0; f < g.Files; f++ {
			s := g.At(f, r)
			switch q := p.board[s]; {
			case !g.real[s]:
				b.WriteString("  ")
			case q == NoPiece:
				b.WriteString(" .")
			default:
				b.WriteByte(' ')
				b.WriteByte(pieceLetter(v, q))
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("    ")
	for f := 0; f < g.Files; f++ {
		b.WriteByte(' ')
		b.WriteByte(byte('a' + f))
	}
	b.WriteString("    ('.' empty square, blank: hole)\n")
	if v.dropType != 0 {
		l := v.Pieces[v.dropType].Letter
		fmt.Fprintf(&b, "in hand: white %d %c, black %d %c\n", p.hand[White][v.dropType], l, p.hand[Black][v.dropType], l+'a'-'A')
	}
	fmt.Fprintf(&b, "%s to move", p.side)
	if p.InCheck() {
		b.WriteString(", in check")
	}
	if res, why := p.Status(); res != Ongoing {
		fmt.Fprintf(&b, "; game over: %s (%s)", res, why)
	}
	fmt.Fprintf(&b, "\n%s\n", p)
	return b.String()
}
