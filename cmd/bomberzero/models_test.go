package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShippedModelsLoadPlayAndHaveACard checks every network in models/:
// it is named after its variant, "analyse" searches the start position
// with it and returns a legal move, and its card beside it gives the
// ladder the issue asks for.
func TestShippedModelsLoadPlayAndHaveACard(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "models", "*.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 2 {
		t.Fatalf("models/ holds %d networks, want fbgc and fbgc-superpower", len(paths))
	}
	for _, path := range paths {
		variant := strings.TrimSuffix(filepath.Base(path), ".safetensors")
		analyseGivesAMove(t, path, variant, path+":8")
		card, err := os.ReadFile(strings.TrimSuffix(path, ".safetensors") + ".md")
		if err != nil {
			t.Errorf("%s has no card: %v", path, err)
			continue
		}
		for _, want := range []string{"random", "alphabeta:1", "commit"} {
			if !strings.Contains(string(card), want) {
				t.Errorf("%s's card does not mention %q", path, want)
			}
		}
	}
}

// TestShippedNetsLoadPlayAndHaveACard checks every learned evaluation in
// models/ (*.nnue): it is named after its variant, the engine searches the
// start position with it and gives a legal move and a PV, a net of another
// variant is refused naming both, and its card beside it names the
// training command, the commit and the match that admitted it.
func TestShippedNetsLoadPlayAndHaveACard(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "models", "*.nnue"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		variant := strings.TrimSuffix(filepath.Base(path), ".nnue")
		analyseGivesAMove(t, path, variant, "engine:nodes=2000:eval="+path)
		other := "chess"
		if variant == "chess" {
			other = "fbgc"
		}
		if code, _, errs := runCmd(t, "analyse", "--variant", other, "--model", "engine:nodes=100:eval="+path, "--json"); code == 0 || !strings.Contains(errs, variant) || !strings.Contains(errs, other) {
			t.Errorf("%s on %s: exit %d, %q; want an error naming both variants", path, other, code, errs)
		}
		card, err := os.ReadFile(strings.TrimSuffix(path, ".nnue") + ".nnue.md")
		if err != nil {
			t.Errorf("%s has no card: %v", path, err)
			continue
		}
		for _, want := range []string{"bomberzero nnue", "commit", "engine:movetime=", "W-D-L"} {
			if !strings.Contains(string(card), want) {
				t.Errorf("%s's card does not mention %q", path, want)
			}
		}
	}
}

// analyseGivesAMove runs "analyse --json" on variant's start position with
// the model spec and reports an error unless it exits 0 with a best move
// and a principal variation.
func analyseGivesAMove(t *testing.T, path, variant, model string) {
	t.Helper()
	code, out, errs := runCmd(t, "analyse", "--variant", variant, "--model", model, "--json")
	if code != 0 {
		t.Errorf("%s: analyse exit %d: %s", path, code, errs)
		return
	}
	var a struct {
		Best string   `json:"best"`
		PV   []string `json:"pv"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil || a.Best == "" || len(a.PV) == 0 {
		t.Errorf("%s: analyse gave %q (%v)", path, out, err)
	}
}
