package main

import (
	"slices"
	"testing"
)

func TestSplitPlayersKeepsASpecsOwnList(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"random,alphabeta:1", []string{"random", "alphabeta:1"}},
		{"random,greedy:G=2.5,I=8,alphabeta:2", []string{"random", "greedy:G=2.5,I=8", "alphabeta:2"}},
		{"uci:stockfish:movetime=100,UCI_LimitStrength=true,UCI_Elo=1800", []string{"uci:stockfish:movetime=100,UCI_LimitStrength=true,UCI_Elo=1800"}},
		{"uci:sf:nodes=10, alphabeta:3 ,", []string{"uci:sf:nodes=10", "alphabeta:3"}},
		{"I=8,random", []string{"I=8", "random"}},
		{"", nil},
	} {
		if got := splitPlayers(c.in); !slices.Equal(got, c.want) {
			t.Errorf("splitPlayers(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
