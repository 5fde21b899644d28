package env

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTerminationTextRoundTrips(t *testing.T) {
	seen := map[string]bool{}
	for x := Checkmate; x < numTerminations; x++ {
		text, err := x.MarshalText()
		if err != nil || string(text) != x.String() || text == nil {
			t.Fatalf("%d: MarshalText %q, %v; String %q", x, text, err, x)
		}
		if seen[string(text)] {
			t.Fatalf("text %q names two terminations", text)
		}
		seen[string(text)] = true
		var back Termination
		if err := back.UnmarshalText(text); err != nil || back != x {
			t.Fatalf("%q read back as %v, %v", text, back, err)
		}
	}
	if len(seen) != int(numTerminations)-1 {
		t.Fatalf("%d texts for %d terminations", len(seen), numTerminations-1)
	}
}

func TestTerminationReadsTheOlderTexts(t *testing.T) {
	for text, want := range map[string]Termination{
		"threefold repetition": Repetition, "50-move rule": FiftyMoves, "scepter captured": Scepter, "length cap": LengthCap,
	} {
		if got, err := ParseTermination(text); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", text, got, err, want)
		}
	}
}

func TestTerminationRefusesUnknownTextNamingTheKnownOnes(t *testing.T) {
	for _, text := range []string{"", "boredom", "Checkmate", "checkmate ", "length_cap"} {
		_, err := ParseTermination(text)
		if err == nil || !strings.Contains(err.Error(), "fifty-move") || !strings.Contains(err.Error(), "resignation") {
			t.Errorf("%q: error %v, want one listing the known texts", text, err)
		}
	}
	if _, err := NotOver.MarshalText(); err == nil {
		t.Error("NotOver has a text")
	}
	if _, err := numTerminations.MarshalText(); err == nil {
		t.Error("an unknown value has a text")
	}
}

func TestTerminationIsAJSONMapKeyAndValue(t *testing.T) {
	in := map[Termination]int{Checkmate: 2, LengthCap: 3}
	data, err := json.Marshal(in)
	if err != nil || string(data) != `{"checkmate":2,"length-cap":3}` {
		t.Fatalf("%s, %v", data, err)
	}
	var out map[Termination]int
	if err := json.Unmarshal([]byte(`{"checkmate":2,"length cap":3}`), &out); err != nil || len(out) != 2 || out[LengthCap] != 3 {
		t.Fatalf("%v, %v", out, err)
	}
}

func TestTerminationDecisiveMatchesTheRulesResults(t *testing.T) {
	// The rules' own endings: Status's result must agree with Decisive.
	chess := mustLoad(t, "chess")
	for _, c := range []struct {
		fen   string
		moves string
		want  Termination
	}{
		{"", "1. f2-f3 e7-e5 2. g2-g4 d8-h4", Checkmate},
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "", Stalemate},
		{"7k/8/6K1/8/8/8/8/R7 w - - 99 80", "a1-a2", FiftyMoves},
	} {
		p := chess.NewPosition()
		if c.fen != "" {
			var err error
			if p, err = chess.ParsePosition(c.fen); err != nil {
				t.Fatal(err)
			}
		}
		p, err := PlayMoves(p, c.moves)
		if err != nil {
			t.Fatal(err)
		}
		res, why := p.Status()
		decisive, known := why.Decisive()
		if why != c.want || !known || decisive != (res != Draw) {
			t.Errorf("%s %s: %v %v, Decisive %v %v", c.fen, c.moves, res, why, decisive, known)
		}
	}
	if _, known := Adjudication.Decisive(); known {
		t.Error("adjudication allows either result")
	}
	if _, known := NotOver.Decisive(); known {
		t.Error("NotOver is no ending")
	}
}

func FuzzParseTermination(f *testing.F) {
	for x := Checkmate; x < numTerminations; x++ {
		f.Add(x.String())
	}
	f.Add("threefold repetition")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		x, err := ParseTermination(text)
		if err != nil {
			if x != NotOver {
				t.Fatalf("%q: error %v with %v", text, err, x)
			}
			return
		}
		canon, err := x.MarshalText()
		if err != nil {
			t.Fatalf("%q parsed to %v, which has no text: %v", text, x, err)
		}
		if y, err := ParseTermination(string(canon)); err != nil || y != x {
			t.Fatalf("%q -> %v -> %q -> %v, %v", text, x, canon, y, err)
		}
	})
}
