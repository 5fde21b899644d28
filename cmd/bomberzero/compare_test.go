package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestCompareAndImbalanceRejectBadFlagsClearly(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--variants", "fbgc,fbgc-superpower"}, "--out"},
		{[]string{"compare", "--variants", "fbgc", "--out", dir}, "two or more"},
		{[]string{"compare", "--variants", "fbgc,nosuch", "--out", dir}, "nosuch"},
		{[]string{"compare", "--variants", "fbgc,chess", "--runs", dir, "--out", dir}, "--runs has 1"},
		{[]string{"compare", "--variants", "fbgc,fbgc-superpower", "--models", "models/fbgc.safetensors", "--out", dir}, "--models has 1 checkpoints for 2 variants"},
		{[]string{"compare", "--variants", "fbgc,fbgc-superpower", "--models", dir + "/none.safetensors,x", "--out", dir}, "none.safetensors\" is not a checkpoint file"},
		{[]string{"compare", "--variants", "fbgc,chess", "--games", "0", "--out", dir}, "--games"},
		{[]string{"compare", "--variants", "fbgc,chess", "--budget", "soon", "--out", dir}, "budget"},
		{[]string{"compare", "--variants", "fbgc,chess", "--out", dir, "extra"}, "unexpected argument"},
		{[]string{"imbalance", "--white-without", "Q"}, "--black-without"},
		{[]string{"imbalance", "--white-without", "K", "--black-without", "P"}, "royal"},
		{[]string{"imbalance", "--white-without", "e5", "--black-without", "P"}, "empty"},
		{[]string{"imbalance", "--white-without", "Q", "--black-without", "e1"}, "other side's queen"},
		{[]string{"imbalance", "--white-without", "Q", "--black-without", "P", "--games", "1"}, "--games"},
		{[]string{"imbalance", "--white-without", "Q", "--black-without", "P", "--player", "alphabeta:99"}, "--player"},
		{[]string{"imbalance", "--white-without", "Q", "--black-without", "P", "--pawn-coef", "-1"}, "--pawn-coef"},
		{[]string{"imbalance", "--variant", "nosuch", "--white-without", "Q", "--black-without", "P"}, "--variant"},
	} {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and a message naming %q", c.args, code, errb.String(), c.want)
		}
	}
}

func TestImbalanceCommandReportsScoreIntervalAndPawns(t *testing.T) {
	// A bishop off each side: the colour swap of the second arrangement
	// keeps side A's score off 0 and 1, so every reading is finite.
	var out, errb bytes.Buffer
	code := run([]string{"imbalance", "--player", "alphabeta:2", "--white-without", "B", "--black-without", "B", "--games", "16", "--seed", "4"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"16 games, seed 4", "side A lacks B, side B lacks B", "arrangement 2 (seed 5): A is black without d10", "score 0.", "Elo"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !regexp.MustCompile(`in pawns: [+-][0-9]+\.[0-9]+ \[[+-][0-9]+\.[0-9]+, [+-][0-9]+\.[0-9]+\]`).MatchString(out.String()) {
		t.Errorf("output lacks the reading in pawns with its interval:\n%s", out.String())
	}
}

func TestCompareCommandWritesAReportFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rep")
	var out, errb bytes.Buffer
	code := run([]string{"compare", "--variants", "fbgc,fbgc-superpower", "--player", "greedy", "--games", "6", "--max-plies", "60",
		"--bootstrap", "20", "--quiet", "--out", dir}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	body, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fbgc vs fbgc-superpower", "greedy against itself", "## Summary", "## Cross-play", "no cross-play", "bomberzero compare --variants"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestImbalanceTakesThePawnScaleFromAFit(t *testing.T) {
	dir := t.TempDir()
	writeValuesData(t, dir, 400, "fbgc")
	var out, errb bytes.Buffer
	code := run([]string{"imbalance", "--player", "random", "--white-without", "N", "--black-without", "N", "--games", "2", "--max-plies", "10",
		"--values-data", dir}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "by the tanh fit on 400 games of "+dir) || strings.Contains(out.String(), "0.1841 tanh") {
		t.Errorf("the pawn scale does not come from the fit:\n%s", out.String())
	}
}

func TestImbalanceTakesThePlayersOwnPawnFromItsGamesWithAJointInterval(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"imbalance", "--variant", "chess", "--player", "alphabeta:1", "--white-without", "N", "--black-without", "P",
		"--games", "20", "--max-plies", "120", "--pawn-games", "60", "--json", "--quiet"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var res struct {
		Reading struct {
			Joint bool `json:"joint"`
		} `json:"reading"`
		PawnCoef   float64 `json:"pawn_coef"`
		PawnSource string  `json:"pawn_source"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if !strings.Contains(res.PawnSource, "60 games of alphabeta:1 against itself") || res.PawnCoef <= 0 || res.PawnCoef == 0.184104 {
		t.Errorf("pawn %v from %q, want the player's own fit", res.PawnCoef, res.PawnSource)
	}
	// The joint interval exists whenever the reading is in pawns.
	if strings.Contains(out.String(), `"units": {`) && !res.Reading.Joint {
		t.Errorf("pawns reading without the joint bootstrap:\n%s", out.String())
	}
	for _, bad := range [][]string{{"--pawn-games", "-1"}, {"--pawn-games", "5", "--pawn-coef", "0.1"}} {
		code := run(append([]string{"imbalance", "--white-without", "N", "--black-without", "P"}, bad...), &out, &errb)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}

// --pawn-odds plays the match again without the winner's pawn and prints the
// reading in the player's own pawns; a weak player gets a warning on stderr
// and in the output.
func TestImbalancePawnOddsAndTheWeakPlayerWarning(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"imbalance", "--variant", "chess", "--player", "alphabeta:1", "--white-without", "N", "--black-without", "Q",
		"--games", "8", "--pawn-odds", "--quiet"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"pawn odds: side ", "warning: alphabeta:1 is too weak"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errb.String(), "warning: alphabeta:1 is too weak for piece values") || strings.Count(errb.String(), "too weak for piece values") != 1 {
		t.Errorf("stderr %q, want the weak-player warning once", errb.String())
	}
	if strings.Contains(out.String(), "NaN") {
		t.Errorf("NaN in the output:\n%s", out.String())
	}
}
