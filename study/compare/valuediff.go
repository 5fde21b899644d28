package compare

import "bomberzero/study/values"

// PieceDifference is one piece's fitted value in variant B minus its value
// in variant A (the first compared variant), with the interval of the
// difference from both fits' bootstrap replicates: v_SP(F) − v_lim(F) for
// the Super Power bomber.
type PieceDifference struct {
	Piece  string          `json:"piece"`
	A      string          `json:"a"`
	B      string          `json:"b"`
	Method values.Method   `json:"method"`
	Diff   values.Estimate `json:"diff"`
	// P is the two-sided p-value of "no difference" and PHolm it adjusted
	// over every figure the report tests (correctFamily).
	P     float64  `json:"p"`
	PHolm *float64 `json:"p_holm,omitempty"`
	// WithinNoise is true when the difference is not significant at 5%
	// after that correction, or its interval is unbounded.
	WithinNoise bool `json:"within_noise"`
}

// valueDifferences compares, fit by fit (logistic, then tanh), every
// variant's values with the first variant's, piece by piece (nil entries of
// reps are variants without a fit; a fit that failed in either is skipped).
func valueDifferences(names []string, reps []*values.Report) []PieceDifference {
	if len(reps) < 2 || reps[0] == nil {
		return nil
	}
	var out []PieceDifference
	for fi := range reps[0].Fits {
		a := &reps[0].Fits[fi]
		for i := 1; i < len(reps); i++ {
			b := fitOf(reps[i], a.Method)
			if b == nil {
				continue
			}
			for _, piece := range reps[0].Pieces {
				if d := values.ValueDifference(a, b, piece); d != nil {
					out = append(out, PieceDifference{Piece: piece, A: names[0], B: names[i], Method: a.Method, Diff: *d,
						P: intervalP(*d), WithinNoise: d.Contains(0)})
				}
			}
		}
	}
	return out
}

// fitOf returns r's fit of method m, or nil.
func fitOf(r *values.Report, m values.Method) *values.FitResult {
	if r == nil {
		return nil
	}
	for i := range r.Fits {
		if r.Fits[i].Method == m {
			return &r.Fits[i]
		}
	}
	return nil
}
