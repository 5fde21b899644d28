package keys

import (
	"errors"
	"math"
	"testing"
)

func TestRangeChecksNameTheKeyAndWhatItTakes(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want string // "" for no error
	}{
		{"int inside", IntIn("sims", 1, 1, 10), ""},
		{"int at the top", IntIn("sims", 10, 1, 10), ""},
		{"int below", IntIn("sims", 0, 1, 1048576), "sims = 0: want 1 to 1048576"},
		{"int above", IntIn("net.blocks", 65, 0, 64), "net.blocks = 65: want 0 to 64"},
		{"float inside", FloatIn("temp", 0, 0, 100), ""},
		{"float above", FloatIn("temp", 101, 0, 100), "temp = 101: want a finite number from 0 to 100"},
		{"float NaN", FloatIn("temp", math.NaN(), 0, 100), "temp = NaN: want a finite number from 0 to 100"},
		{"float infinite", FloatIn("temp", math.Inf(1), 0, 100), "temp = +Inf: want a finite number from 0 to 100"},
		{"above, inside", FloatAbove("cpuct_base", 1, 0, 1e9), ""},
		{"above, at the floor", FloatAbove("cpuct_base", 0, 0, 1e9), "cpuct_base = 0: want a finite number above 0, at most 1e+09"},
		{"above, NaN", FloatAbove("train.learning_rate", math.NaN(), 0, 10), "train.learning_rate = NaN: want a finite number above 0, at most 10"},
	}
	for _, tc := range cases {
		if tc.want == "" {
			if tc.err != nil {
				t.Errorf("%s: %v, want no error", tc.name, tc.err)
			}
			continue
		}
		var ke *KeyError
		if !errors.As(tc.err, &ke) {
			t.Errorf("%s: %v, want a *KeyError", tc.name, tc.err)
			continue
		}
		if tc.err.Error() != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.err, tc.want)
		}
	}
}
