package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"bomberzero/env"
	"bomberzero/match"
)

func TestMatchCommandReportsPerColourAndJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"match", "--a", "alphabeta:1", "--b", "random", "--games", "4", "--max-plies", "300", "--workers", "2"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"alphabeta:1 (A) vs random (B) on fbgc, 4 games", "A with White: +", "A with Black: +", "Elo A-B:", "LOS"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	code = run([]string{"match", "--a", "random", "--b", "greedy", "--games", "3", "--max-plies", "10", "--json", "--sprt", "0,10,0.05,0.05"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r match.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if r.A != "random" || r.B != "greedy" || r.AWhite.Games() != 2 || r.ABlack.Games() != 1 || r.Reasons[env.LengthCap.String()] != 3 || r.Decision != "continue" {
		t.Fatalf("json result %+v", r)
	}
}

func TestMatchCommandRejectsBadSpecsWithUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"match", "--a", "alphabta:2", "--b", "random"},
		{"match", "--a", "random"},
		{"match", "--a", "random", "--b", "random", "--sprt", "1,2"},
		{"match", "--a", "random", "--b", "random", "--games", "0"},
		{"match", "--a", "greedy", "--b", "random", "--values", "x"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
