package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestEchoTestRejectsBadInvocations(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"echo-test"}, "--piece"},
		{[]string{"echo-test", "--piece", "f"}, "one upper-case piece letter"},
		{[]string{"echo-test", "--piece", "F", "--table", "7,3"}, "increasing"},
		{[]string{"echo-test", "--piece", "F", "--table", "3"}, "at least two"},
		{[]string{"echo-test", "--piece", "F", "--table", "3,x"}, `"x" is not a value`},
		{[]string{"echo-test", "--piece", "F", "--games", "1"}, "--games 1"},
		{[]string{"echo-test", "--piece", "F", "--rounds", "0"}, "--rounds 0: want 1 to 100"},
		{[]string{"echo-test", "--piece", "F", "--rounds", "101"}, "--rounds 101"},
		{[]string{"echo-test", "--piece", "F", "--bootstrap", "0"}, "--bootstrap 0"},
		// A wrong table: each bad entry named with what was expected.
		{[]string{"echo-test", "--table", "N=5,Q"}, `piece value "Q": want LETTER=PAWNS`},
		{[]string{"echo-test", "--table", "N=5,q=6"}, `piece value "q=6": "q" is not one upper-case piece letter`},
		{[]string{"echo-test", "--table", "N=five"}, `piece value "N=five": "five" is not a number of pawns from 0 to 1000`},
		{[]string{"echo-test", "--table", "N=5,N=6"}, "letter N given twice"},
		{[]string{"echo-test", "--table", "N=5,Q=0"}, "entry Q=0: want a value above 0"},
		{[]string{"echo-test", "--piece", "N", "--table", "N=5,Q=6"}, "give one of the two"},
	} {
		var out, errOut bytes.Buffer
		if code := run(tc.args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}

func TestEchoTestRoundsPrintsEachRoundsTable(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"echo-test", "--variant", "chess", "--player", "alphabeta:1", "--piece", "N", "--table", "1,9",
		"--games", "40", "--rounds", "2", "--bootstrap", "10", "--max-plies", "300", "--quiet"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	for _, want := range []string{"N = 1, round 1: player's table B=4,N=1,P=1,Q=11,R=6;", "N = 9, round 1: player's table B=4,N=9,P=1,Q=11,R=6;", "N = 1, round 2: player's table ", "N = 9, round 2: player's table "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestEchoTestWithAWrongTableNamesTheTablesAndVerdictsPerPiece(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"echo-test", "--variant", "chess", "--player", "engine:nodes=100", "--table", "N=5,Q=6",
		"--games", "30", "--bootstrap", "10", "--max-plies", "300", "--quiet"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	for _, want := range []string{"with the wrong entries N=5,Q=6", "table B=4,N=3,P=1,Q=11,R=6: ", "table B=4,N=5,P=1,Q=6,R=6: ",
		"N, logistic fit: table +2,", "Q, logistic fit: table -5,", "B, tanh fit: table +0,"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	// --equal-games reaches the fits and says so.
	out.Reset()
	if code := run([]string{"echo-test", "--variant", "chess", "--player", "alphabeta:1", "--table", "N=5", "--games", "6", "--bootstrap", "5",
		"--max-plies", "200", "--equal-games", "--quiet"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "every game weighed alike") {
		t.Errorf("--equal-games: exit %d, output %q; want it named", code, out.String())
	}
	// A wrong table for a piece the variant lacks names it.
	errOut.Reset()
	if code := run([]string{"echo-test", "--variant", "chess", "--table", "F=5", "--games", "2", "--quiet"}, &out, &errOut); code == 0 || !strings.Contains(errOut.String(), "no piece F") {
		t.Errorf("F=5 in chess: exit %d, stderr %q; want an error naming F", code, errOut.String())
	}
}
