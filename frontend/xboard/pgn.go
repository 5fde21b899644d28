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
	return record.PGNOptions{Name: DialectName, Pieces: men, Notation: Notation{}, Position: positionText, ReadPosition: parsePosition}, nil
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
