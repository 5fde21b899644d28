package session

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"bomberzero/env"
	"bomberzero/mcts"
)

// newTest starts a session on a buffer with the search defaults.
func newTest(t *testing.T) (*Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := New(&out, mcts.DefaultConfig(), env.UCI{})
	if err != nil {
		t.Fatal(err)
	}
	return s, &out
}

// state is what a refused option must leave as it was.
func state(s *Session) string {
	return strings.Join([]string{s.Variant().Name, s.Position().String(), s.Model(), strconv.Itoa(s.Playouts()),
		strconv.Itoa(s.HashMB()), strconv.Itoa(s.Threads()), strconv.Itoa(s.MultiPV())}, " | ")
}

func TestEveryOptionRefusesValuesOutsideItsRangeNamingItAndKeepsTheSession(t *testing.T) {
	for _, c := range []struct {
		option string
		bad    []string
		good   string
	}{
		{"Variant", []string{"", "nosuch", "Chess ", "fbgc2"}, "fbgc"},
		{"Model", []string{"", "material:0", "material:x", "material:-5"}, "uniform:50"},
		{"Playouts", []string{"0", "-1", "", "x", "1.5", strconv.Itoa(mcts.MaxSims + 1), "1e9"}, strconv.Itoa(mcts.MaxSims)},
		{"Model", []string{"engine:0", "engine:x"}, "material"},
		{"Hash", []string{"0", "-1", "", "x", "4097", "65536", "1e3"}, "4096"},
		{"Threads", []string{"0", "-1", "", "257", "2.0"}, "256"},
		{"MultiPV", []string{"0", "-1", "", "257", "three"}, "3"},
	} {
		s, _ := newTest(t)
		if err := s.Set("Variant", "birds-ninjas"); err != nil {
			t.Fatal(err)
		}
		p, err := env.PlayMoves(s.Position(), "e2e4")
		if err != nil {
			t.Fatal(err)
		}
		s.SetPosition(p)
		before := state(s)
		for _, v := range c.bad {
			err := s.Set(c.option, v)
			if err == nil {
				t.Errorf("%s %q was accepted", c.option, v)
				continue
			}
			if !strings.HasPrefix(err.Error(), c.option+" ") {
				t.Errorf("%s %q: the error %q does not name the option first", c.option, v, err)
			}
			if got := state(s); got != before {
				t.Errorf("%s %q refused, but the session changed from %s to %s", c.option, v, before, got)
			}
		}
		if err := s.Set(c.option, c.good); err != nil {
			t.Errorf("%s %q: %v", c.option, c.good, err)
		}
		if state(s) == before {
			t.Errorf("%s %q was accepted but changed nothing", c.option, c.good)
		}
	}
}

func TestTheTableDeclaresEachOptionOnceWithItsDefaultInRange(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range Options() {
		if seen[strings.ToLower(o.Name)] {
			t.Errorf("%s is declared twice", o.Name)
		}
		seen[strings.ToLower(o.Name)] = true
		if o.Help == "" {
			t.Errorf("%s has no help", o.Name)
		}
		if err := o.Check(o.Default); err != nil {
			t.Errorf("%s's default: %v", o.Name, err)
		}
		if o.Kind == Spin && o.Min > o.Max {
			t.Errorf("%s's range %d to %d is empty", o.Name, o.Min, o.Max)
		}
	}
	if o, _ := Lookup("playouts"); o.Min != 1 || o.Max != mcts.MaxSims {
		t.Errorf("Playouts range %d to %d, want 1 to the search's own limit %d", o.Min, o.Max, mcts.MaxSims)
	}
	chess, err := env.LoadVariant("chess")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := newTest(t)
	if got, want := state(s), "chess | "+chess.NewPosition().String()+" | engine | 400 | 16 | 1 | 1"; got != want {
		t.Errorf("a new session: %s, want %s", got, want)
	}
}

func TestLookupReadsAnyLetterCaseAndTheUCIName(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"Playouts", "Playouts"}, {"PLAYOUTS", "Playouts"}, {"model", "Model"},
		{"UCI_Variant", "Variant"}, {"uci_variant", "Variant"}, {"variant", "Variant"}, {"Colour", ""},
	} {
		o, ok := Lookup(c.name)
		if o.Name != c.want || ok != (c.want != "") {
			t.Errorf("Lookup(%q) = %q, %v; want %q", c.name, o.Name, ok, c.want)
		}
	}
	s, _ := newTest(t)
	if err := s.Set("UCI_Variant", "nosuch"); err == nil || !strings.HasPrefix(err.Error(), `UCI_Variant "nosuch": want one of `) {
		t.Errorf("Set UCI_Variant nosuch: %v, want an error naming UCI_Variant", err)
	}
	if err := s.Set("Colour", "red"); err == nil || !strings.Contains(err.Error(), `unknown option "Colour"`) {
		t.Errorf("Set Colour: %v, want unknown option", err)
	}
}
