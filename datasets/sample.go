package datasets

// RowSample returns row r as the Sample a Window would hand the trainer for
// it: the same position, result and moves-left facts, and the policy target
// of the moves the search visited (those with a positive visit fraction).
// Unlike a Window's, its slices are newly allocated. It is for readers that
// need rows grouped by game (r.GameID), such as held-out evaluation, which
// a Window does not keep.
func RowSample(r *Row) Sample {
	s := Sample{
		Position:    r.Position,
		Variant:     r.Variant,
		Ply:         r.Ply,
		Repetitions: int(r.Repetitions),
		GameLength:  r.GameLength,
		Value:       r.Value,
		Result:      float32(r.ResultSTM),
	}
	for j, f := range r.Visits {
		if f > 0 {
			s.PolicyIndex = append(s.PolicyIndex, r.PolicyIndex[j])
			s.Visits = append(s.Visits, f)
		}
	}
	return s
}
