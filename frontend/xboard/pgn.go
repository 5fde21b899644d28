package xboard

import (
	"fmt"
	"strings"

	"bomberzero/datasets/record"
	"bomberzero/env"
)

// PGN writes g as the PGN XBoard 4.9 loads (its "Load Game", -lgf): the
// moves and the [FEN] in the forms bomberzero speaks with XBoard
// (FormatMove, with XBoard's rank numbers; positionText) and, for an
// engine-defined variant, the piece definitions of its Betza "piece" lines
// as the [VariantMen] tag XBoard writes and reads. fallback names the
// variant of a record without a Variant tag. XBoard sizes its board from
// the variant before it reads the [FEN]: an engine-defined variant's game
// loads once the engine has set the variant up, or with the board's size
// given (-boardWidth, -boardHeight, docs/xboard.md).
func PGN(g *record.Game, fallback string) (string, error) {
	start, err := g.Start(fallback)
	if err != nil {
		return "", err
	}
	o, err := PGNDialect(start.Variant())
	if err != nil {
		return "", err
	}
	return g.PGNWith(fallback, o)
}

// DialectName is the record.NotationTag value of XBoard's PGN dialect.
const DialectName = "XBoard"

// PGNDialect is XBoard's PGN dialect of variant v, a record.PGNDialect:
// the moves in Notation, the [FEN] in XBoard's position text, and the
// [VariantMen] of the engine-defined variants, declared as [Notation
// "XBoard"]. record.ParsePGNIn reads XBoard's own PGN files of the family
// (undeclared) and the project's exports with it.
func PGNDialect(v *env.Variant) (record.PGNOptions, error) {
	men, err := VariantMen(v)
	if err != nil {
		return record.PGNOptions{}, err
	}
	return record.PGNOptions{Name: DialectName, Pieces: men, Notation: PGNNotation{}, Position: positionText, ReadPosition: parsePosition}, nil
}

// PGNNotation is the move notation of XBoard's PGN files: Notation's, but
// with no two-leg move, since XBoard 4.9's PGN reader takes a comma for
// the end of a move ("d0d4,d4d5" would be two moves) and reads a move's
// second leg as "-" and the end square instead:
//
//   - a move that removes a piece off its landing square: "d0d4-d5" (from,
//     the removed piece's square, "-", the landing square), which
//     XBoard's reader (parser.c, its "Lion-type multi-leg move") and
//     move-type-in box read as Notation's "d0d4,d4d5";
//   - a castling whose king lands on the rook's square: "f0b0-b0", the
//     same legs as Notation's "f0b0,b0b0";
//   - any other castling: the king's move alone, "f0h0", which XBoard
//     castles with the rook its piece definition names (the king's "O"
//     atom); when a king step has those squares (a castling of one
//     square), UCI's "f0g0O".
//
// XBoard reads each as one move, so the moves after it stay in step, but
// its board after the last two kinds was not seen to match the rules'
// (docs/xboard.md). ParseMove reads these and everything Notation reads.
type PGNNotation struct{}

// FormatMove writes legal move m of p as XBoard's PGN reader reads it.
func (PGNNotation) FormatMove(p *env.Position, m env.Move) string {
	text := FormatMove(p, m)
	first, _, twoLegs := strings.Cut(text, ",")
	if !twoLegs {
		return text
	}
	c := coordsOf(p.Variant())
	if m.Kind() == env.Castle {
		if rf, _ := castleRook(p, m); m.To() != rf {
			if back, err := ParseMove(p, first); err == nil && back == m {
				return first
			}
			return first + "O"
		}
	}
	return first + "-" + c.name(m.To()) + promoSuffix(p, m)
}

// ParseMove reads a move of p as FormatMove writes it, or as Notation
// reads it.
func (PGNNotation) ParseMove(p *env.Position, text string) (env.Move, error) {
	if a, b, ok := strings.Cut(text, "-"); ok && !knownToXBoard(p.Variant()) && len(a) >= 4 {
		// "A B-C" is Notation's "A B,B C": B is the last square of A B.
		c := coordsOf(p.Variant())
		if _, n := c.scan(a); n > 0 {
			if mid, k := c.scan(a[n:]); k > 0 && n+k == len(a) {
				if m, err := ParseMove(p, a+","+c.name(mid)+b); err == nil {
					return m, nil
				}
			}
		}
	}
	return ParseMove(p, text)
}

// VariantMen is the [VariantMen] value of variant v: its Betza "piece"
// lines (Setup) as "LETTER[&]:BETZA" joined by ";"; "" for a variant XBoard
// knows.
func VariantMen(v *env.Variant) (string, error) {
	lines, err := Setup(v)
	if err != nil {
		return "", fmt.Errorf("the piece definitions of %s: %w", v.Name, err)
	}
	var men []string
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, "piece "); ok {
			if piece, betza, ok := strings.Cut(rest, " "); ok {
				men = append(men, piece+":"+betza)
			}
		}
	}
	return strings.Join(men, ";"), nil
}
