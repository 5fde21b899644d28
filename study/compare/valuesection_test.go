package compare

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bomberzero/study/values"
)

// A small comparison (compare --games 40) whose fits cannot be made still
// carries the piece-value section: what could not be fitted, why, about how
// many games would fix it, and the calibration line of the player, with a
// warning for a player too weak for the question.
func TestReportAlwaysCarriesThePieceValueSection(t *testing.T) {
	srcs := []Source{{Variant: "a", Kind: "baseline", Player: "alphabeta:2", Games: 40}, {Variant: "b", Kind: "baseline", Player: "alphabeta:2", Games: 40}}
	sets := []*values.Dataset{indexed(synthetic("a", 40, 18, 4)), indexed(synthetic("b", 40, 20, 4))}
	for _, c := range []struct {
		name     string
		noValues bool
		want     []string
	}{
		{"fits fail", false, []string{"a: no piece values by the logistic and tanh fits:", "b: no piece values", "games",
			"Calibration: alphabeta:2", "fails the chess check", "**Warning**: alphabeta:2 is too weak", "engine:nodes=", "no values chart"}},
		{"--no-values", true, []string{"piece values were not fitted: --no-values was given", "Calibration: alphabeta:2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{Variants: []string{"a", "b"}, Games: 40, Seed: 1, Bootstrap: 20, NoValues: c.noValues}
			res, err := Analyze(cfg, srcs, sets)
			if err != nil {
				t.Fatal(err)
			}
			report := writeReport(t, t.TempDir(), res)
			i := strings.Index(report, "\n## Piece values\n")
			if i < 0 {
				t.Fatalf("no piece-value section:\n%s", report)
			}
			section, _, _ := strings.Cut(report[i+1:], "\n## ")
			for _, w := range c.want {
				if !strings.Contains(section, w) {
					t.Errorf("the piece-value section lacks %q:\n%s", w, section)
				}
			}
			if strings.Contains(section, "NaN") {
				t.Errorf("NaN in the section:\n%s", section)
			}
		})
	}
}

// With values for both rule sets the section shows them, their chart and
// the calibration line of a player no calibration was run for.
func TestReportShowsValuesChartAndCalibration(t *testing.T) {
	m := values.ChessModel(false)
	a, b := m.Games(600, 1), m.Games(600, 2)
	a, b = indexed(a), indexed(b)
	srcs := []Source{{Variant: "x", Kind: "model", Model: "models/x.safetensors"}, {Variant: "y", Kind: "model", Model: "models/y.safetensors"}}
	res, err := Analyze(Config{Variants: []string{"x", "y"}, Games: 600, Seed: 1, Bootstrap: 50}, srcs, []*values.Dataset{a, b})
	if err != nil {
		t.Fatal(err)
	}
	report := writeReport(t, t.TempDir(), res)
	for _, w := range []string{"## Piece values", "![piece values](values.png)", "models/x.safetensors is not calibrated: no chess calibration has been run"} {
		if !strings.Contains(report, w) {
			t.Errorf("report lacks %q", w)
		}
	}
}

// indexed numbers ds's games as the pairs of a paired design.
func indexed(ds *values.Dataset) *values.Dataset {
	for i := range ds.Games {
		ds.Games[i].Index = i
	}
	return ds
}

// Degenerate games (one rule set all draws, the other 40 games) give the
// piece-value section's messages, with the games that would fix them (the
// tanh fit still runs where the logistic fit finds no decisive game), and
// neither report.md nor comparison.json prints NaN or an infinity.
func TestDegenerateValuesNeverPrintNaNOrInfinity(t *testing.T) {
	draws := values.ChessModel(true)
	draws.Decisive = 0
	few := values.ChessModel(false)
	srcs := []Source{{Variant: "x", Kind: "baseline", Player: "engine:nodes=3000", Games: 40}, {Variant: "y", Kind: "baseline", Player: "engine:nodes=3000", Games: 40}}
	sets := []*values.Dataset{indexed(draws.Games(40, 1)), indexed(few.Games(40, 2))}
	res, err := Analyze(Config{Variants: []string{"x", "y"}, Games: 40, Seed: 1, Bootstrap: 30}, srcs, sets)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	report := writeReport(t, dir, res)
	for _, w := range []string{"x: no logistic fit: none of the 40 games was decisive", "at least 4000 games at this rate",
		"tanh fit, what is missing: none of these", "![piece values](values.png)",
		"engine:nodes=3000 has not passed the chess check", "R 4.23 [3.76, 4.70] (-25%)"} {
		if !strings.Contains(report, w) {
			t.Errorf("report lacks %q:\n%s", w, report[strings.Index(report, "## Piece values"):])
		}
	}
	js, err := os.ReadFile(filepath.Join(dir, JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"NaN", "Inf"} {
		if strings.Contains(report, bad) || strings.Contains(string(js), bad) {
			t.Errorf("%s in report.md or comparison.json:\n%s", bad, report)
		}
	}
}
