package values

import (
	"strings"
	"testing"
)

// The embedded table parses and holds the records docs/RESULTS.md
// reports: alphabeta:2 fails, the engine at 1,000 nodes fails, at 3,000
// nodes it has not passed.
func TestEmbeddedCalibrationTableParses(t *testing.T) {
	tab, err := Calibrations()
	if err != nil {
		t.Fatal(err)
	}
	if tab.Version < 1 || len(tab.Runs) == 0 {
		t.Fatalf("table version %d with %d records", tab.Version, len(tab.Runs))
	}
	for spec, want := range map[string]Verdict{"alphabeta:2": Fails, "engine:nodes=1000": Fails, "engine:nodes=3000": NotPassed} {
		run := tab.Lookup(spec, "")
		if run == nil || run.Verdict != want {
			t.Errorf("Lookup(%q) = %+v, want verdict %q", spec, run, want)
			continue
		}
		if !strings.Contains(run.Where, "RESULTS.md") {
			t.Errorf("%s's record is written up in %q, want a docs/RESULTS.md section", spec, run.Where)
		}
	}
	if tab.Lookup("engine:nodes=123", "") != nil {
		t.Errorf("a record for a player never calibrated")
	}
}

func TestParseCalibrationsNamesTheLineAndTheField(t *testing.T) {
	const rec = "engine:nodes=9 | 100 | passes | - | N 3 | somewhere\n"
	cases := []struct {
		name, text string
		want       string // fragment of the error; "" for no error
	}{
		{"good", "# c\n\nversion 2\n" + rec, ""},
		{"no version", rec, "cal.txt:1: a record before the \"version N\" line"},
		{"empty file", "# only a comment\n", "cal.txt: no \"version N\" line"},
		{"bad version", "version two\n", "cal.txt:1: \"version two\": want one \"version N\" line"},
		{"two versions", "version 1\nversion 2\n", "cal.txt:2:"},
		{"too few fields", "version 1\nengine:nodes=9 | 100 | passes\n", "cal.txt:2: 3 fields, want 6 or 7"},
		{"unknown phase", "version 1\nengine:nodes=9 | 10 | passes | - | N 3 | x | opening\n", "cal.txt:2: field 7 (phase) \"opening\": want \"middlegame\" or \"endgame\""},
		{"games not a number", "version 1\nengine:nodes=9 | many | passes | - | N 3 | x\n", "cal.txt:2: field 2 (games) \"many\": want a whole number"},
		{"no games", "version 1\nengine:nodes=9 | 0 | passes | - | N 3 | x\n", "field 2 (games) \"0\""},
		{"unknown verdict", "version 1\nengine:nodes=9 | 10 | ok | - | N 3 | x\n", "cal.txt:2: field 3 (verdict) \"ok\": want \"passes\", \"fails\" or \"not passed\""},
		{"empty field", "version 1\nengine:nodes=9 | 10 | passes |  | N 3 | x\n", "cal.txt:2: field 4 (strength) is empty"},
		{"spaces in the player", "version 1\nengine nodes | 10 | passes | - | N 3 | x\n", "field 1 (player) \"engine nodes\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tab, err := ParseCalibrations(strings.NewReader(c.text), "cal.txt")
			if c.want == "" {
				if err != nil || tab.Version != 2 || len(tab.Runs) != 1 || tab.Runs[0].Games != 100 || tab.Runs[0].Verdict != Passes || tab.Runs[0].Strength != "" {
					t.Errorf("ParseCalibrations = %+v, %v; want version 2, one passing record of 100 games, no strength", tab, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestCalibrationLineSaysWhetherThePlayerPassed(t *testing.T) {
	cases := []struct {
		player string
		want   []string
	}{
		{"engine:nodes=123", []string{"engine:nodes=123 is not calibrated", "no chess calibration has been run", "calibration table v"}},
		{"alphabeta:2", []string{"alphabeta:2", "fails the chess check on 6000 games", "Q/R 2.8-3.1"}},
		{"engine:nodes=1000", []string{"fails the chess check on 2997 games", "Stockfish"}},
		{"Engine:Nodes=3000", []string{"engine:nodes=3000", "has not passed the chess check on 1499 games", "(-25%)", "which fit choice"}},
	}
	for _, c := range cases {
		l := CalibrationLine(c.player, "")
		for _, w := range c.want {
			if !strings.Contains(l, w) {
				t.Errorf("CalibrationLine(%q) = %q, want it to contain %q", c.player, l, w)
			}
		}
	}
}

// Every player without a passing record gets one warning line; the weak
// ones get WeakPlayer's.
func TestUncalibratedPlayerWarnsUnlessTheCheckPassed(t *testing.T) {
	cases := []struct {
		player, want string
	}{
		{"alphabeta:1", "too weak for piece values"},
		{"alphabeta:2", "too weak for piece values"},
		{"engine:nodes=3000", "engine:nodes=3000 has not passed the chess check (1499 games"},
		{"engine:nodes=1000", "engine:nodes=1000 fails the chess check"},
		{"alphabeta:4", "alphabeta:4 has no chess calibration"},
		{"models/fbgc.safetensors:64", "has no chess calibration"},
	}
	for _, c := range cases {
		w := UncalibratedPlayer(c.player, "")
		if !strings.Contains(w, c.want) || strings.Contains(w, "\n") {
			t.Errorf("UncalibratedPlayer(%q) = %q, want one line containing %q", c.player, w, c.want)
		}
	}
	// A player that passed gets no warning; the newest record counts.
	tab, err := ParseCalibrations(strings.NewReader("version 1\n"+
		"engine:nodes=9 | 500 | fails | - | R low | x\n"+
		"engine:nodes=9 | 20000 | passes | 2000 Elo | all within 20% | y\n"), "cal.txt")
	if err != nil {
		t.Fatal(err)
	}
	if w := tab.Warning("engine:nodes=9", ""); w != "" {
		t.Errorf("Warning for a player whose last record passes: %q", w)
	}
	if l := tab.Line("engine:nodes=9", ""); !strings.Contains(l, "(2000 Elo) passes the chess check on 20000 games: all within 20% (y; calibration table v1)") {
		t.Errorf("Line = %q, want the passing record", l)
	}
	if w := tab.Warning("alphabeta:1", ""); !strings.Contains(w, "too weak") {
		t.Errorf("Warning(alphabeta:1) = %q, want the weak player's line", w)
	}
}

// A record of a phase's fit vouches for that fit only: the whole game's
// record stays the whole game's, and a report of another fit is told which
// fit the player passed with.
func TestCalibrationRecordsHoldForTheirFit(t *testing.T) {
	tab, err := ParseCalibrations(strings.NewReader("version 3\n"+
		"engine:nodes=9 | 20000 | fails | - | R 4.39 (-22%) | x\n"+
		"engine:nodes=9 | 20000 | passes | - | R 4.69 (-17%) | y | middlegame\n"), "cal.txt")
	if err != nil {
		t.Fatal(err)
	}
	if run := tab.Lookup("engine:nodes=9", PhaseMiddlegame); run == nil || run.Verdict != Passes || run.Phase != PhaseMiddlegame {
		t.Errorf("middlegame record: %+v, want the passing one", run)
	}
	if run := tab.Lookup("engine:nodes=9", ""); run == nil || run.Verdict != Fails {
		t.Errorf("whole-game record: %+v, want the failing one, not overridden by the middlegame's", run)
	}
	cases := []struct {
		phase, warning, line string
	}{
		{PhaseMiddlegame, "", "passes the chess check with the middlegame fit (--officers middlegame) on 20000 games: R 4.69"},
		{"", "engine:nodes=9 fails the chess check (20000 games, x)", "fails the chess check on 20000 games: R 4.39"},
		{"officers 7-14", "engine:nodes=9's chess calibration (it passes the check; 20000 games, y) is of the middlegame fit (--officers middlegame), not of this fit, the fit of officers 7-14",
			"no calibration of this player covers this report's fit, the fit of officers 7-14"},
	}
	for _, c := range cases {
		if w := tab.Warning("engine:nodes=9", c.phase); (c.warning == "") != (w == "") || !strings.Contains(w, c.warning) {
			t.Errorf("Warning(phase %q) = %q, want %q", c.phase, w, c.warning)
		}
		if l := tab.Line("engine:nodes=9", c.phase); !strings.Contains(l, c.line) {
			t.Errorf("Line(phase %q) = %q, want it to contain %q", c.phase, l, c.line)
		}
	}
}
