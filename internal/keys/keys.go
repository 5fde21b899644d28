// Package keys checks the values of configuration keys and names the key
// that is out of range: KeyError ("sims = 0: want 1 to 1048576") and the
// range checks IntIn, FloatIn and FloatAbove. The search (mcts), self-play
// (selfplay) and the training file's schema (setup) all report their keys
// this way, so it sits below all of them and imports nothing of the project.
package keys

import (
	"fmt"
	"strconv"
)

// KeyError is a config value outside its range, naming its key: its
// message reads "sims = 0: want 1 to 1048576". A caller that nests the
// config under a table prefixes Key ("selfplay.sims").
type KeyError struct {
	Key   string // the config key, as in the TOML file
	Value string // the value given, as text
	Want  string // what the key takes
}

func (e *KeyError) Error() string { return fmt.Sprintf("%s = %s: want %s", e.Key, e.Value, e.Want) }

// IntIn returns a *KeyError naming key unless lo <= v <= hi.
func IntIn(key string, v, lo, hi int) error {
	if v < lo || v > hi {
		return &KeyError{key, strconv.Itoa(v), fmt.Sprintf("%d to %d", lo, hi)}
	}
	return nil
}

// FloatIn returns a *KeyError naming key unless v is a finite number with
// lo <= v <= hi (NaN and infinities are refused).
func FloatIn(key string, v, lo, hi float64) error {
	if !(v >= lo && v <= hi) {
		return &KeyError{key, fmt.Sprint(v), fmt.Sprintf("a finite number from %g to %g", lo, hi)}
	}
	return nil
}

// FloatAbove returns a *KeyError naming key unless v is a finite number
// with lo < v <= hi.
func FloatAbove(key string, v, lo, hi float64) error {
	if !(v > lo && v <= hi) {
		return &KeyError{key, fmt.Sprint(v), fmt.Sprintf("a finite number above %g, at most %g", lo, hi)}
	}
	return nil
}
