package values

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// familyTableScript runs scripts/family-table.py with args over dir and
// returns its standard output; the test skips without python3.
func familyTableScript(t *testing.T, dir string, args ...string) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: scripts/family-table.py is not run")
	}
	cmd := exec.Command(python, append([]string{filepath.Join("..", "..", "scripts", "family-table.py"), "--dir", dir}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("family-table.py %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// TestFamilyTableScriptReadsTheFitsItProjects writes a real fit's JSON (as
// `values --json` writes it) where the script looks for a row's whole-game
// fit, and checks that `table` prints its values and half-widths and that
// `plan` projects the games the widest piece needs, as one over the square
// root of the games, to the number Go computes from the same report.
func TestFamilyTableScriptReadsTheFitsItProjects(t *testing.T) {
	m := ChessModel(true)
	rep, err := PieceValues(m.Games(600, 3), Config{Sample: SampleConfig{SkipPlies: 4, QuietPlies: 2, MaxPerGame: 4}, Methods: []Method{Logistic}, Seed: 1, Bootstrap: 40})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fit-hangars-whole.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Claustrophobia has two chunks of games and no fit; the other rows nothing.
	played := filepath.Join(dir, "claustrophobia-games")
	if err := os.Mkdir(played, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"chunk-0000.parquet", "chunk-0001.parquet"} {
		if err := os.WriteFile(filepath.Join(played, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The middlegame fit's file: another fit of the same games (fewer
	// replicates), so that its cells differ from the whole-game ones.
	mid, err := PieceValues(m.Games(600, 3), Config{Sample: SampleConfig{SkipPlies: 4, QuietPlies: 2, MaxPerGame: 4}, Methods: []Method{Logistic}, Seed: 2, Bootstrap: 20})
	if err != nil {
		t.Fatal(err)
	}
	if data, err = json.Marshal(mid); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fit-hangars-middlegame.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	midTable := familyTableScript(t, dir, "table", "--phase", "middlegame")
	for _, pv := range mid.Fits[0].Pieces {
		if pv.Value == nil || pv.Piece == "P" || pv.Piece == "K" {
			continue
		}
		if cell := fmt.Sprintf("%.2f ±%.2f", pv.Value.Point, (pv.Value.Hi-pv.Value.Lo)/2); !strings.Contains(midTable, cell) {
			t.Errorf("table --phase middlegame lacks %s's cell %q:\n%s", pv.Piece, cell, midTable)
		}
	}

	table := familyTableScript(t, dir, "table")
	if table == midTable {
		t.Errorf("table and table --phase middlegame print the same:\n%s", table)
	}
	need, widest := 0.0, ""
	for _, pv := range rep.Fits[0].Pieces {
		if pv.Value == nil || pv.Piece == "P" || pv.Piece == "K" {
			continue
		}
		half := (pv.Value.Hi - pv.Value.Lo) / 2
		if cell := fmt.Sprintf("%.2f ±%.2f", pv.Value.Point, half); !strings.Contains(table, cell) {
			t.Errorf("table lacks %s's cell %q:\n%s", pv.Piece, cell, table)
		}
		limit := 0.15
		if pv.Piece == "Q" {
			limit = 0.4
		}
		if n := float64(rep.Games) * math.Pow(half/limit, 2); n > need {
			need, widest = n, pv.Piece
		}
	}
	if need <= float64(rep.Games) {
		t.Fatalf("600 synthetic games met every half-width (need %.0f): the test needs a row that does not", need)
	}

	plan := familyTableScript(t, dir, "plan", "--margin", "1")
	want := int(math.Ceil(need))
	row := fmt.Sprintf("| hangars | %s | %s ", withCommas(rep.Games), widest)
	if !strings.Contains(plan, row) || !strings.Contains(plan, "| "+withCommas(want)+" |") {
		t.Errorf("plan: want the row %q and %s games needed:\n%s", row, withCommas(want), plan)
	}
	if ask := fmt.Sprintf("play hangars --games %d`", int(math.Ceil(float64(want)/1000))*1000); !strings.Contains(plan, ask) {
		t.Errorf("plan lacks %q:\n%s", ask, plan)
	}
	for _, line := range []string{
		"| claustrophobia | - | not fitted: 20 games played | - | `scripts/family-table.py fit claustrophobia` |",
		"| fbgc | - | no games here | - | `scripts/family-table.py play fbgc` |",
	} {
		if !strings.Contains(plan, line) {
			t.Errorf("plan lacks the unfitted row %q:\n%s", line, plan)
		}
	}

	// More chunks than the fit read: the projection is stale, so plan
	// asks for the fit again instead.
	extended := filepath.Join(dir, "hangars-games")
	if err := os.Mkdir(extended, 0o755); err != nil {
		t.Fatal(err)
	}
	chunks := rep.Games/10 + 10
	for i := range chunks {
		if err := os.WriteFile(filepath.Join(extended, fmt.Sprintf("chunk-%04d.parquet", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plan = familyTableScript(t, dir, "plan")
	if line := fmt.Sprintf("| hangars | %s | %s games played since the fit | - | `scripts/family-table.py fit hangars` |",
		withCommas(rep.Games), withCommas(10*chunks)); !strings.Contains(plan, line) {
		t.Errorf("plan lacks the stale row %q:\n%s", line, plan)
	}
	// The same chunks older than the fit (games that ended before their
	// first sampled ply leave more chunks than games with positions): the
	// fit read them all, and its projection stands.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "fit-hangars-whole.json"), later, later); err != nil {
		t.Fatal(err)
	}
	if plan = familyTableScript(t, dir, "plan"); strings.Contains(plan, "played since the fit") || !strings.Contains(plan, row) {
		t.Errorf("plan calls a fit newer than every chunk stale:\n%s", plan)
	}

	// A worker writing a row's games on this machine: plan says it is
	// playing rather than asking for a fit of half its games.
	if _, err := os.Stat("/proc/self/cmdline"); err == nil {
		worker := exec.Command("sh", "-c", "sleep 60; :", "bomberzero", "nnue", "worker", "--out", played)
		if err := worker.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = worker.Process.Kill(); _ = worker.Wait() }()
		plan = familyTableScript(t, dir, "plan")
		if line := "| claustrophobia | - | playing: 20 games so far | - | fit when its play ends |"; !strings.Contains(plan, line) {
			t.Errorf("plan lacks the playing row %q:\n%s", line, plan)
		}
	}
}

// TestFamilyTablePlanWithNoFits checks that plan on a directory with no
// fit lists every row with its first step instead of stopping, while
// table, which has nothing to print, says what to run.
func TestFamilyTablePlanWithNoFits(t *testing.T) {
	dir := t.TempDir()
	plan := familyTableScript(t, dir, "plan")
	for _, variant := range []string{"fbgc", "fbgc-superpower", "birds-leaping"} {
		if line := fmt.Sprintf("| %s | - | no games here | - | `scripts/family-table.py play %s` |", variant, variant); !strings.Contains(plan, line) {
			t.Errorf("plan lacks %q:\n%s", line, plan)
		}
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	out, err := exec.Command(python, filepath.Join("..", "..", "scripts", "family-table.py"), "--dir", dir, "table").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no whole-game fits in "+dir) || !strings.Contains(string(out), "plan lists what to run") {
		t.Errorf("table with no fits: want an error naming the directory and plan, got %v:\n%s", err, out)
	}
}

// withCommas writes n as Python's format(n, ",") does.
func withCommas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
