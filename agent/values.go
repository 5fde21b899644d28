package agent

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"bomberzero/env"
)

// Values are piece values in pawns, keyed by the upper-case piece letter a
// variant uses. Royal pieces are never counted, whatever their letter's value.
type Values map[byte]float64

// DefaultValues returns the one piece-value table of the project: the material
// the network-free material evaluator counts and the greedy and alpha-beta
// players use unless told otherwise. It holds the author's FBGC values (N 3,
// B 4, F 5, R 6, Q 11, P 1) and this project's estimates for the pieces the
// author gave no value (docs/match.md explains them). Each call returns a
// fresh map the caller may change.
func DefaultValues() Values {
	return Values{
		'P': 1, 'N': 3, 'B': 4, 'F': 5, 'R': 6, 'Q': 11,
		'J': 1, // ninja pawn
		'G': 3, // ninja guard: a ferz with the diagonal double-capture leap
		'M': 3, // queen-guard: a non-royal king
		'D': 5, // diagonal bomber: the bomber's rules on diagonals
		'I': 6, // insane ninja knight: knight + king step + 8-way double-capture leap
		'K': 0, // the king is royal and never counted
	}
}

// With returns a copy of v with the entries of over replacing its own.
func (v Values) With(over Values) Values {
	out := make(Values, len(v)+len(over))
	for k, x := range v {
		out[k] = x
	}
	for k, x := range over {
		out[k] = x
	}
	return out
}

// String writes the values as "B=4,F=5,..." in letter order, the syntax
// ParseValues reads.
func (v Values) String() string {
	keys := make([]int, 0, len(v))
	for k := range v {
		keys = append(keys, int(k))
	}
	sort.Ints(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%c=%s", k, strconv.FormatFloat(v[byte(k)], 'g', -1, 64))
	}
	return strings.Join(parts, ",")
}

// ParseValues reads piece values written "L=v,L=v" (an upper-case letter, a
// finite number of pawns from 0 to 1000), as in "G=2.5,I=8".
func ParseValues(text string) (Values, error) {
	out := Values{}
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(item)
		letter, num, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("piece value %q: want LETTER=PAWNS, as in G=2.5", item)
		}
		letter = strings.TrimSpace(letter)
		if len(letter) != 1 || letter[0] < 'A' || letter[0] > 'Z' {
			return nil, fmt.Errorf("piece value %q: %q is not one upper-case piece letter", item, letter)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil || math.IsNaN(x) || x < 0 || x > 1000 {
			return nil, fmt.Errorf("piece value %q: %q is not a number of pawns from 0 to 1000", item, num)
		}
		if _, dup := out[letter[0]]; dup {
			return nil, fmt.Errorf("piece value %q: letter %s given twice", item, letter)
		}
		out[letter[0]] = x
	}
	return out, nil
}

// CheckPieces checks that every letter of vals is a piece of variant v, so that
// a value for a piece the variant lacks (a typo) is refused, not ignored.
func (vals Values) CheckPieces(v *env.Variant) error {
	have := map[byte]bool{}
	var letters []string
	for i := 1; i < len(v.Pieces); i++ {
		have[v.Pieces[i].Letter] = true
		letters = append(letters, string(v.Pieces[i].Letter))
	}
	keys := make([]byte, 0, len(vals))
	for l := range vals {
		keys = append(keys, l)
	}
	slices.Sort(keys)
	for _, l := range keys {
		if !have[l] {
			return fmt.Errorf("piece value %c=%g: variant %s has no piece %c (its pieces: %s)", l, vals[l], v.Name, l, strings.Join(letters, " "))
		}
	}
	return nil
}

// PieceValue returns the value in pawns of piece type t in the default table:
// 0 for a royal piece, 1 for any pawn, 0 for a letter the table lacks.
func PieceValue(t env.PieceType) float64 {
	return DefaultValues().of(t)
}

// of returns t's value in vals (0 for a royal piece, 1 for a pawn whose letter
// vals lacks, 0 for any other letter it lacks).
func (vals Values) of(t env.PieceType) float64 {
	if t.Royal {
		return 0
	}
	if x, ok := vals[t.Letter]; ok {
		return x
	}
	if t.Pawn != env.NotPawn {
		return 1
	}
	return 0
}

// Table compiles values for variant v into centipawns indexed by piece type,
// for the integer material count of the alpha-beta and greedy players. Every
// non-royal piece of the variant must have a value.
func (vals Values) Table(v *env.Variant) ([]int32, error) {
	t := make([]int32, len(v.Pieces))
	for i := 1; i < len(v.Pieces); i++ {
		p := v.Pieces[i]
		if p.Royal {
			continue
		}
		x, ok := vals[p.Letter]
		if !ok {
			return nil, fmt.Errorf("variant %s: no value for piece %c (%s); give one, e.g. %c=3", v.Name, p.Letter, p.Name, p.Letter)
		}
		t[i] = int32(math.Round(x * 100))
	}
	return t, nil
}

// Centipawns returns the material balance in centipawns for the side to move
// under table (from Values.Table): its pieces on the board and in hand minus
// the opponent's.
func Centipawns(pos *env.Position, table []int32) int32 {
	us := pos.SideToMove()
	them := us.Other()
	var m int32
	for t := 1; t < len(table); t++ {
		if table[t] == 0 {
			continue
		}
		n := pos.Count(us, t) + pos.InHand(us, t) - pos.Count(them, t) - pos.InHand(them, t)
		m += int32(n) * table[t]
	}
	return m
}
