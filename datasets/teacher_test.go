package datasets

import "testing"

func TestTeacherGamesAreKnownByTheirModelPrefix(t *testing.T) {
	for _, tc := range []struct {
		model string
		want  bool
	}{
		{"teacher:alphabeta:2", true},
		{"teacher:", true},
		{"none", false},
		{"gen-0003", false},
		{"alphabeta:2", false},
		{"my-teacher:2", false},
		{"", false},
	} {
		g := GameRecord{Model: tc.model}
		if got := g.Teacher(); got != tc.want || IsTeacherModel(tc.model) != tc.want {
			t.Errorf("model %q: Teacher() = %v, want %v", tc.model, got, tc.want)
		}
	}
}
