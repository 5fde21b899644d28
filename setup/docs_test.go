package setup

import (
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// docKeys reads the key table of docs/training.md's "Configuration keys"
// section: key, default and range cells by key.
func docKeys(t *testing.T) map[string][2]string {
	t.Helper()
	data, err := os.ReadFile("../docs/training.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "## Configuration keys")
	if start < 0 {
		t.Fatal("docs/training.md has no Configuration keys section")
	}
	text = text[start+3:]
	if end := strings.Index(text, "\n## "); end >= 0 {
		text = text[:end]
	}
	row := regexp.MustCompile("^\\| `([a-z0-9_.]+)` \\| `([^`]*)` \\| ([^|]*) \\|")
	keys := map[string][2]string{}
	for _, line := range strings.Split(text, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			keys[m[1]] = [2]string{m[2], strings.TrimSpace(m[3])}
		}
	}
	return keys
}

// configValues flattens the TOML encoding of c into dotted key -> value.
func configValues(t *testing.T, c Config) map[string]any {
	t.Helper()
	data, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if _, err := toml.Decode(string(data), &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for k, v := range m {
		if table, ok := v.(map[string]any); ok {
			for k2, v2 := range table {
				out[k+"."+k2] = v2
			}
			continue
		}
		out[k] = v
	}
	return out
}

// sameValue compares TOML values, numbers by value (19652 and 19652.0).
func sameValue(a, b any) bool {
	num := func(x any) (float64, bool) {
		switch v := x.(type) {
		case int64:
			return float64(v), true
		case float64:
			return v, true
		}
		return 0, false
	}
	if x, ok := num(a); ok {
		y, ok := num(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}

// TestDocsListEveryKeyWithItsDefaultAndRange keeps docs/training.md's key
// table from drifting: it must list exactly the keys a config has, each
// with the embedded default, and for each numeric range "LO to HI" or
// "above LO, at most HI", HI must be accepted and the next value above it
// refused (and LO accepted, unless the row names a condition in
// parentheses), as --set and Validate see them.
func TestDocsListEveryKeyWithItsDefaultAndRange(t *testing.T) {
	docs := docKeys(t)
	def, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	vals := configValues(t, def)
	for k, v := range vals {
		d, ok := docs[k]
		if !ok {
			t.Errorf("key %s is not in docs/training.md's table", k)
			continue
		}
		var cell map[string]any
		if _, err := toml.Decode("x = "+d[0], &cell); err != nil || !sameValue(cell["x"], v) {
			t.Errorf("%s: docs default `%s`, the embedded default is %v", k, d[0], v)
		}
	}
	for k := range docs {
		if _, ok := vals[k]; !ok {
			t.Errorf("docs/training.md lists %s, which is not a config key", k)
		}
	}
	num := `(-?[0-9][0-9.e+]*)`
	closed := regexp.MustCompile("^" + num + " to " + num)
	open := regexp.MustCompile("^above " + num + ", at most " + num)
	for k, d := range docs {
		lo, hi, isOpen := "", "", false
		if m := closed.FindStringSubmatch(d[1]); m != nil {
			lo, hi = m[1], m[2]
		} else if m := open.FindStringSubmatch(d[1]); m != nil {
			lo, hi, isOpen = m[1], m[2], true
		} else {
			continue
		}
		_, isInt := vals[k].(int64)
		above := func(s string) string {
			if isInt {
				n, _ := strconv.ParseInt(s, 10, 64)
				if n == math.MaxInt64 {
					return "" // the next value is no TOML integer at all
				}
				return strconv.FormatInt(n+1, 10)
			}
			f, _ := strconv.ParseFloat(s, 64)
			return strconv.FormatFloat(math.Nextafter(f, math.Inf(1)), 'g', -1, 64)
		}
		below := func(s string) string {
			if isInt {
				n, _ := strconv.ParseInt(s, 10, 64)
				return strconv.FormatInt(n-1, 10)
			}
			f, _ := strconv.ParseFloat(s, 64)
			return strconv.FormatFloat(math.Nextafter(f, math.Inf(-1)), 'g', -1, 64)
		}
		try := func(value string) error {
			c, err := DefaultConfig("fbgc")
			if err != nil {
				t.Fatal(err)
			}
			// Room for the window's and cheap search's conditions.
			c.Train.Window = MaxWindow
			if err := c.Set(k + "=" + value); err != nil {
				return err
			}
			return c.Validate()
		}
		if err := try(hi); err != nil {
			t.Errorf("%s: the documented bound %s is refused: %v", k, hi, err)
		}
		if next := above(hi); next != "" {
			if err := try(next); err == nil {
				t.Errorf("%s: %s, above the documented %s, is accepted", k, next, hi)
			}
		}
		if k == "seed" {
			lo = "0"
		}
		if err := try(lo); err == nil && isOpen {
			t.Errorf("%s: the excluded bound %s is accepted", k, lo)
		} else if err != nil && !isOpen && !strings.Contains(d[1], "(") {
			t.Errorf("%s: the documented bound %s is refused: %v", k, lo, err)
		}
		if !isOpen {
			if err := try(below(lo)); err == nil {
				t.Errorf("%s: %s, below the documented %s, is accepted", k, below(lo), lo)
			}
		}
	}
}
