package main

import (
	"bytes"
	"strings"
	"testing"
)

const playMateIn1 = "k9/pp8/10/10/10/10/10/10/10/4RK4 w - - 0 1"

func TestPlayRefusesIllegalMovesWithTheReasonAndEndsOnMate(t *testing.T) {
	var out, errb bytes.Buffer
	in := strings.NewReader("e1-f1\nz9-z10\nmoves\ne1-e10\n")
	err := playWith(in, []string{"--fen", playMateIn1, "--model", "alphabeta:1"}, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	s := out.String()
	for _, want := range []string{
		"refused: move \"e1-f1\": the rook on e1 cannot move to f1",
		"refused: move \"z9-z10\"",
		"legal moves:",
		"you play e1-e10",
		"Game over: 1-0 (checkmate)",
		" 10  k . . . . . . . . .", // the board is drawn
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
}

func TestPlayShowsTheAgentsBestMovesAndPlaysTheBest(t *testing.T) {
	var out, errb bytes.Buffer
	err := playWith(strings.NewReader(""), []string{"--fen", playMateIn1, "--model", "alphabeta:2", "--color", "black", "--top", "3"}, &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	s := out.String()
	for _, want := range []string{"alphabeta:2 thinks:", "1. e1-e10", "mate in 1", "alphabeta:2 plays e1-e10", "Game over: 1-0 (checkmate)"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "\n  2. "); n != 1 {
		t.Errorf("want exactly 3 candidates listed:\n%s", s)
	}
}

func TestPlayStopsWhenTheInputEndsAndRejectsBadFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if err := playWith(strings.NewReader("quit\n"), []string{"--model", "random"}, &out, &errb); err != nil || !strings.Contains(out.String(), "Game stopped.") {
		t.Fatalf("quit: %v\n%s", err, out.String())
	}
	if code := run([]string{"play", "--model", "alphabta:2"}, &out, &errb); code != 2 {
		t.Errorf("bad model: exit %d, want 2", code)
	}
	if code := run([]string{"play", "--color", "green"}, &out, &errb); code != 2 {
		t.Errorf("bad colour: exit %d, want 2", code)
	}
}
