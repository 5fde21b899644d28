package values

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// Sum is a signed sum of piece values read from one fit, as "R+R-Q" (two
// rooks against a queen): the figure an imbalance match measures, v(Y) −
// v(X), so that the two can be set side by side. Its interval comes from
// the same bootstrap replicates as the pieces', so the pieces' correlation
// is kept.
type Sum struct {
	Expr string `json:"expr"`
	// Value is nil when a piece of the sum has no value in the fit; Note
	// says why.
	Value *Estimate `json:"value,omitempty"`
	Note  string    `json:"note,omitempty"`
}

// ParseSum reads a signed sum of piece letters, as "R+R-Q" or "B+P-R":
// each piece counts +1 or −1 by the sign before it (the first +), and a
// piece may appear several times. It returns the count of each piece.
func ParseSum(expr string) (map[string]int, error) {
	s := strings.ReplaceAll(strings.TrimSpace(expr), " ", "")
	if s == "" {
		return nil, fmt.Errorf("values: empty sum: want piece letters joined by + and -, as R+R-Q")
	}
	terms := map[string]int{}
	for i := 0; i < len(s); {
		sign := 1
		switch s[i] {
		case '-':
			sign = -1
			i++
		case '+':
			i++
		}
		end := strings.IndexAny(s[i:], "+-")
		if end < 0 {
			end = len(s) - i
		}
		name := s[i : i+end]
		if name == "" {
			return nil, fmt.Errorf("values: sum %q: a sign without a piece after it at character %d: want piece letters joined by + and -, as R+R-Q", expr, i+1)
		}
		for _, r := range name {
			if r < 'A' || r > 'Z' {
				return nil, fmt.Errorf("values: sum %q: %q is not a piece letter (capital letters, as N or R)", expr, name)
			}
		}
		terms[name] += sign
		i += end
	}
	return terms, nil
}

// Sum evaluates the sum expr (ParseSum) on f's normalised values, with a
// 95% interval from f's bootstrap replicates. A replicate where the sum is
// undefined (two unbounded values of opposite sign) makes the interval
// unbounded on both sides.
func (f *FitResult) Sum(expr string) (Sum, error) {
	terms, err := ParseSum(expr)
	if err != nil {
		return Sum{}, err
	}
	out := Sum{Expr: expr}
	point := 0.0
	var reps []float64
	for _, name := range slices.Sorted(maps.Keys(terms)) {
		n := terms[name]
		var pv *PieceValue
		for i := range f.Pieces {
			if f.Pieces[i].Piece == name {
				pv = &f.Pieces[i]
			}
		}
		if pv == nil {
			return Sum{}, fmt.Errorf("values: sum %q: no piece %s in these games", expr, name)
		}
		rs, ok := f.ValueReplicates[name]
		if pv.Value == nil || !ok {
			out.Note = fmt.Sprintf("%s has no value in the %s fit", name, f.Method)
			return out, nil
		}
		point += float64(n) * pv.Value.Point
		if reps == nil {
			reps = make([]float64, len(rs))
		}
		for b := range min(len(rs), len(reps)) {
			reps[b] += float64(n) * rs[b]
		}
	}
	est := Estimate{Point: point, Lo: math.Inf(-1), Hi: math.Inf(1)}
	undefined := false
	for _, r := range reps {
		undefined = undefined || math.IsNaN(r)
	}
	if len(reps) > 0 && !undefined {
		est.Lo, est.Hi = percentileInterval(reps)
	}
	out.Value = &est
	return out, nil
}
