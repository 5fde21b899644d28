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
	for _, want := range []string{"N = 1, round 1: player's table N=1;", "N = 9, round 1: player's table N=9;", "N = 1, round 2: player's table ", "N = 9, round 2: player's table "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
